// A large array (one SMT array) filled up to a nondeterministic bound; the cell
// read after the loop holds what the loop wrote there.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[100000];
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int k = 0; k < n; k++) a[k] = 2 * k;
  if (n > 3 && a[3] != 6) reach_error();
  return 0;
}
