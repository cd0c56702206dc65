// The xor swap exchanges two unsigned values; ~ on signed is -x - 1.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned int a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint();
  unsigned int a0 = a, b0 = b;
  a ^= b;
  b ^= a;
  a ^= b;
  if (a != b0 || b != a0) reach_error();
  int s = __VERIFIER_nondet_int();
  if (~s != -s - 1) reach_error();
  return 0;
}
