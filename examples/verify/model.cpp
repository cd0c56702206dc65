// Loading precis-verify's input: a .cfa model, a C program or an SV-COMP task.

#include "model.hpp"

#include <sys/stat.h>

#include "precis/core/input_error.hpp"
#include "precis/io/cfa_reader.hpp"

#ifdef PRECIS_HAVE_CFRONT
#include "precis/frontends/c/c_frontend.hpp"
#endif

namespace precis_cli {
namespace {

// Inputs must be regular files: opening a FIFO without a writer would block forever,
// and a directory or a device is never a model.
void require_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw precis::input_error({path, 0, 0}, "cannot open the file");
  if (!S_ISREG(st.st_mode))
    throw precis::input_error({path, 0, 0}, "not a regular file (a FIFO, directory or device)");
}

bool is_c_program(const std::string& path) {
  return ends_with(path, ".c") || ends_with(path, ".i");
}

}  // namespace

bool looks_like_task(const std::string& path) {
  return ends_with(path, ".yml") || ends_with(path, ".yaml");
}

bool is_c_input(const std::string& path) { return is_c_program(path) || looks_like_task(path); }

Model load_model(const Config& cfg, const precis::Limits& limits) {
  const std::string& path = cfg.model;
  require_regular_file(path);
  if (is_c_input(path)) {
#ifdef PRECIS_HAVE_CFRONT
    precis::c::TranslateOptions opts;
    opts.deadline = precis::Deadline::of(limits);
    opts.max_cellwise_array = cfg.array_cells;
    opts.recursion = cfg.recursion == "stack"    ? precis::c::RecursionMode::Stack
                     : cfg.recursion == "inline" ? precis::c::RecursionMode::Inline
                                                 : precis::c::RecursionMode::Auto;
    // The portfolio keeps both translations of recursion (c_frontend.hpp).
    const auto translate = [&](const std::string& file) {
      if (cfg.analysis == "auto") return precis::c::translate_file_both(file, opts);
      return precis::c::Translations{precis::c::translate_file(file, opts), std::nullopt, false};
    };
    if (is_c_program(path)) {
      // A bare program has no task to name its data model: --data-model, ILP32 by default
      // as SV-COMP's C tasks.
      const bool lp64 = cfg.data_model == "LP64";
      opts.data_model = lp64 ? precis::c::DataModel::LP64 : precis::c::DataModel::ILP32;
      precis::c::Translations t = translate(path);
      return {std::move(t.primary),        false, {}, path, lp64, std::move(t.inlined), t.stack,
              std::move(t.inlined_failure)};
    }
    precis::c::Task task = precis::c::read_task(path);
    const bool lp64 = task.data_model == precis::c::DataModel::LP64;
    if (!cfg.data_model.empty() && cfg.data_model != (lp64 ? "LP64" : "ILP32"))
      throw usage_error("--data-model " + cfg.data_model + " contradicts the task " + path +
                        ", whose data model is " + (lp64 ? "LP64" : "ILP32"));
    opts.data_model = task.data_model;
    precis::c::Translations t = translate(task.c_file);
    return {std::move(t.primary), true,    task.expected_verdict,       task.c_file, lp64,
            std::move(t.inlined), t.stack, std::move(t.inlined_failure)};
#else
    (void)limits;
    throw precis::input_error({path, 0, 0},
                              "C programs and SV-COMP tasks need the C front end, which this "
                              "build does not have (configure with clang 14 installed)");
#endif
  }
  return {precis::read_cfa_file(path), false, {}, {}, false};
}

}  // namespace precis_cli
