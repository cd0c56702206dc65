// ofuf_*'s shape: global pointers that nothing ever points at stay null, and a loop that
// reads through them crashes before the check after it. No object of their type exists,
// so each dereference ends the path (frontends/c/src/pointers.cpp: pointees).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct Entry {
  int key;
  struct Entry* next;
};
struct Entry* table_a;
struct Entry* table_b;
int lookup(int key) {
  struct Entry* e = key > 0 ? table_a : table_b;
  while (e->key != key) {
    e = e->next;
    if (e == 0) return -1;
  }
  reach_error();  // only after reading through a null pointer
  return 0;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k == 0) return 0;
  return lookup(k);
}
