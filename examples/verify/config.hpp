#pragma once
// precis-verify's configuration: the Config every part of the CLI reads, the exit codes,
// and the command line (config.cpp: the options on a CLI11 app, their validators, the
// checks across options).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "precis/core/limits.hpp"

// --emit-chc exists when the Horn-clause writer does.
#if __has_include("precis/io/chc_writer.hpp")
#define PRECIS_CLI_HAVE_CHC 1
#endif

namespace precis_cli {

enum ExitCode : int { kSafe = 0, kUnsafe = 1, kUnknown = 2, kInputError = 3, kUsage = 4 };

// Three quarters of the machine's memory: the process ends with UNKNOWN ("memory
// limit") before the system would kill it.
inline std::size_t default_memory_limit_mb() {
  const std::size_t phys = precis::physical_memory_bytes();
  return phys ? phys / 4 * 3 / (1024 * 1024) : 0;
}

// C arrays of at most this many elements are cell by cell, larger ones SMT arrays unless a
// pointer reaches them (TranslateOptions::max_cellwise_array).
inline constexpr std::size_t kDefaultArrayCells = 8;

struct Config {
  std::string model;
  std::string analysis = "auto";
  std::string order = "auto";      // bfs; rpo for the block-encoded analyses
  std::string block = "function";  // ABE: abstraction points (loop-heads, function, sbe)
  std::string granularity = "scope";
  bool restart = false;
  bool baseline = false;
  double time_limit = 900;
  std::size_t max_refinements = 0;
  std::size_t max_nodes = 0;
  std::size_t memory_limit_mb = default_memory_limit_mb();
  bool json = false;
  bool quiet = false;
  std::string arg_dot;
  std::string cfa_dot;
  std::size_t array_cells = kDefaultArrayCells;  // TranslateOptions::max_cellwise_array
  std::string recursion = "auto";                // TranslateOptions::recursion: auto, inline, stack
  std::string data_model;  // ILP32 or LP64 of a bare .c / .i (empty: ILP32; a task has its own)
  std::string emit_chc;    // write the model's Horn clauses here, do not verify
  // SMT-based analyses
  std::string interpolation = "auto";  // auto (Farkas, then core+wp), farkas, core-wp, cvc5
  std::string split = "atoms";
  std::size_t bool_max_preds = 16;
  double solver_timeout = 5;            // seconds per check
  std::uint32_t value_limit = 64;       // expl+pred: stop tracking a variable explicitly after this
  std::string prefixes = "auto";        // refinement selection over sliced prefixes
  std::size_t prod_k = 1;               // prod: the limit k (STATE with k = 1 measured best)
  std::string prod_strategy = "state";  // prod: STATE, PATH or ARG
  std::uint32_t widen_every = 3;        // ai-*: widen at a loop head from this update on
  std::string widen_thresholds = "auto";   // widening with the program's constants (auto: ai-*)
  std::string synergy = "st+sp";           // synergy: NewST, NewSP, both, or none (Cartesian)
  std::string threshold = "paper";         // synergy: cluster size limit (paper: 13 / 17)
  double threshold_ms = 0;                 // synergy: time budget of one precise abstraction
  std::string invariants = "none";         // a relational invariant first: none, zone, oct
  std::string certify = "on";              // check SAFE by its certificate (needs cvc5)
  std::string certify_candidate = "none";  // a smaller invariant tried first: none, hull
  std::string witness;                     // write the verdict's witness here
  std::string witness_dir;                 // or to DIR/witness.graphml / .yml (SV-COMP names)
  std::string validate;                    // check this witness instead of verifying
  std::string stages;  // auto: these analyses in this order instead of the portfolio's choice
};

// A combination of options that does not fit (exit code 4, like CLI11's own errors).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the command line into `cfg` and checks the options together (`--baseline` picks
// expl, `--analysis prod` becomes prod-<strategy>). Returns the exit code if the process
// ends here, with everything printed: 0 for --help and --version, kUsage for a usage
// error (as JSON on stdout too with --json). Otherwise nullopt: run.
std::optional<int> parse_command_line(int argc, char** argv, Config& cfg);

// The analyses of --stages, in order ("a,b,c").
std::vector<std::string> stage_names(const std::string& list);

bool ends_with(const std::string& s, const std::string& suffix);

// --version: the release, the git revision and what this build has (version.cpp).
std::string version_text();

}  // namespace precis_cli
