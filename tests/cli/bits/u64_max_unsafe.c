// 64-bit unsigned wrap-around: only x = 2^64 - 1 reaches the error, an input beyond
// int64; the counterexample must name it exactly.
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void reach_error(void);
int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  if (x + 1 == 0) reach_error();
  return 0;
}
