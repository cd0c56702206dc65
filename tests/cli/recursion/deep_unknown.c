// The error needs f 100 calls deep: beyond the inlining bound (64), every path to the
// error passes the bound marker, so the verdict is UNKNOWN, never SAFE or UNSAFE.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f(int n) { if (n <= 0) return 0; return 1 + f(n - 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  if (f(n) == 100) reach_error();
  return 0;
}
