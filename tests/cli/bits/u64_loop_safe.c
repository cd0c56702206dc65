// A 64-bit unsigned counter and sum up to a bounded input: SAFE. The wrap-around
// mod 2^64 is transparent where the values stay small (the relational domains read
// s mod 2^64 as s for 0 <= s < 2^63).
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void reach_error(void);
int main(void) {
  unsigned long long n = __VERIFIER_nondet_ulonglong();
  if (n > 1000) return 0;
  unsigned long long i = 0, s = 0;
  while (i < n) {
    i++;
    s += 2;
  }
  if (s != 2 * n) reach_error();
  return 0;
}
