int main() { _Pragma("clang __debug crash") return 0; }
