#pragma once
// The CLI's last line of defence for its limits. Every phase of a run checks the time
// and memory limits itself (core/limits.hpp) and ends with UNKNOWN; but a phase can
// block where it cannot check (clang parsing a huge file, an open() on a FIFO with no
// writer, one long solver call, a sudden allocation). The watchdog thread polls the
// clock and the resident memory; past the time limit plus a grace period, or past the
// memory limit for half the grace period (or by half the limit), it prints the UNKNOWN
// report itself and ends the process with exit
// code 2, so that the run never outlives its limits and is never killed by the system.
//
// Only one of the main thread and the watchdog prints the final report: both claim
// `owner` first.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <unistd.h>

#include "precis/core/limits.hpp"

namespace precis_cli {

class Watchdog {
 public:
  // `report(reason)` renders the UNKNOWN report for stdout (text or JSON).
  Watchdog(precis::Limits limits, double grace_s,
           std::function<std::string(const std::string&)> report)
      : limits_(std::move(limits)), grace_s_(grace_s), report_(std::move(report)) {
    if (limits_.time_limit_s > 0 || limits_.memory_limit_mb > 0)
      thread_ = std::thread([this] { loop(); });
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // The main thread calls this before it prints its report. False: the watchdog is
  // printing and ending the process; the caller must not print.
  bool claim_output() {
    int expected = 0;
    return owner_.compare_exchange_strong(expected, 1);
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      cv_.wait_for(lock, std::chrono::milliseconds(20));
      if (stop_) return;
      if (limits_.time_limit_s > 0 && limits_.elapsed() > limits_.time_limit_s + grace_s_) {
        fire(limits_.time_reason());
      } else if (limits_.memory_limit_mb > 0) {
        // Memory gets a grace too: the run's own polls (every phase, every solver call,
        // at most 20 ms apart) end it with its statistics; the watchdog only when the
        // excess lasts half the grace period or reaches half the limit again.
        const std::size_t rss = precis::resident_bytes();
        const std::size_t limit = limits_.memory_limit_mb * std::size_t{1024 * 1024};
        const auto now = std::chrono::steady_clock::now();
        if (rss <= limit) {
          over_since_.reset();
        } else {
          if (!over_since_) over_since_ = now;
          if (rss > limit + limit / 2 ||
              std::chrono::duration<double>(now - *over_since_).count() > grace_s_ / 2)
            fire(limits_.memory_reason());
        }
      }
    }
  }

  void fire(const std::string& reason) {
    int expected = 0;
    if (!owner_.compare_exchange_strong(expected, 2)) return;  // main is printing
    const std::string out = report_(reason);
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::write(1, out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    const std::string note = "precis-verify: " + reason + " (stopped by the watchdog)\n";
    [[maybe_unused]] const ssize_t n = ::write(2, note.data(), note.size());
    ::_exit(2);
  }

  precis::Limits limits_;
  double grace_s_;
  std::optional<std::chrono::steady_clock::time_point> over_since_;  // memory over the limit
  std::function<std::string(const std::string&)> report_;
  std::atomic<int> owner_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace precis_cli
