#pragma once
// A fresh folder under the system's temporary directory, removed at the end of scope
// (unique per process and moment, so parallel test runs do not share it).

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <system_error>

namespace precis_test {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "precis-test") {
    path = std::filesystem::temp_directory_path() /
           (prefix + "-" + std::to_string(::getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace precis_test
