int main() {
#pragma clang __debug llvm_fatal_error
 return 0; }
