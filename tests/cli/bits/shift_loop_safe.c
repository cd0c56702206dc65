// Halving by a shift in a loop: x >> 1 is x / 2 for non-negative x, so the loop ends with 0.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int n = 0;
  while (x != 0) {
    x = x >> 1;
    n++;
  }
  if (x != 0) reach_error();
  return 0;
}
