// The error needs both files open: a violation witness cannot state fopen's choices
// (its result is a pointer), so the replay of --validate must try them.
typedef struct _IO_FILE FILE;
extern FILE* fopen(const char* path, const char* mode);
#define NULL ((void*)0)
extern void reach_error(void);
int main(void) {
  FILE* a = fopen("a.txt", "r");
  FILE* b = fopen("b.txt", "w");
  FILE* c = fopen("c.txt", "w");
  if (a != NULL && b == NULL && c != NULL) reach_error();
  return 0;
}
