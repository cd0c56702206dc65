// Arrays with variable indices in loops: a[i] = 2 i, then every cell is checked.
extern void reach_error(void);
int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = 2 * i;
  for (int i = 0; i < 10; i++)
    if (a[i] != 2 * i) reach_error();
  return 0;
}
