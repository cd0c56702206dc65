// Every cell is written through a nondeterministic index with a value in 0..9; a read
// through another index stays in 0..9.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[4] = {0, 0, 0, 0};
  for (int n = 0; n < 3; n++) {
    int k = __VERIFIER_nondet_int(), v = __VERIFIER_nondet_int();
    if (k < 0 || k >= 4 || v < 0 || v > 9) return 0;
    a[k] = v;
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= 4) return 0;
  if (a[j] < 0 || a[j] > 9) reach_error();
  return 0;
}
