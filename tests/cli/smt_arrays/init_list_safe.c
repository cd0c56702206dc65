// Initializer lists of large arrays: listed elements, then zeros; a write at one index
// leaves the others.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int g[300] = {5, 6, 7};
int main(void) {
  int l[200] = {1, 2, 3};
  int i = __VERIFIER_nondet_int();
  if (i < 3 || i >= 200) return 0;
  l[i] = 9;
  if (l[1] != 2 || g[2] != 7 || g[i] != 0) reach_error();
  if (l[i] != 9) reach_error();
  return 0;
}
