// As list_through_pointer_safe.c, but the second pop returns a: UNSAFE.
extern void* malloc(unsigned long);
extern void free(void*);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct node {
  int data;
  struct node* next;
};
void push(struct node** head, int v) {
  struct node* n = malloc(sizeof(struct node));
  n->data = v;
  n->next = *head;
  *head = n;
}
int pop(struct node** head) {
  struct node* n = *head;
  int v = n->data;
  *head = n->next;
  free(n);
  return v;
}
int main(void) {
  struct node* list = 0;
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  push(&list, a);
  push(&list, b);
  if (pop(&list) != b) reach_error();
  if (pop(&list) == a) reach_error();
  if (list != 0) reach_error();
  return 0;
}
