// Reader of SV-COMP task definitions (formats 1.0, 1.1 and 2.0) on yaml-cpp:
//
//   format_version: '2.0'
//   input_files: 'sum01-1.c'          (or a list)
//   properties:
//     - property_file: ../properties/unreach-call.prp
//       expected_verdict: false
//   options:
//     language: C
//     data_model: ILP32
//
// Format 1.0 has the same input_files and properties but no options: its tasks are C
// programs for the ILP32 data model. Format 1.1 added the options (language, data_model),
// and 2.0 kept them (it changed only how a property names its subproperties). Other
// versions are rejected at the version's position.
//
// The YAML library decides what is YAML (anchors and aliases are fine; a tab in the
// indentation, an unclosed quote or an unbalanced bracket is an error). Every error is
// an input_error with the task file, line and column. precis checks one property,
// unreach-call: a task without it is unsupported (never verified for something else).

#include <yaml-cpp/yaml.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "precis/frontends/c/c_frontend.hpp"

namespace precis::c {
namespace {

SourcePosition at(const std::string& file, const YAML::Mark& m) {
  if (m.is_null()) return {file, 0, 0};
  return {file, static_cast<std::size_t>(m.line) + 1, static_cast<std::size_t>(m.column) + 1};
}

[[noreturn]] void bad(const std::string& file, const YAML::Node& n, const std::string& why) {
  throw input_error(at(file, n.Mark()), why);
}

std::string scalar(const std::string& file, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) bad(file, n, what + " must be a string");
  return n.Scalar();
}

}  // namespace

Task read_task(const std::string& yml_path) {
  // A FIFO without a writer would block the reader: regular files only.
  struct stat st {};
  if (::stat(yml_path.c_str(), &st) != 0)
    throw input_error(SourcePosition{yml_path, 0, 0}, "cannot read the task file");
  if (!S_ISREG(st.st_mode))
    throw input_error(SourcePosition{yml_path, 0, 0}, "the task file is not a regular file");

  YAML::Node root;
  try {
    root = YAML::LoadFile(yml_path);
  } catch (const YAML::BadFile&) {
    throw input_error(SourcePosition{yml_path, 0, 0}, "cannot read the task file");
  } catch (const YAML::Exception& e) {
    throw input_error(at(yml_path, e.mark), "invalid YAML: " + e.msg);
  }

  Task task;
  task.yml_file = yml_path;
  try {
    if (!root.IsMap())
      bad(yml_path, root, "a task file is a map (format_version, input_files, ...)");
    if (const YAML::Node v = root["format_version"]) {
      const std::string fv = scalar(yml_path, v, "format_version");
      if (fv != "1.0" && fv != "1.1" && fv != "2.0")
        bad(yml_path, v, "unsupported format_version '" + fv + "' (precis reads 1.0, 1.1 and 2.0)");
    }

    // input_files: one string or a list of strings.
    const YAML::Node files = root["input_files"];
    if (!files) bad(yml_path, root, "the task has no input_files");
    std::vector<std::string> inputs;
    if (files.IsSequence()) {
      for (const auto& f : files) inputs.push_back(scalar(yml_path, f, "an input file"));
    } else {
      inputs.push_back(scalar(yml_path, files, "input_files"));
    }
    if (inputs.empty()) bad(yml_path, files, "the task has no input_files");
    if (inputs.size() > 1) bad(yml_path, files, "unsupported: tasks with several input files");
    const std::filesystem::path dir = std::filesystem::path(yml_path).parent_path();
    task.c_file = (dir / inputs.front()).lexically_normal().string();

    // properties: precis checks unreach-call; any other property alone is unsupported.
    const YAML::Node props = root["properties"];
    std::vector<std::string> others;
    bool found = false;
    if (props) {
      if (!props.IsSequence()) bad(yml_path, props, "properties must be a list");
      for (const auto& p : props) {
        if (!p.IsMap()) bad(yml_path, p, "a property is a map (property_file, expected_verdict)");
        const YAML::Node file = p["property_file"];
        if (!file) bad(yml_path, p, "a property without property_file");
        const std::string name = scalar(yml_path, file, "property_file");
        std::optional<bool> verdict;
        if (const YAML::Node v = p["expected_verdict"]) {
          const std::string s = scalar(yml_path, v, "expected_verdict");
          if (s == "true")
            verdict = true;
          else if (s == "false")
            verdict = false;
          else
            bad(yml_path, v, "expected_verdict must be true or false, not '" + s + "'");
        }
        const std::string stem = std::filesystem::path(name).stem().string();
        if (stem == "unreach-call") {
          task.property_file = name;
          task.expected_verdict = verdict;
          found = true;
        } else {
          others.push_back(stem);
        }
      }
    }
    if (!found) {
      std::string has;
      for (const auto& o : others) has += (has.empty() ? "" : ", ") + o;
      bad(yml_path, props ? props : root,
          "unsupported property: precis checks unreach-call only (the task has " +
              (has.empty() ? std::string("no property") : has) + ")");
    }

    // Without options (format 1.0, or a 1.1/2.0 file that leaves them out): C, ILP32.
    std::string data_model = "ILP32";
    YAML::Node dm;
    if (const YAML::Node opts = root["options"]) {
      if (!opts.IsMap()) bad(yml_path, opts, "options must be a map");
      if (const YAML::Node lang = opts["language"]) {
        const std::string l = scalar(yml_path, lang, "language");
        if (l != "C") bad(yml_path, lang, "unsupported language '" + l + "' (precis reads C)");
      }
      dm = opts["data_model"];
      if (dm) data_model = scalar(yml_path, dm, "data_model");
    }
    if (data_model == "ILP32")
      task.data_model = DataModel::ILP32;
    else if (data_model == "LP64")
      task.data_model = DataModel::LP64;
    else
      bad(yml_path, dm, "unknown data_model '" + data_model + "'");
  } catch (const YAML::Exception& e) {
    // Conversions of malformed nodes.
    throw input_error(at(yml_path, e.mark), "invalid task file: " + e.msg);
  }
  return task;
}

}  // namespace precis::c

namespace precis::c {

// A correctness witness, YAML format 2.0 (io/witness.hpp writes it): the loop
// invariants of every invariant_set entry. Other entry types and invariant types are
// skipped (a validator checks what it understands, and says so).
std::vector<WitnessInvariant> read_correctness_witness(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw input_error(SourcePosition{path, 0, 0}, "cannot read the witness (not a regular file)");
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw input_error(SourcePosition{path, 0, 0}, "cannot read the witness");
  } catch (const YAML::Exception& e) {
    throw input_error(at(path, e.mark), "invalid YAML: " + e.msg);
  }
  if (!root.IsSequence()) bad(path, root, "a correctness witness is a list of entries");
  std::vector<WitnessInvariant> out;
  for (const YAML::Node& entry : root) {
    if (!entry.IsMap()) bad(path, entry, "a witness entry must be a map");
    const YAML::Node type = entry["entry_type"];
    if (!type || scalar(path, type, "entry_type") != "invariant_set") continue;
    const YAML::Node content = entry["content"];
    if (!content) continue;
    if (!content.IsSequence()) bad(path, content, "content must be a list");
    for (const YAML::Node& item : content) {
      const YAML::Node inv = item["invariant"];
      if (!inv || !inv.IsMap()) continue;
      const YAML::Node t = inv["type"];
      if (!t || scalar(path, t, "invariant type") != "loop_invariant") continue;
      const YAML::Node loc = inv["location"];
      if (!loc || !loc.IsMap()) bad(path, inv, "a loop invariant needs a location");
      WitnessInvariant w;
      w.where = at(path, inv.Mark());
      const YAML::Node line = loc["line"];
      if (!line) bad(path, loc, "the location has no line");
      try {
        w.line = line.as<std::uint32_t>();
        if (loc["column"]) w.column = loc["column"].as<std::uint32_t>();
      } catch (const YAML::Exception&) {
        bad(path, loc, "line and column must be non-negative integers");
      }
      if (loc["function"]) w.function = scalar(path, loc["function"], "function");
      const YAML::Node value = inv["value"];
      if (!value) bad(path, inv, "a loop invariant needs a value");
      w.value = scalar(path, value, "value");
      w.value_where = at(path, value.Mark());
      if (value.Tag() == "!") ++w.value_where.column;  // a quoted scalar: after the quote
      if (inv["format"] && scalar(path, inv["format"], "format") != "c_expression")
        bad(path, inv["format"], "unsupported invariant format (precis reads c_expression)");
      out.push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace precis::c
