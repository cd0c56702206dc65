// Flags kept in the bits of one word: set, test and clear with masks (linear: a mask of
// low bits is a remainder, the others are exact bit terms).
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned int flags = __VERIFIER_nondet_uint() & 0xF0u;
  flags |= 0x1u;
  if ((flags & 0x1u) == 0) reach_error();
  flags &= ~0x1u;
  if ((flags & 0x1u) != 0) reach_error();
  if ((flags & 0x0Fu) != 0) reach_error();
  int s = __VERIFIER_nondet_int();
  if (~s != -s - 1) reach_error();
  return 0;
}
