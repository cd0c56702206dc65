// A shift by a variable count: 1 << n reaches 2^10 = 1024 for n = 10.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 30) return 0;
  if ((1 << n) == 1024) reach_error();
  return 0;
}
