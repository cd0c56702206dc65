#pragma once
// Errors in user input (model files, command-line values) carry a source position so
// that the CLI can print one clear "file:line:col: error: ..." message.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace precis {

struct SourcePosition {
  std::string file;
  std::size_t line = 0;    // 1-based; 0 means "unknown"
  std::size_t column = 0;  // 1-based; 0 means "unknown"
};

inline std::string to_string(const SourcePosition& pos) {
  std::string s = pos.file.empty() ? std::string("<input>") : pos.file;
  if (pos.line != 0) {
    s += ':' + std::to_string(pos.line);
    if (pos.column != 0) s += ':' + std::to_string(pos.column);
  }
  return s;
}

class input_error : public std::runtime_error {
 public:
  input_error(SourcePosition pos, const std::string& message)
      : std::runtime_error(to_string(pos) + ": error: " + message),
        pos_(std::move(pos)),
        message_(message) {}

  [[nodiscard]] const SourcePosition& position() const noexcept { return pos_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  SourcePosition pos_;
  std::string message_;
};

// Raised when a term is built with operands of the wrong type. Readers catch it and
// rethrow it as an input_error with the position of the offending expression.
class type_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace precis
