// Cells of an uninitialised signed char array are in [-128, 127] (a read assumes the
// element type's range), and a store wraps to the element type.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  signed char b[1000];
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 1000 || j < 0 || j >= 1000) return 0;
  if (b[i] > 127 || b[i] < -128) reach_error();
  b[j] = 200;
  if (b[j] != -56) reach_error();
  return 0;
}
