// The declaration of a variable-length array of length n < 1 is undefined behaviour:
// the error below is reachable only with n >= 1, and the counterexample shows n = 1.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1) return 0;
  int a[n];
  a[0] = n;
  reach_error();
  return 0;
}
