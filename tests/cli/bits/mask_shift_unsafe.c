// Without the cast, x << 4 is an int: the high nibble survives the shift back.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char x = __VERIFIER_nondet_uchar();
  int y = (x << 4) >> 4;
  if (y != (x & 15)) reach_error();
  return 0;
}
