// On LP64, unsigned long and size_t are 64-bit unsigned: a size_t loop counter up to a
// bounded input, sizeof of a size_t. SAFE (run with --data-model LP64).
typedef unsigned long size_t;
extern unsigned long __VERIFIER_nondet_ulong(void);
extern void reach_error(void);
int main(void) {
  size_t n = __VERIFIER_nondet_ulong();
  if (n > 100) return 0;
  size_t i = 0;
  while (i < n) i++;
  if (i != n || sizeof(size_t) != 8) reach_error();
  return 0;
}
