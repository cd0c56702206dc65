// No odd power of two exceeds 1.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1 && (x & (x - 1)) == 0 && x % 2 == 1) reach_error();
  return 0;
}
