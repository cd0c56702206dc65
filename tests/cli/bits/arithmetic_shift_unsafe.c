// >> of a negative int is arithmetic (gcc): x >> 1 == x only for 0 and -1.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 && (x >> 1) == x) reach_error();
  return 0;
}
