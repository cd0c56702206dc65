// A recursive function that writes through a pointer: the stack translation refuses it
// (an address would need one object per activation), so --recursion stack is an
// unsupported error at the dereference, and the default (auto) keeps the inlined
// translation, which proves the bounded recursion safe.
extern void reach_error(void);
int g;
void add(int *p, int n) {
  if (n > 0) {
    *p += 1;
    add(p, n - 1);
  }
}
int main(void) {
  add(&g, 5);
  if (g != 5) reach_error();
  return 0;
}
