#!/usr/bin/env python3
"""Where a frame's instructions go on ARM: sums insn-count.c's profile (block address, instructions
run inside frames) by the function each block lies in (from `nm -n` of the program), divided by the
frames counted. Usage: profile.py PROGRAM PROFILE FRAMES [TOP]"""
import bisect, re, subprocess, sys

program, profile, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
top = int(sys.argv[4]) if len(sys.argv) > 4 else 15
symbols = []
for line in subprocess.run(["nm", "-n", program], capture_output=True, text=True).stdout.splitlines():
    parts = line.split(None, 2)
    # Mapping symbols ($a, $t, $d, $x) mark instruction sets, not functions.
    if len(parts) == 3 and parts[1] in "tTwW" and not re.match(r"\$[atdx](\.|$)", parts[2]):
        # Bit 0 of a Thumb symbol is the instruction set, not part of the address.
        symbols.append((int(parts[0], 16) & ~1, parts[2]))
# Swift's names, readable (Embedded Swift mangles with $e, which `swift demangle` reads).
names = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(n for _, n in symbols),
                       capture_output=True, text=True).stdout.splitlines()
if len(names) == len(symbols):
    symbols = [(a, n) for (a, _), n in zip(symbols, names)]
starts = [a for a, _ in symbols]
totals = {}
for line in open(profile):
    address, count = line.split()
    i = bisect.bisect_right(starts, int(address, 16)) - 1
    name = symbols[i][1] if i >= 0 else "?"
    totals[name] = totals.get(name, 0) + int(count)
whole = sum(totals.values())
print(f"{whole / frames:12.0f}  per frame in all")
for name, count in sorted(totals.items(), key=lambda kv: -kv[1])[:top]:
    print(f"{count / frames:12.0f}  {100 * count / whole:5.1f} %  {name[:110]}")
