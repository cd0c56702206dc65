#pragma once
// A minimal streaming JSON writer (objects, arrays, strings, numbers, booleans) for
// machine-readable reports. Commas and escaping are handled here, not by callers.

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

#include "precis/core/big_int.hpp"

namespace precis {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& os) : os_(os) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view k) {
    comma();
    write_string(k);
    os_ << ':';
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
    os_ << (b ? "true" : "false");
    return *this;
  }
  JsonWriter& value(std::int64_t x) {
    comma();
    os_ << x;
    return *this;
  }
  JsonWriter& value(std::uint64_t x) {
    comma();
    os_ << x;
    return *this;
  }
  JsonWriter& value(int x) { return value(static_cast<std::int64_t>(x)); }
  // An exact integer of any size, as a JSON number (JSON numbers are unbounded; a reader
  // that parses them into doubles loses precision beyond 2^53, as for any int64).
  JsonWriter& value(const BigInt& x) {
    comma();
    os_ << to_string(x);
    return *this;
  }
  JsonWriter& value(double x) {
    comma();
    if (std::isfinite(x))
      os_ << x;
    else
      os_ << "null";
    return *this;
  }
  JsonWriter& null() {
    comma();
    os_ << "null";
    return *this;
  }
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  JsonWriter& open(char c) {
    comma();
    os_ << c;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char c) {
    os_ << c;
    first_.pop_back();
    return *this;
  }
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) os_ << ',';
      first_.back() = false;
    }
  }
  void write_string(std::string_view s) {
    os_ << '"';
    for (char ch : s) {
      auto c = static_cast<unsigned char>(ch);
      switch (ch) {
        case '"': os_ << "\\\""; break;
        case '\\': os_ << "\\\\"; break;
        case '\n': os_ << "\\n"; break;
        case '\t': os_ << "\\t"; break;
        case '\r': os_ << "\\r"; break;
        default:
          if (c < 0x20) {
            const char* hex = "0123456789abcdef";
            os_ << "\\u00" << hex[c >> 4] << hex[c & 15];
          } else {
            os_ << ch;
          }
      }
    }
    os_ << '"';
  }

  std::ostream& os_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace precis
