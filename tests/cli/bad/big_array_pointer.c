// A pointer into an array above the cell-wise limit: refused with the array's name.
int a[1000];
int main(void) {
  int *p = &a[3];
  return *p;
}
