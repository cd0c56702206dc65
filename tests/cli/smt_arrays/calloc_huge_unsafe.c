// calloc of more bytes than size_t holds fails: the result is the null pointer. With
// 4-byte ints (ILP32) that takes n >= 2^30; malloc(n * sizeof(int)) wraps its size
// around and never fails.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void* malloc(unsigned long);
extern void* calloc(unsigned long, unsigned long);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  int* p = malloc(n * sizeof(int));
  if (p == 0) return 0;
  int* q = calloc(n, sizeof(int));
  if (q == 0) reach_error();
  return 0;
}
