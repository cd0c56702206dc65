#pragma once
// A minimal streaming JSON writer (objects, arrays, strings, numbers, booleans) for
// machine-readable reports. Commas and escaping are handled here, not by callers.
//
// The text goes to the stream in blocks (64 KB, and whenever the outermost value is
// complete, and at destruction): a counterexample of millions of steps is hundreds of MB
// of JSON, and writing it a character at a time to a stdio-synchronized std::cout took
// 6 s for 327 MB.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "precis/core/big_int.hpp"

namespace precis {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& os) : os_(os) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  ~JsonWriter() { flush(); }

  // Writes what is buffered to the stream.
  void flush() {
    if (buf_.empty()) return;
    os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view k) {
    comma();
    write_string(k);
    put(':');
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view s) {
    comma();
    write_string(s);
    return *this;
  }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b) {
    comma();
    put(b ? "true" : "false");
    return *this;
  }
  JsonWriter& value(std::int64_t x) {
    comma();
    return integer(x);
  }
  JsonWriter& value(std::uint64_t x) {
    comma();
    return integer(x);
  }
  JsonWriter& value(int x) { return value(static_cast<std::int64_t>(x)); }
  // An exact integer of any size, as a JSON number (JSON numbers are unbounded; a reader
  // that parses them into doubles loses precision beyond 2^53, as for any int64).
  JsonWriter& value(const BigInt& x) {
    comma();
    if (const auto small = to_int64(x)) return integer(*small);
    put(to_string(x));
    return *this;
  }
  JsonWriter& value(double x) {
    comma();
    if (!std::isfinite(x)) {
      put("null");
      return *this;
    }
    // As std::ostream's default for a double: %g, 6 significant digits.
    char text[32];
    const int n = std::snprintf(text, sizeof text, "%g", x);
    put(std::string_view(text, static_cast<std::size_t>(n)));
    return *this;
  }
  JsonWriter& null() {
    comma();
    put("null");
    return *this;
  }
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  static constexpr std::size_t kBlock = 64 * 1024;

  void put(char c) { buf_.push_back(c); }
  void put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kBlock) flush();
  }
  template <class Int>
  JsonWriter& integer(Int x) {
    char text[24];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, x);
    (void)ec;  // 24 characters hold any 64-bit integer
    put(std::string_view(text, static_cast<std::size_t>(end - text)));
    return *this;
  }
  JsonWriter& open(char c) {
    comma();
    put(c);
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char c) {
    put(c);
    first_.pop_back();
    if (first_.empty()) flush();  // the outermost value is complete
    return *this;
  }
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) put(',');
      first_.back() = false;
    }
  }
  void write_string(std::string_view s) {
    put('"');
    std::size_t run = 0;  // start of the characters that need no escape
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      buf_.append(s.substr(run, i - run));
      run = i + 1;
      switch (c) {
        case '"': buf_ += "\\\""; break;
        case '\\': buf_ += "\\\\"; break;
        case '\n': buf_ += "\\n"; break;
        case '\t': buf_ += "\\t"; break;
        case '\r': buf_ += "\\r"; break;
        default: {
          const char* hex = "0123456789abcdef";
          buf_ += "\\u00";
          buf_ += hex[c >> 4];
          buf_ += hex[c & 15];
        }
      }
    }
    buf_.append(s.substr(run));
    put('"');
    if (buf_.size() >= kBlock) flush();
  }

  std::ostream& os_;
  std::string buf_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace precis
