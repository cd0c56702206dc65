// precis-verify: the command-line verifier built from the precis library.
//
//   precis-verify model.cfa                      the portfolio of analyses (the default)
//   precis-verify --analysis expl model.cfa      one analysis (analyses.cpp lists them)
//   precis-verify --json model.cfa               machine-readable report
//
// Exit codes: 0 SAFE, 1 UNSAFE, 2 UNKNOWN, 3 input error, 4 usage or internal error.
// The verdict and the counterexample go to stdout; progress and statistics to stderr.
//
// The parts: config.* (the options), model.* (reading .cfa, .c and .yml input),
// analyses.* (the registry of analyses and how each runs; run_support.hpp has what the
// runs share), portfolio_run.cpp (--analysis auto), report.* (the verdict and the
// witness), validate.* (--validate), witnesses.hpp (witness formats), watchdog.hpp (the
// limits' last line of defence), version.cpp (--version). This file parses the options
// and runs everything on a large stack.

#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "analyses.hpp"
#include "config.hpp"
#include "model.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/teardown.hpp"
#include "precis/io/cfa_dot.hpp"
#include "precis/io/report.hpp"
#include "report.hpp"
#include "validate.hpp"
#include "watchdog.hpp"

#ifdef PRECIS_CLI_HAVE_CHC
#include "precis/io/chc_writer.hpp"
#endif

#if defined(__SANITIZE_ADDRESS__)
// cvc5's arithmetic library (CLN) keeps a few bytes from static initialisation alive
// until exit; that is not our leak.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libcvc5.so\nleak:libcvc5parser.so\n";
}
#endif

namespace {

using namespace precis_cli;

// --emit-chc FILE: the model's Horn clauses instead of a verdict (the option exists when
// include/precis/io/chc_writer.hpp does).
int emit_chc(const Config& cfg, const precis::Cfa& cfa) {
#ifdef PRECIS_CLI_HAVE_CHC
  // An operator the clauses cannot express is the model's limit, not an internal error.
  const auto write = [&](std::ostream& os) {
    try {
      precis::write_chc(os, cfa);
    } catch (const precis::chc_error& e) {
      throw precis::input_error({cfg.model, 0, 0}, e.what());
    }
  };
  if (cfg.emit_chc == "-") {
    write(std::cout);
    return kSafe;
  }
  std::ofstream out(cfg.emit_chc);
  if (!out) throw precis::input_error({cfg.emit_chc, 0, 0}, "cannot open the CHC file for writing");
  write(out);
  out.close();
  if (!out) throw precis::input_error({cfg.emit_chc, 0, 0}, "cannot write the CHC file");
  return kSafe;
#else
  (void)cfa;
  throw usage_error(
      "--emit-chc needs the CHC writer (precis/io/chc_writer.hpp), which this "
      "build does not have");
#endif
}

// How long past the time limit the watchdog waits before it ends the run itself. Every
// phase checks the limit on its own; what can overrun it is one cvc5 call,
// whose per-call limit (tlimit-per) cvc5 checks only at its resource points: measured
// up to 0.7 s late on a non-linear `mod` query (loop-acceleration/simple_1-2). A run the
// watchdog ends loses its statistics, and the tests count it as a defect.
constexpr double kWatchdogGrace = 1.0;

// Everything after option parsing. Runs on a thread with a large stack (see main).
int run(const Config& cfg, const precis::Limits& limits) {
  auto error = [&](const std::string& kind, const std::string& message,
                   const precis::SourcePosition* pos, int code) {
    if (cfg.json) {
      precis::write_json_error(std::cout, cfg.model, cfg.analysis, kind, message,
                               pos ? pos->file : std::string{}, pos ? pos->line : 0,
                               pos ? pos->column : 0);
      std::cout.flush();
    }
    std::cerr << (pos ? std::string{} : std::string("precis-verify: ")) << message << '\n';
    return code;
  };
  try {
    // Output files are opened before the run: a bad path must not throw a finished
    // verdict away.
    std::unique_ptr<std::ofstream> arg_dot;
    if (!cfg.arg_dot.empty()) {
      arg_dot = std::make_unique<std::ofstream>(cfg.arg_dot);
      if (!*arg_dot)
        throw precis::input_error({cfg.arg_dot, 0, 0}, "cannot open the ARG DOT file for writing");
    }
    std::optional<std::ofstream> cfa_dot;
    if (!cfg.cfa_dot.empty()) {
      cfa_dot.emplace(cfg.cfa_dot);
      if (!*cfa_dot)
        throw precis::input_error({cfg.cfa_dot, 0, 0}, "cannot open the CFA DOT file for writing");
    }
    // What the run builds is freed after the report, or never (see the end).
    precis::DeferredTeardown teardown;
    Watchdog watchdog(limits, kWatchdogGrace, [&](const std::string& reason) {
      return unknown_report(cfg, reason, looks_like_task(cfg.model));
    });

    int rc = kUnknown;
    try {
      // Parked like the analyses: freeing a large CFA's terms takes seconds (a flat
      // disjunction of 365,000 equalities: 1.5 s) and must not delay the exit.
      auto parked = std::make_shared<Model>(load_model(cfg, limits));
      precis::defer_teardown(parked);
      Model& model = *parked;
      limits.check();
      const precis::Cfa& cfa = model.cfa;
      if (cfa_dot) {
        precis::write_cfa_dot(*cfa_dot, cfa);
        cfa_dot->close();
        if (!*cfa_dot)
          throw precis::input_error({cfg.cfa_dot, 0, 0}, "cannot write the CFA DOT file");
      }
      // A .cfa model without an error location is a mistake in the model; a C program
      // that never calls the error function satisfies unreach-call (SV-COMP: true).
      if (!cfa.error_location() && model.c_file.empty())
        throw precis::input_error({cfg.model, 0, 0},
                                  "the model has no error location: nothing to verify");
      if (!cfa.error_location() && cfg.emit_chc.empty() && cfg.validate.empty()) {
        const RunContext ctx{cfg, limits, arg_dot.get(), &watchdog};
        const Outcome o = no_error_location(model, ctx);
        rc = report(model, ctx, o.result, o.certificate ? &*o.certificate : nullptr);
      } else if (!cfg.emit_chc.empty()) {
        if (!watchdog.claim_output())
          for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        rc = emit_chc(cfg, cfa);
      } else if (!cfg.validate.empty()) {
        rc = validate(model, RunContext{cfg, limits, nullptr, &watchdog});
      } else {
        const RunContext ctx{cfg, limits, arg_dot.get(), &watchdog};
        const Outcome o = model.stack && cfg.analysis == "auto" ? run_portfolio_both(model, ctx)
                                                                : run_configured(model, ctx);
        rc = report(model, ctx, o.result, o.certificate ? &*o.certificate : nullptr);
      }
    } catch (const precis::limit_reached& e) {
      if (e.kind() == precis::LimitKind::Depth)
        throw precis::input_error({cfg.model, 0, 0}, e.what());
      // A limit struck outside the analysis (front end, clean-up, output).
      if (!watchdog.claim_output())
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      std::cout << unknown_report(cfg, e.what(), looks_like_task(cfg.model));
      rc = kUnknown;
    } catch (const std::bad_alloc&) {
      if (!watchdog.claim_output())
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      std::cout << unknown_report(
          cfg,
          cfg.memory_limit_mb ? limits.memory_reason() : std::string("memory limit: out of memory"),
          looks_like_task(cfg.model));
      rc = kUnknown;
    }
    // Output that cannot be written (a full disk, a closed pipe) is an error, not a
    // silent success.
    std::cout.flush();
    if (!std::cout) {
      std::cerr << "precis-verify: error: cannot write the report to standard output\n";
      return kUsage;
    }
#if !defined(__SANITIZE_ADDRESS__)
    // The report is out: end the process without freeing what the run built (the ARG,
    // the terms, the parked solvers; tenths of a second on large runs, which whoever
    // measures the process would count). Under AddressSanitizer the run is freed as
    // usual, so that its leak check still sees everything.
    if (arg_dot) arg_dot->flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(rc);
#endif
    return rc;
  } catch (const usage_error& e) {
    return error("usage", e.what(), nullptr, kUsage);
  } catch (const precis::input_error& e) {
    return error("input", e.what(), &e.position(), kInputError);
  } catch (const std::exception& e) {
    return error("internal", std::string("internal error: ") + e.what(), nullptr, kUsage);
  }
}

// Runs f on a thread with a 512 MB stack (reserved address space; only what is used
// becomes resident): recursive walks over terms and input structures are bounded in
// depth (ExprManager::max_depth, the readers' nesting limits), and this stack holds
// them at those bounds even under AddressSanitizer.
template <class F>
int run_on_large_stack(F&& f) {
  struct Ctx {
    F* f;
    int rc = kUsage;
  } ctx{&f};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{512} << 20U);
  pthread_t th;
  auto trampoline = [](void* p) -> void* {
    auto* c = static_cast<Ctx*>(p);
    c->rc = (*c->f)();
    return nullptr;
  };
  if (pthread_create(&th, &attr, trampoline, &ctx) != 0) {
    pthread_attr_destroy(&attr);
    return f();  // no thread: run here with the default stack
  }
  pthread_attr_destroy(&attr);
  pthread_join(th, nullptr);
  return ctx.rc;
}

}  // namespace

int main(int argc, char** argv) {
  // The time limit covers every phase: its clock starts here, before option parsing.
  const auto started = std::chrono::steady_clock::now();
  Config cfg;
  if (const std::optional<int> rc = parse_command_line(argc, argv, cfg)) return *rc;

  precis::Limits limits;
  limits.start = started;
  limits.time_limit_s = cfg.time_limit;
  limits.memory_limit_mb = cfg.memory_limit_mb;
  limits.max_arg_nodes = cfg.max_nodes;
  return run_on_large_stack([&] { return run(cfg, limits); });
}
