// A large array passed to a function as a pointer: the pointer holds an address in the
// array's range, and p[i] is the cell at the address minus the range's start.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[1000];
void init(int* p, int n) {
  for (int i = 0; i < n; i++) p[i] = 7;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 4 || n > 1000) return 0;
  init(a, n);
  int* q = &a[3];
  if (*q != 7) reach_error();
  *q = 9;
  if (a[3] != 9) reach_error();
  return 0;
}
