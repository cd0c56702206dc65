// A large array of structs passed to a function as a pointer: p->a and p[k].b reach the
// element's members in their SMT arrays, indexed by the element's address.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct P {
  int a;
  short b;
};
struct P g[100000];
void set(struct P* p, int k, int v) {
  p[k].a = v;
  p[k].b = (short)(v + 1);
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 99999) return 0;
  set(g, i, 7);
  struct P* q = &g[i];
  if (q->a != 7 || g[i].b != 8) reach_error();
  (q + 1)->a = 9;
  if (g[i + 1].a != 9 || g[i].a != 7) reach_error();
  return 0;
}
