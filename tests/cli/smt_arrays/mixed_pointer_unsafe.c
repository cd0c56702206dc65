// A pointer that may reach an SMT array (1000 cells) or a scalar: a dereference is an ite
// over the array's address range and the scalar's address; the write through p lands in
// a[5] only when b is set.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[1000];
int b;
int main(void) {
  b = __VERIFIER_nondet_int();
  int* p = b ? &a[5] : &b;
  *p = 42;
  if (a[5] == 42) reach_error();
  return 0;
}
