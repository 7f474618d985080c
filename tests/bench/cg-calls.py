#!/usr/bin/env python3
"""cg-calls.py CALLGRIND_FILE OPS [ROOT] -- the calls of a callgrind run
(run-callgrind.sh with CG_KEEP) between the project's own functions, per
op: how many calls a move (or a PING) makes inside server/, proto/ and
common/, through how many files, and the files with the calls each one
makes.  What issue 24 calls the MOVE road, counted rather than drawn: a
refactoring that adds a hop shows here as a call more per move.  ROOT is
the source tree's prefix in the file's paths (default: any path with
/server/, /proto/ or /common/ in it).  A manual tool, not run by ctest."""
import collections, re, sys

def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cg-calls.py CALLGRIND_FILE OPS [ROOT]")
    path, ops = sys.argv[1], float(sys.argv[2])
    ours = re.compile(r"/(server|proto|common)/[^/]+\.c$")
    names = {"fl": {}, "fn": {}}
    fl = fn = cfl = cfn = None
    calls = collections.Counter()       # (caller file, callee file) -> n
    byfn = collections.Counter()        # callee function -> n

    def name(kind, v):
        m = re.match(r"\((\d+)\)(?: (.*))?$", v)
        if not m:
            return v
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), "?")

    pending = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(("fl=", "fi=", "fe=")):
                fl = name("fl", line[3:])
                if line.startswith("fl="):
                    cfl = None
            elif line.startswith("fn="):
                fn = name("fn", line[3:]); cfl = None
            elif line.startswith(("cfl=", "cfi=")):
                cfl = name("fl", line[4:])
            elif line.startswith("cfn="):
                cfn = name("fn", line[4:])
            elif line.startswith("calls="):
                pending = int(line[6:].split()[0])
                callee_fl = cfl if cfl is not None else fl
                if ours.search(fl or "") and ours.search(callee_fl or ""):
                    a = re.sub(r".*/((server|proto|common)/)", r"\1", fl)
                    b = re.sub(r".*/((server|proto|common)/)", r"\1",
                               callee_fl)
                    calls[(a, b)] += pending
                    byfn[b + ":" + cfn] += pending
                cfl = None
    total = sum(calls.values())
    files = set()
    for (a, b), n in calls.items():
        if n / ops >= 0.5:
            files.update((a, b))
    cross = sum(n for (a, b), n in calls.items() if a != b)
    print("calls among the project's functions: %.1f an op (%.1f between "
          "two files), through %d files (those with half a call an op or "
          "more)" % (total / ops, cross / ops, len(files)))
    per = collections.Counter()
    for (a, b), n in calls.items():
        per[a] += n
    for fname, n in per.most_common():
        if n / ops >= 0.05:
            print("  %-28s %6.2f calls an op" % (fname, n / ops))
    print("most called:")
    for fname, n in byfn.most_common(25):
        print("  %-44s %6.2f" % (fname, n / ops))

main()
