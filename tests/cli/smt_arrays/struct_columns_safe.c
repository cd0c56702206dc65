// A large array of structs is one SMT array per member: a write to one member of an
// element changes no other member and no other element.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct P {
  int a;
  short b;
};
struct P g[100000];
int main(void) {
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 100000 || j < 0 || j >= 100000) return 0;
  g[i].a = 5;
  g[j].b = -3;
  if (g[i].a != 5) reach_error();
  if (i != j && g[i].b != 0) reach_error();
  struct P copy = g[j];
  if (copy.b != -3) reach_error();
  return 0;
}
