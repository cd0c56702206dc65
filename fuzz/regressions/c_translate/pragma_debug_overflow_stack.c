int main() {
#pragma clang __debug overflow_stack
 return 0; }
