// precis-suite: a small JSON reader (precis-verify's --json report).
//
// Part of bench/suite_runner.cpp (one translation unit); not a public header.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace suite {

namespace fs = std::filesystem;

// ---- a small JSON reader (precis-verify's --json report) -------------------------------

struct Json {
  using Object = std::vector<std::pair<std::string, Json>>;
  using Array = std::vector<Json>;
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> v;

  [[nodiscard]] const Json* get(std::string_view key) const {
    if (const auto* o = std::get_if<Object>(&v))
      for (const auto& [k, x] : *o)
        if (k == key) return &x;
    return nullptr;
  }
  [[nodiscard]] std::optional<std::string> str(std::string_view key) const {
    const Json* x = get(key);
    if (x == nullptr) return std::nullopt;
    if (const auto* s = std::get_if<std::string>(&x->v)) return *s;
    return std::nullopt;
  }
  [[nodiscard]] std::optional<double> num(std::string_view key) const {
    const Json* x = get(key);
    if (x == nullptr) return std::nullopt;
    if (const auto* d = std::get_if<double>(&x->v)) return *d;
    return std::nullopt;
  }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}
  std::optional<Json> parse() {
    auto v = value();
    skip_ws();
    if (!v || i_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool literal(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  std::optional<std::string> string() {
    if (!eat('"')) return std::nullopt;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return std::nullopt;
      c = s_[i_++];
      switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (i_ + 4 > s_.size()) return std::nullopt;
          const unsigned cp =
              static_cast<unsigned>(std::stoul(std::string(s_.substr(i_, 4)), nullptr, 16));
          i_ += 4;
          out += cp < 0x80 ? static_cast<char>(cp) : '?';  // reasons are ASCII
          break;
        }
        default: out += c;
      }
    }
    if (i_ >= s_.size()) return std::nullopt;
    ++i_;
    return out;
  }
  std::optional<Json> value() {
    skip_ws();
    if (i_ >= s_.size()) return std::nullopt;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      Json::Object o;
      if (eat('}')) return Json{std::move(o)};
      do {
        auto k = string();
        if (!k || !eat(':')) return std::nullopt;
        auto v = value();
        if (!v) return std::nullopt;
        o.emplace_back(std::move(*k), std::move(*v));
      } while (eat(','));
      if (!eat('}')) return std::nullopt;
      return Json{std::move(o)};
    }
    if (c == '[') {
      ++i_;
      Json::Array a;
      if (eat(']')) return Json{std::move(a)};
      do {
        auto v = value();
        if (!v) return std::nullopt;
        a.push_back(std::move(*v));
      } while (eat(','));
      if (!eat(']')) return std::nullopt;
      return Json{std::move(a)};
    }
    if (c == '"') {
      auto s = string();
      if (!s) return std::nullopt;
      return Json{std::move(*s)};
    }
    if (literal("true")) return Json{true};
    if (literal("false")) return Json{false};
    if (literal("null")) return Json{nullptr};
    const char* begin = s_.data() + i_;
    char* end = nullptr;
    const double d = std::strtod(begin, &end);
    if (end == begin) return std::nullopt;
    i_ += static_cast<std::size_t>(end - begin);
    return Json{d};
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace suite
