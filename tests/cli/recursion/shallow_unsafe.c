// The error needs f 10 calls deep: inside the bound, a replayed counterexample (n = 10).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f(int n) { if (n <= 0) return 0; return 1 + f(n - 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  if (f(n) == 10) reach_error();
  return 0;
}
