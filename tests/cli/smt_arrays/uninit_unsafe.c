// A local array without initializer holds any values of its type: the replay takes the
// array the solver chose (b[i] == 42 at the chosen index).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int b[500];
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 500) return 0;
  if (b[i] == 42) reach_error();
  return 0;
}
