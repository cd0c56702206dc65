// The same with a wrong claim: a[7] = 14 is not 7 * 3.
extern void reach_error(void);
int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = 2 * i;
  for (int i = 0; i < 10; i++)
    if (a[i] > 13) reach_error();
  return 0;
}
