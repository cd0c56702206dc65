int main() {
#pragma clang __debug crash
 return 0; }
