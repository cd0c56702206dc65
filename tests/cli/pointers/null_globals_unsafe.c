// The same dead code after an error that does not need it: UNSAFE, with k = 3.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct Entry {
  int key;
  struct Entry* next;
};
struct Entry* table;
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k == 3) reach_error();
  if (k == 4) return table->key;
  return 0;
}
