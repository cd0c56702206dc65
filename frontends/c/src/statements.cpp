// The C front end's statements: blocks, if, loops, switch, break/continue, goto and
// labels, return, and expression statements.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// ---- statements -------------------------------------------------------------------------

Loc Translator::label_location(const clang::LabelDecl* ld) {
  auto& labels = frames_.back().labels;
  if (auto it = labels.find(ld); it != labels.end()) return it->second;
  Loc l = fresh();
  labels.emplace(ld, l);
  return l;
}

void Translator::stmt(const clang::Stmt* s) {
  if (s == nullptr) return;
  const Nesting nest(*this, s);
  at(s->getBeginLoc());
  switch (s->getStmtClass()) {
    case clang::Stmt::CompoundStmtClass:
      for (const clang::Stmt* c : llvm::cast<clang::CompoundStmt>(s)->body()) stmt(c);
      return;
    case clang::Stmt::NullStmtClass: return;
    case clang::Stmt::DeclStmtClass:
      for (const clang::Decl* d : llvm::cast<clang::DeclStmt>(s)->decls()) {
        if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d)) local_decl(vd);
      }
      return;
    case clang::Stmt::IfStmtClass: {
      const auto* is = llvm::cast<clang::IfStmt>(s);
      Loc t = fresh(), f = fresh(), j = fresh();
      branch(is->getCond(), t, f);
      cur_ = t;
      stmt(is->getThen());
      jump(j);
      cur_ = f;
      stmt(is->getElse());
      jump(j);
      cur_ = j;
      return;
    }
    case clang::Stmt::WhileStmtClass: {
      const auto* ws = llvm::cast<clang::WhileStmt>(s);
      Loc head = fresh(), body = fresh(), exit = fresh();
      mark_loop_head(head, ws->getBeginLoc());
      jump(head);
      cur_ = head;
      branch(ws->getCond(), body, exit);
      loop_body(ws->getBody(), head, exit, body);
      jump(head);
      cur_ = exit;
      return;
    }
    case clang::Stmt::DoStmtClass: {
      const auto* ds = llvm::cast<clang::DoStmt>(s);
      Loc body = fresh(), cond = fresh(), exit = fresh();
      mark_loop_head(body, ds->getBeginLoc());  // every iteration starts at the body
      jump(body);
      loop_body(ds->getBody(), cond, exit, body);
      jump(cond);
      cur_ = cond;
      at(ds->getCond()->getExprLoc());
      branch(ds->getCond(), body, exit);
      cur_ = exit;
      return;
    }
    case clang::Stmt::ForStmtClass: {
      const auto* fs = llvm::cast<clang::ForStmt>(s);
      stmt(fs->getInit());
      Loc head = fresh(), body = fresh(), inc = fresh(), exit = fresh();
      mark_loop_head(head, fs->getBeginLoc());
      jump(head);
      cur_ = head;
      if (fs->getCond() != nullptr)
        branch(fs->getCond(), body, exit);
      else
        jump(body);
      loop_body(fs->getBody(), inc, exit, body);
      jump(inc);
      cur_ = inc;
      if (fs->getInc() != nullptr) {
        at(fs->getInc()->getExprLoc());
        effect(fs->getInc());
      }
      jump(head);
      cur_ = exit;
      return;
    }
    case clang::Stmt::BreakStmtClass:
      if (breaks_.empty()) unsupported(s, "break outside a loop or switch");
      jump_and_cut(breaks_.back());
      return;
    case clang::Stmt::ContinueStmtClass:
      if (continues_.empty()) unsupported(s, "continue outside a loop");
      jump_and_cut(continues_.back());
      return;
    case clang::Stmt::GotoStmtClass:
      jump_and_cut(label_location(llvm::cast<clang::GotoStmt>(s)->getLabel()));
      return;
    case clang::Stmt::LabelStmtClass: {
      const auto* ls = llvm::cast<clang::LabelStmt>(s);
      Loc l = label_location(ls->getDecl());
      jump(l);
      cur_ = l;
      stmt(ls->getSubStmt());
      return;
    }
    case clang::Stmt::ReturnStmtClass: {
      const auto* rs = llvm::cast<clang::ReturnStmt>(s);
      Frame& fr = frames_.back();
      if (const clang::Expr* v = rs->getRetValue()) {
        if (fr.ret)
          store(*fr.ret, fr.ret_type, v);
        else
          effect(v);
      }
      jump_and_cut(frames_.back().exit);
      return;
    }
    case clang::Stmt::SwitchStmtClass: switch_stmt(llvm::cast<clang::SwitchStmt>(s)); return;
    case clang::Stmt::CaseStmtClass:
    case clang::Stmt::DefaultStmtClass: {
      const auto* sc = llvm::cast<clang::SwitchCase>(s);
      if (switches_.empty()) unsupported(s, "case label outside a switch");
      Loc l = switches_.back()->cases.at(sc);
      jump(l);
      cur_ = l;
      stmt(sc->getSubStmt());
      return;
    }
    case clang::Stmt::IndirectGotoStmtClass: unsupported(s, "computed goto");
    case clang::Stmt::GCCAsmStmtClass:
    case clang::Stmt::MSAsmStmtClass: unsupported(s, "inline assembly");
    default: break;
  }
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
    at(e->getExprLoc());
    effect(e);
    return;
  }
  unsupported(s, std::string("statement '") + s->getStmtClassName() + "'");
}

void Translator::loop_body(const clang::Stmt* body, Loc cont, Loc brk, Loc start) {
  breaks_.push_back(brk);
  continues_.push_back(cont);
  cur_ = start;
  stmt(body);
  breaks_.pop_back();
  continues_.pop_back();
}

void Translator::switch_stmt(const clang::SwitchStmt* ss) {
  if (ss->getInit() != nullptr) stmt(ss->getInit());
  const clang::Expr* cond = ss->getCond();
  IntType ct = type_of(cond);
  Term v = as_int(rvalue(cond));
  Loc exit = fresh();
  SwitchContext sw;
  std::vector<Term> others;  // negations of all case conditions, for default
  std::optional<Loc> deflt;
  std::vector<const clang::SwitchCase*> cases;
  for (const clang::SwitchCase* sc = ss->getSwitchCaseList(); sc != nullptr;
       sc = sc->getNextSwitchCase())
    cases.push_back(sc);
  std::reverse(cases.begin(), cases.end());  // the list is in reverse source order
  const Loc dispatch = cur_;
  for (const clang::SwitchCase* sc : cases) {
    Loc l = fresh();
    sw.cases.emplace(sc, l);
    if (const auto* cs = llvm::dyn_cast<clang::CaseStmt>(sc)) {
      auto case_value = [&](const clang::Expr* e) {
        return as_int(convert(constant_or_refuse(e, "non-constant case label"), type_of(e), ct));
      };
      Term lo = case_value(cs->getLHS());
      Term c = mk(Op::Eq, {v, lo});
      if (cs->getRHS() != nullptr)  // GNU case range lo ... hi
        c = mk(Op::And, {mk(Op::Le, {lo, v}), mk(Op::Le, {v, case_value(cs->getRHS())})});
      edge(dispatch, l, Assume{c}, line_of(cs->getBeginLoc()), column_of(cs->getBeginLoc()));
      others.push_back(lnot(c));
    } else {
      deflt = l;
    }
  }
  edge(dispatch, deflt ? *deflt : exit, Assume{fold(em_.conj(others))}, line_of(ss->getBeginLoc()));
  switches_.push_back(&sw);
  breaks_.push_back(exit);
  cur_ = fresh();  // code before the first case label is unreachable
  stmt(ss->getBody());
  jump(exit);
  breaks_.pop_back();
  switches_.pop_back();
  cur_ = exit;
}

}  // namespace precis::c::detail
