// Two open files are two objects: their handles differ, and neither is NULL.
typedef struct _IO_FILE FILE;  // as in a preprocessed task: the struct stays opaque
extern FILE* fopen(const char* path, const char* mode);
extern int fclose(FILE* f);
extern int printf(const char* format, ...);
#define NULL ((void*)0)
extern void reach_error(void);
int main(void) {
  FILE* a = fopen("a.txt", "r");
  FILE* b = fopen("b.txt", "r");
  if (a != NULL && b != NULL && a == b) reach_error();
  if (a != NULL && !a) reach_error();
  return 0;
}
