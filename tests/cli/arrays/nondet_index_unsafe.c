// A nondeterministic index into an initialised array: a[k] == 4 only for k = 3.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[5] = {1, 2, 3, 4, 5};
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 5) return 0;
  if (a[k] == 4) reach_error();
  return 0;
}
