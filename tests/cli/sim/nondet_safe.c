// Random simulation never says SAFE: its runs stop covering new edges and it ends
// UNKNOWN with the reason (algorithms/random_simulation.hpp).
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) {
    int v = __VERIFIER_nondet_int();
    if (v > 0 && v < 1000) s += v;
  }
  if (s < 0) reach_error();
  return 0;
}
