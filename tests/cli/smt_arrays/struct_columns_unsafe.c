// A local large array of structs without initializer holds any values of its members'
// types: the replay takes both members' arrays from the solver.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct P {
  int a;
  unsigned char b;
};
int main(void) {
  struct P l[5000];
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 5000) return 0;
  if (l[i].a == 42 && l[i].b == 200) reach_error();
  return 0;
}
