extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
static int g = 3;
int twice(int v) { return v + v; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  long l = 5L;
  _Bool b = x > 0;
  char c = (char)x;
  if (x < 0 || x > 100) return 0;
  for (int i = 0; i < 10; i++) {
    if (i == 5) continue;
    g += i % 3;
  }
  while (x > 0) { x--; if (b && x == 7) break; }
  do { u = u / 2u; } while (u > 4u);
  switch (g) { case 1: l++; break; case 2: l--; /* fall through */ default: l = twice(l); }
  x = b ? x : -x;
  x += c % 2;
  __VERIFIER_assert(x <= 100 && l != 0);
  return 0;
}
