// Random simulation (algorithms/random_simulation.hpp): the bug is 60,000 loop iterations
// deep in a program without inputs (loops over an array of 30,000 cells, as SV-COMP's
// array-examples/standard_init*_ground tasks): 390,010 CFA edges. BMC would unroll them
// all, the explicit domain does not track an SMT array; one run of the program finds it.
void reach_error(void);
int a[30000];
int main(void) {
  for (int i = 0; i < 30000; i++) a[i] = 42;
  for (int i = 0; i < 30000; i++) a[i] = a[i] + 1;
  for (int x = 0; x < 30000; x++)
    if (a[x] != 42) reach_error();
  return 0;
}
