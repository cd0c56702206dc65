// loop-industry-pattern's shape (aiob_*, ofuf_*): a file handle that is only checked
// against NULL, then a loop over a constant table. fopen is undefined: it returns NULL
// or a handle (frontends/c/src/calls.cpp), and both continuations are verified.
typedef struct _IO_FILE FILE;  // as in a preprocessed task: the struct stays opaque
extern FILE* fopen(const char* path, const char* mode);
extern int fclose(FILE* f);
extern int printf(const char* format, ...);
#define NULL ((void*)0)
extern void reach_error(void);
void __VERIFIER_assert(int c) {
  if (!c) reach_error();
}
static const int table[6] = {3, 1, 4, 1, 5, 0};
int main(void) {
  FILE* f = fopen("in.eds", "r");
  if (f == NULL) return 1;
  int i = 0;
  while (table[i] != 0) {
    __VERIFIER_assert(i >= 0 && i < 6);
    i++;
  }
  printf("%d entries\n", i);
  fclose(f);
  return 0;
}
