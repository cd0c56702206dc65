// main(int argc, char *argv[]): argc is any nonnegative int (C11 5.1.2.2.1), argv is
// never dereferenced here.
extern void reach_error(void);
int main(int argc, char* argv[]) {
  if (argc < 0) reach_error();
  return 0;
}
