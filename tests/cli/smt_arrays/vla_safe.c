// A variable-length array: its length is the value of n at the declaration, its
// cells are written and read through the theory of arrays, and sizeof is the length
// times the element size.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0) return 0;
  int a[n];
  a[0] = 5;
  a[n - 1] = 7;
  if (n > 1 && a[0] != 5) reach_error();
  if (a[n - 1] != 7) reach_error();
  if (sizeof(a) != n * sizeof(int)) reach_error();
  return 0;
}
