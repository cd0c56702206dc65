// The C front end's entry points: parsing with clang (translate_source, translate_file)
// and Translator::run, which drives the translation. The translator: translator.hpp.

#include "precis/frontends/c/c_frontend.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cleanup.hpp"
#include "translator.hpp"

#ifndef PRECIS_CLANG_RESOURCE_DIR
#define PRECIS_CLANG_RESOURCE_DIR ""
#endif

namespace precis::c {
namespace {

// Keeps the first error clang reports; turned into an input_error after parsing.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
 public:
  explicit FirstErrorConsumer(std::string file) : file_(std::move(file)) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || error_) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    SourcePosition pos{file_, 0, 0};
    if (info.hasSourceManager())
      pos = detail::position_of(info.getSourceManager(), info.getLocation(), file_);
    error_ = std::make_pair(pos, std::string(text.str()));
  }
  [[nodiscard]] const std::optional<std::pair<SourcePosition, std::string>>& error() const {
    return error_;
  }

 private:
  std::string file_;
  std::optional<std::pair<SourcePosition, std::string>> error_;
};

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(SourcePosition{path, 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

// ---- the translator ---------------------------------------------------------------------

namespace detail {

Cfa Translator::run() {
  clang::TranslationUnitDecl* tu = ctx_.getTranslationUnitDecl();
  const clang::FunctionDecl* entry = nullptr;
  for (clang::Decl* d : tu->decls())
    if (auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d))
      if (fd->getNameAsString() == opt_.entry && fd->hasBody()) entry = fd->getDefinition();
  if (entry == nullptr)
    throw input_error(SourcePosition{file_, 0, 0},
                      "no definition of the entry function '" + opt_.entry + "'");

  Loc init = b_.location("init");
  error_ = b_.location("error");
  final_ = b_.location("final");
  sink_ = b_.location("sink");
  b_.initial(init);
  b_.error(error_);
  b_.final_(final_);
  cur_ = init;

  // The variables whose address is taken anywhere the entry reaches (pointers.cpp).
  collect_reachable(entry);                          // declarations.cpp
  if (stack_recursion_) find_recursive_functions();  // procedures.cpp
  for (const clang::FunctionDecl* fd : reachable_fns_) collect_address_taken(fd->getBody());
  for (const clang::VarDecl* vd : used_globals_)
    if (const clang::VarDecl* def = vd->getDefinition(); def && def->getInit())
      collect_address_taken(def->getInit());
  declare_globals(tu);
  collect_allocations();  // heap.cpp

  // The entry function is the outermost frame; its end is the final location.
  Frame f;
  f.fn = entry;
  f.index = function_index(entry->getNameAsString());
  f.prefix = entry->getNameAsString();
  f.instance = b_.instance(f.prefix);
  f.exit = final_;
  b_.instance(final_, f.instance);
  b_.instance(cur_, f.instance);  // the entry function's code starts here
  frames_.push_back(std::move(f));
  predeclare_objects(entry->getBody());  // pointers.cpp
  for (const clang::ParmVarDecl* p : entry->parameters()) {
    // main(int argc, char** argv): integer parameters are arbitrary values; others
    // are reported if they are used.
    if (!p->getType()->isIntegralOrEnumerationType()) continue;
    IntType t = int_type(p->getType(), p->getLocation());
    VarId v = new_var(frames_.back().prefix + "::" + p->getNameAsString(), frames_.back().index);
    frames_.back().locals[p] = v;
    register_scalar(p, v, frames_.back().objects, frames_.back().addresses);
    emit(Havoc{v});
    emit(Assume{in_range(em_.var(v), t)});
    // C11 5.1.2.2.1: "the value of argc shall be nonnegative".
    if (entry->isMain() && entry->getNumParams() >= 2 && p == entry->getParamDecl(0))
      emit(Assume{em_.le(num(0), em_.var(v))});
  }
  at(entry->getBody()->getBeginLoc());
  stmt(entry->getBody());
  jump(final_);
  frames_.pop_back();
  // The recursive functions' bodies, once each (procedures.cpp; a body may call a
  // procedure not made before).
  for (std::size_t i = 0; i < procedures_.size(); ++i) emit_procedure(procedures_[i]);
  link_procedures();

  Cfa cfa = std::move(b_).build();
  if (opt_.cleanup) {
    CleanupOptions co;
    co.large_block = opt_.large_block;
    co.deadline = opt_.deadline;
    return cleanup(cfa, co);
  }
  return cfa;
}

}  // namespace detail

namespace {

// translate_source (want_inlined false) and translate_source_both.
Translations translate(const std::string& code, const std::string& file_name,
                       const TranslateOptions& options, bool want_inlined) {
  std::string resource =
      options.resource_dir.empty() ? std::string(PRECIS_CLANG_RESOURCE_DIR) : options.resource_dir;
  // `#pragma clang __debug crash` (and llvm_fatal_error, overflow_stack, ...) would
  // crash or hang the verifier on request of the input (found by fuzzing): off.
  // Typo correction ("did you mean ...?") can take minutes and gigabytes on a damaged
  // file (found by fuzzing: clang -fsyntax-only itself runs out of memory): off. Only
  // the first error is reported, so clang stops there.
  std::vector<std::string> args{"-xc",
                                "-std=gnu11",
                                options.data_model == DataModel::ILP32 ? "-m32" : "-m64",
                                "-w",
                                "-fno-spell-checking",
                                "-ferror-limit=1",
                                "-Xclang",
                                "-disable-pragma-debug-crash"};
  if (!resource.empty()) {
    args.emplace_back("-resource-dir");
    args.push_back(resource);
  }
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  options.deadline.check();
  FirstErrorConsumer diags(file_name);
  std::unique_ptr<clang::ASTUnit> ast = clang::tooling::buildASTFromCodeWithArgs(
      code, args, file_name, "precis-cfront", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &diags);
  if (diags.error()) throw input_error(diags.error()->first, diags.error()->second);
  if (!ast) throw input_error(SourcePosition{file_name, 0, 0}, "clang could not parse the file");
  options.deadline.check();
  // Recursion is inlined to one depth per function: when max_recursive_calls would not
  // suffice for the depth asked (a function calling itself twice doubles per level), the
  // translation starts again with a smaller depth for that function, so its bound
  // markers sit at one depth on every branch, not wherever a call budget ran out.
  detail::RecursionDepths depths;
  auto depth_error = [&](const limit_reached& e, const detail::Translator& t) {
    // A term too deep for the recursive walkers over terms is a property of the input.
    if (e.kind() == LimitKind::Depth) throw input_error(t.position(), std::string(e.what()));
  };
  auto inline_translation = [&](const TranslateOptions& o) -> Cfa {
    for (;;) {
      detail::Translator t(ast->getASTContext(), file_name, o, depths);
      try {
        return t.run();
      } catch (const detail::RecursionBudget& b) {
        const auto it = depths.find(b.fn);
        const std::uint32_t d = it != depths.end() ? it->second : o.max_recursion_depth;
        depths[b.fn] = d > 16 ? d / 2 : (d > 2 ? d - 2 : 1);
        o.deadline.check();
      } catch (const limit_reached& e) {
        depth_error(e, t);
        throw;
      }
    }
  };
  if (options.recursion == RecursionMode::Inline)
    return {inline_translation(options), std::nullopt};
  // The stack translation (procedures.cpp): a program without recursion gets the same CFA
  // as inlined, once. Auto falls back to inlining where the stack is refused.
  std::optional<Cfa> stack;
  bool recursive = true;
  {
    detail::Translator t(ast->getASTContext(), file_name, options, depths, true);
    try {
      stack = t.run();
      recursive = t.made_procedures();
    } catch (const detail::StackRefused& r) {
      if (options.recursion == RecursionMode::Stack)
        throw input_error(r.where, "unsupported: " + r.what +
                                       " in a recursive function with an explicit stack "
                                       "(--recursion stack)");
    } catch (const input_error&) {
      if (options.recursion == RecursionMode::Stack) throw;
    } catch (const limit_reached& e) {
      depth_error(e, t);
      if (options.recursion == RecursionMode::Stack || e.kind() == LimitKind::Time) throw;
    }
  }
  if (!stack) return {inline_translation(options), std::nullopt};
  if (!recursive || options.recursion == RecursionMode::Stack || !want_inlined)
    return {std::move(*stack), std::nullopt, recursive};
  // Auto on recursion: the inlined translation too, within a tenth of the time left (at
  // most 30 s): with many recursive calls, inlining retries smaller depths for long
  // (100 calls of f in f: over 60 s), and the stack translation alone is a translation.
  TranslateOptions capped = options;
  const auto now = std::chrono::steady_clock::now();
  const auto share = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(std::min(
          30.0, options.deadline.none()
                    ? 30.0
                    : 0.1 * static_cast<double>(options.deadline.remaining_ms()) / 1000.0)));
  if (options.deadline.none() || now + share < options.deadline.at) {
    capped.deadline.at = now + share;
    capped.deadline.reason = "the inlined translation's share of the time";
  }
  std::optional<Cfa> inlined;
  std::string failure;
  try {
    inlined = inline_translation(capped);
  } catch (const limit_reached& e) {
    if (options.deadline.passed()) throw;  // else its share or the memory limit
    failure = e.what();
  } catch (const input_error& e) {
    failure = e.what();
  }
  return {std::move(*stack), std::move(inlined), true, std::move(failure)};
}

}  // namespace

Translations translate_source_both(const std::string& code, const std::string& file_name,
                                   const TranslateOptions& options) {
  return translate(code, file_name, options, true);
}

Cfa translate_source(const std::string& code, const std::string& file_name,
                     const TranslateOptions& options) {
  return translate(code, file_name, options, false).primary;
}

Translations translate_file_both(const std::string& path, const TranslateOptions& options) {
  return translate_source_both(read_whole_file(path), path, options);
}

Cfa translate_file(const std::string& path, const TranslateOptions& options) {
  return translate_source(read_whole_file(path), path, options);
}

}  // namespace precis::c
