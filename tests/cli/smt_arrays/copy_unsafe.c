// Two large arrays and a copy loop: the cell at index n - 1 differs when n == 5 and the
// input there is 3 (array-examples' copy pattern with a nondeterministic length).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[1000];
  int b[1000];
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  for (int k = 0; k < n; k++) b[k] = a[k] + (k == 4 && a[k] == 3);
  for (int k = 0; k < n; k++)
    if (a[k] != b[k]) reach_error();
  return 0;
}
