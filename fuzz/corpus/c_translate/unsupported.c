struct s { int a; };
int arr[4];
float f;
int rec(int n) { return n <= 0 ? 0 : rec(n - 1); }
int main() { int *p = &arr[1]; struct s v; v.a = *p; f = 1.5f; return rec(v.a) & 3; }
