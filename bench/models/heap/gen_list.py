#!/usr/bin/env python3
"""A list of N nodes built by N malloc call sites (unrolled), walked and summed: how the
heap encoding grows with the number of allocation sites (bench/README.md, "Structs and
the heap"). Every site's objects are candidates of every `q->v`, so the CFA grows
with N x objects per site.

usage: gen_list.py N [safe|unsafe] > list_N.c
"""
import sys

n = int(sys.argv[1])
safe = len(sys.argv) < 3 or sys.argv[2] == "safe"
print("#include <stdlib.h>")
print("void reach_error(void);")
print("struct node { int v; struct node *next; };")
print("int main(void) {")
print("  struct node *head = 0, *p;")
for i in range(n):
    print(f"  p = malloc(sizeof(struct node)); p->v = {i % 3}; p->next = head; head = p;")
total = sum(i % 3 for i in range(n))
print("  int s = 0;")
print("  for (struct node *q = head; q; q = q->next) s += q->v;")
print(f"  if (s != {total if safe else total + 1}) reach_error();")
print("  return 0;")
print("}")
