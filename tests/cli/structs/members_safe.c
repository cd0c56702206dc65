// Struct members, copies, initializers, pointers to structs and to members, a
// struct passed by value, a pointer chosen by a nondeterministic value.
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
struct P { int x; int y; };
struct Q { struct P a; struct P b; int n; };
struct Q g = { {1, 2}, {3}, 5 };
int sum(struct P p) { return p.x + p.y; }
void move(struct P *p, int d) { p->x += d; p->y -= d; }
int main(void) {
  struct P u = { __VERIFIER_nondet_int(), 0 };
  struct P v;
  v = u;
  if (v.x != u.x) reach_error();
  move(&v, 3);
  if (sum(v) != sum(u)) reach_error();
  struct Q q = g;
  struct P *r = &q.b;
  r->y = 7;
  if (q.b.y != 7 || g.b.y != 0 || q.a.y != 2 || q.n != 5) reach_error();
  struct P *pick = __VERIFIER_nondet_int() ? &u : &v;
  pick->y = 10;
  if (u.y + v.y < 7) reach_error();
  int *fp = &q.a.x;
  *fp = 42;
  if (q.a.x != 42) reach_error();
  return 0;
}
