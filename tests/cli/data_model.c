// --data-model: long has 32 bits under ILP32 (the default for a bare .c, as
// SV-COMP's C tasks) and 64 under LP64: the value 2^32 converted to long is 0 only under
// ILP32, so the error is reachable only there.
void reach_error(void) {}

int main(void) {
  long long big = 4294967296LL;
  long x = (long)big;
  if (x == 0) reach_error();
  return 0;
}
