// Which object p points to depends on an input: with c != 0, the write through p
// changes y, and x keeps its input value.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int(), y = 0;
  int c = __VERIFIER_nondet_int();
  int* p = c ? &y : &x;
  *p = 1;
  if (x != 1 && y == 1 && x == 42) reach_error();
  return 0;
}
