// A variable-length array holds any values until written: the error needs n > 3 and
// a[2] == 42, which the replay takes from the solver's array.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0) return 0;
  int a[n];
  a[0] = 1;
  if (n > 3 && a[2] == 42 && a[0] == 1) reach_error();
  return 0;
}
