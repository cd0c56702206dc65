// A pointer into a local large array of structs without initializer: the element it
// reaches holds any values, and the replay takes them from the solver's arrays.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct P {
  int a;
  unsigned char b;
};
int check(const struct P* p) { return p->a == 42 && p->b == 200; }
int main(void) {
  struct P l[5000];
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 5000) return 0;
  if (check(l + i)) reach_error();
  return 0;
}
