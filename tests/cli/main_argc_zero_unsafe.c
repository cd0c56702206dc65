// argc may be 0 (an empty argument vector): the error is reachable.
extern void reach_error(void);
int main(int argc, char* argv[]) {
  if (argc == 0) reach_error();
  return 0;
}
