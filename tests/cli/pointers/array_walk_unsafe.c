// A pointer walking an array: the sum of the cells it visits.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  int s = 0;
  for (int* p = a; p < a + n; p++) s += *p;
  if (s == 6) reach_error();
  return 0;
}
