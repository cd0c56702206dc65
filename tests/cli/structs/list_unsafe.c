// A linked list of static nodes walked through struct pointers.
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
struct node n1, n2, n3;
int main(void) {
  n1.next = &n2; n2.next = &n3; n3.next = 0;
  n1.v = 1; n2.v = 2; n3.v = __VERIFIER_nondet_int();
  if (n3.v < 0 || n3.v > 10) return 0;
  int s = 0;
  for (struct node *p = &n1; p; p = p->next) s += p->v;
  if (s > 12) reach_error();
  return 0;
}
