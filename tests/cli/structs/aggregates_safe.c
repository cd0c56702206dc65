// Arrays of structs, array members, 2-D arrays, struct pointer steps, a malloc'd array of structs.
#include <stdlib.h>
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct P { int x; int y; };
struct S { int n; int a[3]; struct P ps[2]; };
struct P g[3] = {{1, 2}, {3, 4}};
int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 2) return 0;
  struct S s = {3, {10, 20, 30}, {{5, 6}, {7, 8}}};
  s.a[i] += 1;
  if (s.a[0] + s.a[1] + s.a[2] != 61) reach_error();
  int j = i % 2;
  s.ps[j].y = 100;
  if (s.ps[0].y + s.ps[1].y < 106) reach_error();
  struct P *p = g;
  p[2].x = 9;
  p++;
  if (p->x != 3 || (p + 1)->x != 9 || p - g != 1) reach_error();
  if (m[j][i] > 6 || m[1][2] != 6) reach_error();
  struct P *q = malloc(3 * sizeof(struct P));
  q[1].y = 42;
  struct P *r = &q[1];
  if (r->y != 42) reach_error();
  int *ip = s.a;
  if (ip[1] + *(ip + 2) < 50) reach_error();
  return 0;
}
