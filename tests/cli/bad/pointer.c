int main(void) {
  int a[3] = {0, 1, 2};
  int (*pa)[3] = &a;
  return (*pa)[1];
}
