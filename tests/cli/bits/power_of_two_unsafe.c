// x & (x - 1) == 0 holds for powers of two: the only one in (1000, 1025) is 1024.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000 && x < 1025 && (x & (x - 1)) == 0) reach_error();
  return 0;
}
