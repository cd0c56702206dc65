// A heap array of a size known only at run time (one SMT array over an address range of
// its own): the loop writes x[k] = k, and the check expects x[5] == 4.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void* malloc(unsigned long);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  int* x = malloc(n * sizeof(int));
  for (int k = 0; k < n; k++) x[k] = k;
  if (n > 5 && x[5] != 4) reach_error();
  return 0;
}
