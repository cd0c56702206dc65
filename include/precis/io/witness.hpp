#pragma once
// Verification witnesses: their content and their files, without any knowledge of the
// analyses that produce them or of the validators that check them.
//
// - Violation witnesses for C tasks, GraphML witness format 1.0 (sv-witnesses,
//   README-GraphML.md): write_violation_graphml, read_violation_graphml.
// - Correctness witnesses for C tasks, YAML witness format 2.0 (one `invariant_set` entry
//   of `loop_invariant`s): write_correctness_yaml. Reading YAML is the front end's job.
// - Witnesses for .cfa models, for which no standard exists: write_cfa_witness_json.

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <array>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "precis/core/input_error.hpp"
#include "precis/io/json_writer.hpp"

namespace precis {

// What a witness is about, shared by all formats.
struct WitnessTask {
  std::string program_file;  // as given to the verifier
  std::string program_hash;  // SHA-256 in hex (io/sha256.hpp)
  std::string specification = "CHECK( init(main()), LTL(G ! call(reach_error())) )";
  std::string architecture = "32bit";  // GraphML: "32bit" or "64bit"
  std::string producer = "precis";
  std::string producer_version = "0.1.0";  // YAML metadata requires a version
  std::string creation_time;               // ISO 8601; iso8601_now() when empty
};

// The current time in UTC, ISO 8601 to the second: "2024-05-01T13:45:07Z".
inline std::string iso8601_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
#if defined(_WIN32)
  gmtime_s(&utc, &now);
#else
  gmtime_r(&now, &utc);
#endif
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf.data();
}

// ---- violation witnesses (GraphML 1.0) ---------------------------------------------------

// One transition of the witness automaton: the CFA edge it matches (source-code guard:
// line, branch, function call or return) and, for a nondeterministic input, the value
// chosen (state-space guard).
struct ViolationStep {
  std::uint32_t startline = 0;  // 0: no line
  std::string assumption;       // a C expression, e.g. "\\result == 5;" or "x == 5;"; empty if none
  std::string assumption_scope;      // function whose variables `assumption` names; may be empty
  std::string result_function;       // function `\result` refers to, e.g. __VERIFIER_nondet_int
  std::optional<bool> control;       // condition-true / condition-false on a branch
  std::string enter_function;        // the edge calls this function
  std::string return_from_function;  // the edge returns from this function
  friend bool operator==(const ViolationStep&, const ViolationStep&) = default;
};

namespace detail::witness {

// Text for XML character data and attribute values.
inline std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// A YAML double-quoted scalar: backslash escapes for '"', '\\' and control characters;
// other bytes (UTF-8 included) are written as they are.
inline std::string yaml_quote(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

inline std::string creation_time(const WitnessTask& task) {
  return task.creation_time.empty() ? iso8601_now() : task.creation_time;
}

// A random (version 4) UUID, RFC 4122: 122 random bits from std::random_device.
inline std::string uuid_v4() {
  std::random_device rd;
  std::array<unsigned char, 16> b{};
  for (std::size_t i = 0; i < b.size(); i += 4) {
    const std::uint32_t r = rd();
    for (std::size_t j = 0; j < 4; ++j) b[i + j] = static_cast<unsigned char>(r >> (8 * j));
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);  // variant 10
  static constexpr char hex[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += hex[b[i] >> 4];
    s += hex[b[i] & 15];
  }
  return s;
}

[[noreturn]] inline void fail(const std::string& file, const std::string& msg,
                              std::size_t line = 0) {
  throw input_error({file, line, 0}, msg);
}

inline std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace detail::witness

// Writes a violation witness: an entry node, one node per step (the edge into it carries
// the step's data), the last node marked `violation` (the entry node itself when there
// are no steps). Every key is declared in the header, the Boolean node and edge keys with
// their default `false`, as the format requires.
inline void write_violation_graphml(std::ostream& os, const WitnessTask& task,
                                    const std::vector<ViolationStep>& steps) {
  using detail::witness::xml_escape;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
        "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n";
  auto key = [&](const char* id, const char* name, const char* type, const char* domain,
                 const char* dflt) {
    os << " <key attr.name=\"" << name << "\" attr.type=\"" << type << "\" for=\"" << domain
       << "\" id=\"" << id << "\"";
    if (dflt != nullptr)
      os << ">\n  <default>" << dflt << "</default>\n </key>\n";
    else
      os << "/>\n";
  };
  key("witness-format-version", "witness-format-version", "string", "graph", nullptr);
  key("witness-type", "witness-type", "string", "graph", nullptr);
  key("sourcecodelang", "sourcecodeLanguage", "string", "graph", nullptr);
  key("producer", "producer", "string", "graph", nullptr);
  key("specification", "specification", "string", "graph", nullptr);
  key("programfile", "programFile", "string", "graph", nullptr);
  key("programhash", "programHash", "string", "graph", nullptr);
  key("architecture", "architecture", "string", "graph", nullptr);
  key("creationtime", "creationTime", "string", "graph", nullptr);
  key("entry", "isEntryNode", "boolean", "node", "false");
  key("sink", "isSinkNode", "boolean", "node", "false");
  key("violation", "isViolationNode", "boolean", "node", "false");
  key("enterLoopHead", "enterLoopHead", "boolean", "edge", "false");
  key("startline", "startline", "int", "edge", nullptr);
  key("control", "control", "string", "edge", nullptr);
  key("assumption", "assumption", "string", "edge", nullptr);
  key("assumption.scope", "assumption.scope", "string", "edge", nullptr);
  key("assumption.resultfunction", "assumption.resultfunction", "string", "edge", nullptr);
  key("enterFunction", "enterFunction", "string", "edge", nullptr);
  key("returnFromFunction", "returnFromFunction", "string", "edge", nullptr);

  auto data = [&](const char* indent, const char* k, std::string_view v) {
    os << indent << "<data key=\"" << k << "\">" << xml_escape(v) << "</data>\n";
  };
  os << " <graph edgedefault=\"directed\">\n";
  data("  ", "witness-format-version", "1.0");
  data("  ", "witness-type", "violation_witness");
  data("  ", "sourcecodelang", "C");
  data("  ", "producer",
       task.producer_version.empty() ? task.producer : task.producer + " " + task.producer_version);
  data("  ", "specification", task.specification);
  data("  ", "programfile", task.program_file);
  data("  ", "programhash", task.program_hash);
  data("  ", "architecture", task.architecture);
  data("  ", "creationtime", detail::witness::creation_time(task));

  auto node = [&](std::size_t i) {
    const bool entry = i == 0, violation = i == steps.size();
    os << "  <node id=\"N" << i << "\"";
    if (!entry && !violation) {
      os << "/>\n";
      return;
    }
    os << ">\n";
    if (entry) data("   ", "entry", "true");
    if (violation) data("   ", "violation", "true");
    os << "  </node>\n";
  };
  node(0);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ViolationStep& s = steps[i];
    node(i + 1);
    os << "  <edge source=\"N" << i << "\" target=\"N" << i + 1 << "\"";
    const bool empty = s.startline == 0 && !s.control && s.assumption.empty() &&
                       s.enter_function.empty() && s.return_from_function.empty();
    if (empty) {
      os << "/>\n";
      continue;
    }
    os << ">\n";
    if (s.startline != 0) data("   ", "startline", std::to_string(s.startline));
    if (s.control) data("   ", "control", *s.control ? "condition-true" : "condition-false");
    if (!s.assumption.empty()) {
      data("   ", "assumption", s.assumption);
      if (!s.assumption_scope.empty()) data("   ", "assumption.scope", s.assumption_scope);
      if (!s.result_function.empty()) data("   ", "assumption.resultfunction", s.result_function);
    }
    if (!s.enter_function.empty()) data("   ", "enterFunction", s.enter_function);
    if (!s.return_from_function.empty()) data("   ", "returnFromFunction", s.return_from_function);
    os << "  </edge>\n";
  }
  os << " </graph>\n</graphml>\n";
}

struct ParsedViolationWitness {
  WitnessTask task;  // fields the witness does not give are empty (architecture: "32bit")
  std::vector<ViolationStep> path;
};

// Reads a GraphML violation witness and extracts one path of its automaton: from the
// entry node, at each node the first out-edge (in document order) whose target can reach
// a violation node, up to the first violation node. The automaton may branch (edges to
// sink nodes, alternatives), but the part of it that is reachable from the entry node and
// leads to a violation node must be acyclic: a cycle there is an error, since a single
// finite path could not represent it. `assumption.scope` and `assumption.resultfunction`
// are read only with an `assumption`, as the writer writes them.
//
// Errors are input_error with the file name: the file cannot be opened, malformed XML
// (with the parser's line), not GraphML, not a violation witness, no or several entry
// nodes, no path to a violation node, a cycle, an invalid startline or control value.
inline ParsedViolationWitness read_violation_graphml(const std::string& path) {
  namespace pt = boost::property_tree;
  using detail::witness::trim;
  auto fail = [&path](const std::string& msg, std::size_t line = 0) {
    detail::witness::fail(path, msg, line);
  };

  std::ifstream in(path);
  if (!in) fail("cannot open the file");
  pt::ptree doc;
  try {
    pt::read_xml(in, doc);
  } catch (const pt::xml_parser_error& e) {
    fail("malformed XML: " + e.message(), e.line());
  }
  const auto root = doc.get_child_optional("graphml");
  if (!root) fail("not a GraphML file (no <graphml> root element)");
  const auto graph = root->get_child_optional("graph");
  if (!graph) fail("not a GraphML witness (no <graph> element)");

  auto attr = [](const pt::ptree& t, const char* name) {
    return t.get<std::string>(std::string("<xmlattr>.") + name, "");
  };
  // Key declarations: defaults per key id. `returnFrom` is an older id of
  // `returnFromFunction` that some producers use.
  auto canonical = [](std::string id) {
    return id == "returnFrom" ? std::string("returnFromFunction") : id;
  };
  std::map<std::string, std::string> node_defaults, edge_defaults;
  for (const auto& [tag, k] : *root) {
    if (tag != "key") continue;
    const auto dflt = k.get_optional<std::string>("default");
    if (!dflt) continue;
    const std::string domain = attr(k, "for");
    if (domain == "node") node_defaults[canonical(attr(k, "id"))] = trim(*dflt);
    if (domain == "edge") edge_defaults[canonical(attr(k, "id"))] = trim(*dflt);
  }
  auto data_of = [&](const pt::ptree& t, const std::map<std::string, std::string>& defaults) {
    std::map<std::string, std::string> d = defaults;
    for (const auto& [tag, v] : t)
      if (tag == "data") d[canonical(attr(v, "key"))] = trim(v.data());
    return d;
  };

  ParsedViolationWitness result;
  result.task = WitnessTask{};
  result.task.specification.clear();
  result.task.producer.clear();
  result.task.producer_version.clear();
  const auto graph_data = data_of(*graph, {});
  auto graph_value = [&](const char* k) {
    auto it = graph_data.find(k);
    return it == graph_data.end() ? std::string() : it->second;
  };
  if (auto t = graph_value("witness-type"); !t.empty() && t != "violation_witness")
    fail("not a violation witness (witness-type is '" + t + "')");
  result.task.program_file = graph_value("programfile");
  result.task.program_hash = graph_value("programhash");
  result.task.specification = graph_value("specification");
  result.task.producer = graph_value("producer");
  result.task.creation_time = graph_value("creationtime");
  if (auto a = graph_value("architecture"); !a.empty()) result.task.architecture = a;

  struct Edge {
    std::string source, target;
    std::map<std::string, std::string> data;
  };
  std::vector<Edge> edges;
  std::set<std::string> nodes, violations;
  std::optional<std::string> entry;
  for (const auto& [tag, t] : *graph) {
    if (tag == "node") {
      const std::string id = attr(t, "id");
      if (id.empty()) fail("a node without an id");
      nodes.insert(id);
      const auto d = data_of(t, node_defaults);
      auto is_true = [&](const char* k) {
        auto it = d.find(k);
        return it != d.end() && it->second == "true";
      };
      if (is_true("entry")) {
        if (entry && *entry != id)
          fail("more than one entry node ('" + *entry + "' and '" + id + "')");
        entry = id;
      }
      if (is_true("violation")) violations.insert(id);
    } else if (tag == "edge") {
      Edge e{attr(t, "source"), attr(t, "target"), data_of(t, edge_defaults)};
      if (e.source.empty() || e.target.empty()) fail("an edge without source or target");
      edges.push_back(std::move(e));
    }
  }
  if (!entry) fail("the witness has no entry node");
  if (violations.empty()) fail("the witness has no violation node");
  for (const Edge& e : edges)
    for (const std::string* n : {&e.source, &e.target})
      if (!nodes.count(*n)) fail("an edge refers to the undeclared node '" + *n + "'");

  // Nodes from which a violation node is reachable.
  std::map<std::string, std::vector<std::size_t>> out, in_edges;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    out[edges[i].source].push_back(i);
    in_edges[edges[i].target].push_back(i);
  }
  std::set<std::string> live(violations.begin(), violations.end());
  std::vector<std::string> work(violations.begin(), violations.end());
  while (!work.empty()) {
    const std::string n = work.back();
    work.pop_back();
    for (std::size_t i : in_edges[n])
      if (live.insert(edges[i].source).second) work.push_back(edges[i].source);
  }
  if (!live.count(*entry)) fail("no path from the entry node to a violation node");

  // The live part reachable from the entry node must be acyclic (iterative DFS; a path
  // stops at a violation node, so edges out of violation nodes do not count).
  {
    enum class Mark { New, Open, Done };
    std::map<std::string, Mark> mark;
    std::vector<std::pair<std::string, std::size_t>> stack{{*entry, 0}};
    mark[*entry] = Mark::Open;
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      const auto& succ = out[n];
      if (violations.count(n) || next == succ.size()) {
        mark[n] = Mark::Done;
        stack.pop_back();
        continue;
      }
      const Edge& e = edges[succ[next++]];
      if (!live.count(e.target)) continue;
      const Mark m = mark.count(e.target) ? mark[e.target] : Mark::New;
      if (m == Mark::Open)
        fail("the witness automaton has a cycle through node '" + e.target +
             "' on the way to a violation node; only acyclic paths are supported");
      if (m == Mark::New) {
        mark[e.target] = Mark::Open;
        stack.emplace_back(e.target, 0);
      }
    }
  }

  auto step_of = [&](const Edge& e) {
    ViolationStep s;
    auto get = [&](const char* k) {
      auto it = e.data.find(k);
      return it == e.data.end() ? std::string() : it->second;
    };
    if (auto line = get("startline"); !line.empty()) {
      std::uint64_t v = 0;
      for (char c : line) {
        if (c < '0' || c > '9' || v > 0xFFFFFFFFULL / 10)
          fail("invalid startline '" + line + "' on the edge " + e.source + " -> " + e.target);
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
      }
      if (v > 0xFFFFFFFFULL)
        fail("invalid startline '" + line + "' on the edge " + e.source + " -> " + e.target);
      s.startline = static_cast<std::uint32_t>(v);
    }
    if (auto c = get("control"); !c.empty()) {
      if (c == "condition-true")
        s.control = true;
      else if (c == "condition-false")
        s.control = false;
      else
        fail("invalid control value '" + c + "' on the edge " + e.source + " -> " + e.target);
    }
    s.assumption = get("assumption");
    if (!s.assumption.empty()) {
      s.assumption_scope = get("assumption.scope");
      s.result_function = get("assumption.resultfunction");
    }
    s.enter_function = get("enterFunction");
    s.return_from_function = get("returnFromFunction");
    return s;
  };

  std::string cur = *entry;
  while (!violations.count(cur)) {
    const Edge* chosen = nullptr;
    for (std::size_t i : out[cur])
      if (live.count(edges[i].target)) {
        chosen = &edges[i];
        break;
      }
    // `cur` is live and not a violation node, so it has a live successor.
    if (chosen == nullptr) fail("internal error: lost the path to a violation node");
    result.path.push_back(step_of(*chosen));
    cur = chosen->target;
  }
  return result;
}

// ---- correctness witnesses (YAML 2.0) ----------------------------------------------------

// An invariant at the head of a loop, as a C expression over the program's variables.
//
// Format 2.0 (sv-witnesses, correctness witnesses, "invariant_set"): the location of a
// loop invariant points to the first character of the loop's keyword (for, while, do);
// line and column are 1-based (the column of `while` indented by two spaces is 3, as in
// goblint/analyzer's tests/regression/56-witness/71-safe-program-example-loop-invariants-1.t
// for 72-...-2.c's `  while (i < n)`), and a missing column means the leftmost suitable
// position (format 2.1 schema text, ultimate-pa.github.io/concurrency-witnesses). Field
// names (metadata.task.input_files, input_file_hashes, data_model, language; invariant
// type, location {file_name, line, column, function}, value, format: c_expression) as in
// goblint/analyzer src/witness/yamlWitnessType.ml, InvariantSet.
struct LoopInvariant {
  std::string file_name;
  std::uint32_t line = 0, column = 0;  // 1-based; column 0: not written
  std::string function;                // empty: not written
  std::string value;                   // C expression
};

// Writes a YAML format 2.0 correctness witness: a list with one `invariant_set` entry whose
// content has one `loop_invariant` per element of `invariants` (an empty list gives
// `content: []`). `data_model` is "ILP32" or "LP64". Strings are double-quoted with
// escapes, so any file name or expression text is safe.
inline void write_correctness_yaml(std::ostream& os, const WitnessTask& task,
                                   const std::vector<LoopInvariant>& invariants,
                                   std::string_view data_model) {
  using detail::witness::yaml_quote;
  os << "- entry_type: \"invariant_set\"\n"
        "  metadata:\n"
        "    format_version: \"2.0\"\n"
     << "    uuid: " << yaml_quote(detail::witness::uuid_v4()) << "\n"
     << "    creation_time: " << yaml_quote(detail::witness::creation_time(task)) << "\n"
     << "    producer:\n"
     << "      name: " << yaml_quote(task.producer) << "\n"
     << "      version: " << yaml_quote(task.producer_version) << "\n"
     << "    task:\n"
     << "      input_files:\n"
     << "        - " << yaml_quote(task.program_file) << "\n"
     << "      input_file_hashes:\n"
     << "        " << yaml_quote(task.program_file) << ": " << yaml_quote(task.program_hash) << "\n"
     << "      specification: " << yaml_quote(task.specification) << "\n"
     << "      data_model: " << yaml_quote(data_model) << "\n"
     << "      language: \"C\"\n";
  if (invariants.empty()) {
    os << "  content: []\n";
    return;
  }
  os << "  content:\n";
  for (const LoopInvariant& inv : invariants) {
    os << "    - invariant:\n"
          "        type: \"loop_invariant\"\n"
          "        location:\n"
       << "          file_name: " << yaml_quote(inv.file_name) << "\n"
       << "          line: " << inv.line << "\n";
    if (inv.column != 0) os << "          column: " << inv.column << "\n";
    if (!inv.function.empty()) os << "          function: " << yaml_quote(inv.function) << "\n";
    os << "        value: " << yaml_quote(inv.value) << "\n"
       << "        format: \"c_expression\"\n";
  }
}

// ---- witnesses for .cfa models (JSON, precis' own format) --------------------------------
//
// No exchange format exists for .cfa models, so precis writes the same content as the
// SV-COMP witnesses in JSON:
//
//   {"format": "precis-cfa-witness", "format_version": "1.0",
//    "witness_type": "violation_witness" | "correctness_witness",
//    "producer": {"name", "version"}, "creation_time",
//    "task": {"model_file", "model_hash", "specification"},
//    "path": [{"from", "to", "operation", "values": {"x": "-12", ...}}, ...]     (violation)
//    "invariants": [{"location", "invariant"}, ...]}                          (correctness)
//
// Values are decimal strings (an optional '-' and digits), because a counterexample may
// need values beyond 64 bits.

// One edge of a counterexample through a .cfa model.
struct CfaWitnessStep {
  std::string from, to;   // location names
  std::string operation;  // in .cfa syntax: "x := x + 1", "assume x > 0", "havoc y", "skip"
  // The values chosen at this step for nondeterministic variables (a havoc), in order:
  // (variable name, decimal value).
  std::vector<std::pair<std::string, std::string>> values;
};

// The invariant at one location of a .cfa model, in the model's expression syntax.
struct CfaLocationInvariant {
  std::string location;
  std::string invariant;
};

namespace detail::witness {

inline bool is_decimal(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

inline void cfa_header(JsonWriter& w, const WitnessTask& task, const char* type) {
  w.field("format", "precis-cfa-witness");
  w.field("format_version", "1.0");
  w.field("witness_type", type);
  w.key("producer").begin_object();
  w.field("name", task.producer);
  w.field("version", task.producer_version);
  w.end_object();
  w.field("creation_time", creation_time(task));
  w.key("task").begin_object();
  w.field("model_file", task.program_file);
  w.field("model_hash", task.program_hash);
  w.field("specification", task.specification);
  w.end_object();
}

}  // namespace detail::witness

// A violation witness for a .cfa model: the path, step by step. Throws
// std::invalid_argument if a value is not a decimal string.
inline void write_cfa_witness_json(std::ostream& os, const WitnessTask& task,
                                   const std::vector<CfaWitnessStep>& path) {
  for (const CfaWitnessStep& s : path)
    for (const auto& [var, value] : s.values)
      if (!detail::witness::is_decimal(value))
        throw std::invalid_argument("witness value of '" + var + "' is not a decimal: '" + value +
                                    "'");
  JsonWriter w(os);
  w.begin_object();
  detail::witness::cfa_header(w, task, "violation_witness");
  w.key("path").begin_array();
  for (const CfaWitnessStep& s : path) {
    w.begin_object();
    w.field("from", s.from);
    w.field("to", s.to);
    w.field("operation", s.operation);
    w.key("values").begin_object();
    for (const auto& [var, value] : s.values) w.field(var, value);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  os << '\n';
}

// A correctness witness for a .cfa model: the invariant at each listed location.
inline void write_cfa_witness_json(std::ostream& os, const WitnessTask& task,
                                   const std::vector<CfaLocationInvariant>& invariants) {
  JsonWriter w(os);
  w.begin_object();
  detail::witness::cfa_header(w, task, "correctness_witness");
  w.key("invariants").begin_array();
  for (const CfaLocationInvariant& inv : invariants) {
    w.begin_object();
    w.field("location", inv.location);
    w.field("invariant", inv.invariant);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  os << '\n';
}

}  // namespace precis
