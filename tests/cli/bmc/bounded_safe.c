// Every execution ends within a bounded number of steps: bmc proves it SAFE with a
// bounded certificate (an array of 4 structs filled by a loop of constant bound).
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct P { int x; int y; };
struct P a[4];
int main(void) {
  for (int i = 0; i < 4; i++) { a[i].x = i; a[i].y = 2 * i; }
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 4) return 0;
  if (a[k].y - a[k].x != k) reach_error();
  return 0;
}
