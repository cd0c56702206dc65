// Values beyond 2^63: 0 - 1 wraps to 2^64 - 1, its top bit, a conversion back to a
// signed type, and an unsigned comparison across 2^63. SAFE.
extern void reach_error(void);
int main(void) {
  unsigned long long m = 0;
  m--;
  if (m != 18446744073709551615ULL || (m >> 63) != 1) reach_error();
  long long s = (long long)m;
  if (s != -1) reach_error();
  unsigned long long h = 0x8000000000000000ULL;
  if (!(h > 5) || h + h != 0) reach_error();
  return 0;
}
