// A list of any length: more nodes than a site's objects, so no proof (UNKNOWN).
#include <stdlib.h>
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0;
  while (__VERIFIER_nondet_int()) {
    struct node *p = malloc(sizeof(struct node));
    p->v = 1;
    p->next = head;
    head = p;
  }
  for (struct node *q = head; q; q = q->next) if (q->v != 1) reach_error();
  return 0;
}
