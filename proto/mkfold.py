#!/usr/bin/env python3
"""Print proto/utf8.c's fold table (not run by the build: its output is
pasted into utf8.c, and tests/test_utf8.c checks it).

The simple case folding of Unicode (CaseFolding.txt, statuses C and S)
over the ranges tttd folds, with fullwidth ASCII (U+FF01-FF5E) folded to
ASCII first, as runs {first, last, delta, step}: every step-th code point
from first to last folds to itself plus delta, and the ones between are
left alone.  Python's str.casefold is the full folding (C and F): where
it gives more than one character the simple folding is the identity,
but for U+1E9E, whose S folding is U+00DF.
"""
RANGES = [(0x0000, 0x052F), (0x1E00, 0x1EFF), (0x2126, 0x212B),
          (0xFF01, 0xFF5E)]


def fold(cp):
    c = cp - 0xFEE0 if 0xFF01 <= cp <= 0xFF5E else cp
    if c == 0x1E9E:
        return 0x00DF
    f = chr(c).casefold()
    return ord(f) if len(f) == 1 else c


m = {}
for lo, hi in RANGES:
    for cp in range(lo, hi + 1):
        if fold(cp) != cp:
            m[cp] = fold(cp)
runs = []
keys = sorted(m)
i = 0
while i < len(keys):
    first = keys[i]
    d = m[first] - first
    best = (first, 1)
    for step in (1, 2):
        j = first
        while (j + step in m and m[j + step] - (j + step) == d and
               all(k not in m for k in range(j + 1, j + step))):
            j += step
        if j > best[0]:
            best = (j, step)
    last, step = best
    runs.append((first, last, d, step))
    while i < len(keys) and keys[i] <= last:
        i += 1
for first, last, d, step in runs:
    print("\t{ 0x%04X, 0x%04X, %d, %d }," % (first, last, d, step))
print("/* %d runs, %d code points */" % (len(runs), len(m)))
