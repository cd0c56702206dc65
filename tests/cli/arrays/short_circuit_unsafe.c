// a[i] is evaluated only where i < 3 holds: the path with i = 4 must reach the error
// (the bounds assumption of a[i] must not cut it).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[3] = {0, 0, 0};
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 4) return 0;
  if (i < 3 && a[i] == 1) return 0;
  if (i == 4) reach_error();
  return 0;
}
