// A variable-length array that decays to a pointer: the function writes through the
// pointer into the array's address range, re-declared (with a new length) on each
// iteration of the outer loop.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void set(int* p, int k, int v) { p[k] = v; }
int main(void) {
  for (int j = 1; j <= 3; j++) {
    int b[j + 1];
    set(b, j, 10 * j);
    if (b[j] != 10 * j) reach_error();
    if (sizeof(b) / sizeof(b[0]) != j + 1) reach_error();
  }
  return 0;
}
