// A pointer that aliases a local: writes through it change the local.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int* p = &x;
  *p = 5;
  if (x != 5) reach_error();
  return 0;
}
