// Correctness witnesses over arrays and structs kept cell by cell: the invariants name
// the cells and members by their C designators (`a[1][1]`, `g[1].y[0]`).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct P {
  int x;
  int y[2];
};
struct P g[2];
int main(void) {
  int a[2][3] = {{0, 0, 0}, {0, 5, 0}};
  struct P p = {1, {2, 3}};
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    a[1][1] = a[1][1] + p.x - 1;
    g[1].y[0] = g[1].y[0] + p.y[1] - 3;
  }
  if (a[1][1] != 5 || g[1].y[0] != 0) reach_error();
  return 0;
}
