// (unsigned char)(x << 4) >> 4 keeps the low nibble of x: exact unsigned char semantics.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char x = __VERIFIER_nondet_uchar();
  unsigned char y = (unsigned char)(x << 4) >> 4;
  if (y != (x & 15)) reach_error();
  if (~0u != 4294967295u) reach_error();
  if ((-1 >> 1) != -1) reach_error();
  return 0;
}
