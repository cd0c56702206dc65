// The recursion depth is bounded by the program (n <= 20 < 64): no path reaches the bound
// marker, so SAFE is a proof for every execution.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f(int n) { if (n <= 0) return 0; return 1 + f(n - 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 20) return 0;
  if (f(n) != n) reach_error();
  return 0;
}
