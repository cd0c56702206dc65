// Reader of SV-COMP task definitions (format 2.0). The files use a tiny YAML subset:
//
//   format_version: '2.0'
//   input_files: 'sum01-1.c'          (or a list of "- 'file'" items)
//   properties:
//     - property_file: ../properties/unreach-call.prp
//       expected_verdict: false
//   options:
//     language: C
//     data_model: ILP32
//
// so a line-based reader that tracks the enclosing top-level key is enough.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "precis/frontends/c/c_frontend.hpp"

namespace precis::c {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string strip_comment(const std::string& s) {
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (quote != 0) {
      if (s[i] == quote) quote = 0;
    } else if (s[i] == '\'' || s[i] == '"') {
      quote = s[i];
    } else if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
      return s.substr(0, i);
    }
  }
  return s;
}

std::string unquote(std::string s) {
  s = trim(s);
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

}  // namespace

Task read_task(const std::string& yml_path) {
  std::ifstream in(yml_path);
  if (!in) throw input_error(SourcePosition{yml_path, 0, 0}, "cannot read the task file");
  Task task;
  task.yml_file = yml_path;
  std::string section;  // current top-level key
  struct Property {
    std::string file;
    std::optional<bool> verdict;
    std::size_t line = 0;
  };
  std::vector<Property> props;
  std::vector<std::string> inputs;
  std::string data_model;
  std::size_t data_model_line = 0;
  std::string line;
  for (std::size_t no = 1; std::getline(in, line); ++no) {
    line = strip_comment(line);
    if (trim(line).empty()) continue;
    const bool top = line[0] != ' ' && line[0] != '\t' && line[0] != '-';
    std::string body = trim(line);
    bool item = false;
    if (body.rfind("- ", 0) == 0 || body == "-") {
      item = true;
      body = trim(body.substr(1));
    }
    std::string key, value;
    const auto colon = body.find(':');
    if (colon != std::string::npos && body[0] != '\'' && body[0] != '"') {
      key = trim(body.substr(0, colon));
      value = trim(body.substr(colon + 1));
    } else {
      value = body;
    }
    auto bad = [&](const std::string& why) {
      throw input_error(SourcePosition{yml_path, no, 1}, why);
    };
    if (top) {
      if (key.empty()) bad("expected 'key: value'");
      section = key;
      if (key == "input_files" && !value.empty()) {
        if (value.front() == '[') {  // flow list ['a.c', 'b.c']
          std::string inner = value.substr(
              1, value.find(']') == std::string::npos ? std::string::npos : value.find(']') - 1);
          std::size_t p = 0;
          while (p <= inner.size()) {
            auto q = inner.find(',', p);
            std::string f =
                unquote(inner.substr(p, q == std::string::npos ? std::string::npos : q - p));
            if (!f.empty()) inputs.push_back(f);
            if (q == std::string::npos) break;
            p = q + 1;
          }
        } else {
          inputs.push_back(unquote(value));
        }
      }
      continue;
    }
    if (section == "input_files" && item && key.empty()) {
      inputs.push_back(unquote(value));
    } else if (section == "properties") {
      if (item) props.push_back(Property{});
      if (props.empty()) bad("property entry outside a list item");
      if (key == "property_file") {
        props.back().file = unquote(value);
        props.back().line = no;
      } else if (key == "expected_verdict") {
        std::string v = unquote(value);
        if (v == "true")
          props.back().verdict = true;
        else if (v == "false")
          props.back().verdict = false;
        else
          bad("expected_verdict must be true or false, not '" + v + "'");
      }
    } else if (section == "options" && key == "data_model") {
      data_model = unquote(value);
      data_model_line = no;
    }
  }
  if (inputs.empty())
    throw input_error(SourcePosition{yml_path, 0, 0}, "the task has no input_files");
  if (inputs.size() > 1)
    throw input_error(SourcePosition{yml_path, 0, 0},
                      "unsupported: tasks with several input files");
  const std::filesystem::path dir = std::filesystem::path(yml_path).parent_path();
  task.c_file = (dir / inputs.front()).lexically_normal().string();
  // The reachability property: unreach-call. Other properties (termination, ...) are
  // not what precis checks.
  for (const Property& p : props)
    if (p.file.find("unreach-call") != std::string::npos) {
      task.property_file = p.file;
      task.expected_verdict = p.verdict;
    }
  if (data_model.empty() || data_model == "ILP32")
    task.data_model = DataModel::ILP32;
  else if (data_model == "LP64")
    task.data_model = DataModel::LP64;
  else
    throw input_error(SourcePosition{yml_path, data_model_line, 1},
                      "unknown data_model '" + data_model + "'");
  return task;
}

}  // namespace precis::c
