// & and >> on 64-bit values: the top bit of a 64-bit unsigned input, and a signed 64-bit
// mask. Reached for x with bit 63 and bit 0 set and y = x & 0xFF == 0x81.
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void reach_error(void);
int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  long long y = (long long)(x & 0xFFu);
  if ((x >> 63) == 1 && y == 0x81 && (x | 1) == x) reach_error();
  return 0;
}
