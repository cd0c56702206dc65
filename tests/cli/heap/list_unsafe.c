// The unsafe variant of list_safe.c (the sum is 3).
#include <stdlib.h>
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0;
  int n = 0;
  while (n < 3) {
    struct node *p = malloc(sizeof(struct node));
    p->v = n;
    p->next = head;
    head = p;
    n++;
  }
  int s = 0;
  for (struct node *q = head; q; q = q->next) s += q->v;
  if (s != 4) reach_error();
  int *a = (int *)calloc(4, sizeof(int));
  a[2] = 5;
  if (a[0] + a[1] + a[2] + a[3] != 5) reach_error();
  free(a);
  return 0;
}
