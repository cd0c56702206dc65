// Pointer parameters: a function that updates its caller's variables.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void divmod(int a, int b, int* q, int* r) {
  *q = a / b;
  *r = a % b;
}
int main(void) {
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  if (a < 0 || a > 1000 || b < 1 || b > 10) return 0;
  int q, r;
  divmod(a, b, &q, &r);
  if (q * b + r != a) reach_error();
  return 0;
}
