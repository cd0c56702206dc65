// A pointer out-parameter (int **): pick() stores the address of g or h into p; only
// the picked global changes. SAFE.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 1, h = 2;
void pick(int** out, int c) {
  if (c)
    *out = &g;
  else
    *out = &h;
}
int main(void) {
  int* p = 0;
  int c = __VERIFIER_nondet_int();
  pick(&p, c);
  *p = 5;
  if (c && g != 5) reach_error();
  if (!c && h != 5) reach_error();
  if (g == 5 && h == 5) reach_error();
  return 0;
}
