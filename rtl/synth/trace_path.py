#!/usr/bin/env python3
"""The deepest path into chosen endpoints of a kept netlist, cell by cell.

endpoint_depth.py says how deep each endpoint is; this says which cells make
the depth, to see which wide function (a LUT6 and its MUXF7/F8/F9) or which
carry chain a retiming has to move:

  KEEP_NETLIST=1 sh rtl/synth/synth_block.sh ...       (keeps <tag>.netlist.json)
  trace_path.py <netlist.json> <top> <endpoint-regex> [N] [--inputs]

endpoint-regex matches "<register> .<pin>" (a flip-flop's D, CE, R or S, a
RAM's pin by name), as endpoint_depth.py prints them, and the N deepest
matching endpoints (default 1) are printed from the register or RAM that
starts the path to the endpoint, one cell a line: the cell's type and the net
it drives (by its RTL name where Yosys kept one). --inputs then lists, for
each cell of the first path from the endpoint back, the registers that feed
it directly: the side inputs that a wide LUT merges into the path. Levels
are counted as endpoint_depth.py counts them (each LUT, LUTRAM read, MUXF
and CARRY4 one; flip-flops, RAMs and ports start a path).
"""
import json
import re
import sys

# The cell classes and address pins, counted as endpoint_depth.py counts them.
from endpoint_depth import is_address as is_addr, kind


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    args = [a for a in argv[1:] if a != "--inputs"]
    show_inputs = "--inputs" in argv
    mod = json.load(open(args[0]))["modules"][args[1]]
    sel = re.compile(args[2])
    count = int(args[3]) if len(args) > 3 else 1

    cells = []  # (kind, [(pin, nets)], type)
    driver = {}
    for c in mod["cells"].values():
        ins, outs = [], []
        for pin, bits in c["connections"].items():
            nets = [b if isinstance(b, int) else -1 for b in bits]
            if c["port_directions"][pin] == "output":
                outs += nets
            else:
                ins.append((pin, nets))
        for n in outs:
            if n >= 0:
                driver[n] = len(cells)
        cells.append((kind(c["type"]), ins, outs, c["type"]))
    label = {}
    for name, n in mod["netnames"].items():
        if name and name[0] != "$":
            for b in n["bits"]:
                if isinstance(b, int) and (b not in label or len(name) < len(label[b])):
                    label[b] = name

    memo = {}  # cell -> (levels at its output, the input net on the deepest path)

    def arrival(n):
        if n < 0 or n not in driver or cells[driver[n]][0] in ("ff", "ram", "seq"):
            return 0
        return through(driver[n])[0]

    def through(i):
        # Iterative depth-first walk: the netlists are deeper than Python's
        # recursion limit allows comfortably.
        stack = [i]
        while stack:
            j = stack[-1]
            if j in memo:
                stack.pop()
                continue
            k, ins, _, _ = cells[j]
            pending = []
            for pin, nets in ins:
                if k == "lutram" and not is_addr(pin):
                    continue
                for n in nets:
                    if n >= 0 and n in driver and cells[driver[n]][0] not in ("ff", "ram", "seq") \
                            and driver[n] not in memo:
                        pending.append(driver[n])
            if pending:
                stack.extend(pending)
                continue
            best, best_net = 0, None
            for pin, nets in ins:
                if k == "lutram" and not is_addr(pin):
                    continue
                for n in nets:
                    d = arrival(n)
                    if best_net is None or d > best:
                        best, best_net = d, n
            memo[j] = (best + (1 if k in ("lut", "lutram", "muxf", "carry") else 0), best_net)
            stack.pop()
        return memo[i]

    ends = []
    for k, ins, outs, t in cells:
        if k not in ("ff", "ram", "lutram", "seq"):
            continue
        reg = next((label[n] for n in outs if n >= 0 and n in label), t)
        for pin, nets in ins:
            if pin in ("C", "CLK", "WCLK"):
                continue
            key = f"{reg} .{pin}"
            if sel.search(key):
                for n in nets:
                    ends.append((arrival(n), key, n))
    ends.sort(key=lambda e: -e[0])
    for d, key, n in ends[:count]:
        print(f"== {d} levels into {key}")
        path = []
        while n is not None and n >= 0 and n in driver:
            i = driver[n]
            path.append(f"  {cells[i][3]:10s} -> {label.get(n, 'net%d' % n)}")
            if cells[i][0] in ("ff", "ram", "seq"):
                break
            n = through(i)[1]
        print("\n".join(reversed(path)))
    if show_inputs and ends:
        _, _, n = ends[0]
        while n is not None and n >= 0 and n in driver:
            i = driver[n]
            k, ins, _, t = cells[i]
            if k in ("ff", "ram", "seq"):
                break
            regs = set()
            for _, nets in ins:
                for m in nets:
                    if m in driver and cells[driver[m]][0] in ("ff", "ram", "seq", "lutram"):
                        regs.add(label.get(m, "?"))
            print(f"{t:8s} level {memo[i][0]:2d}: registers in: {', '.join(sorted(regs)[:12])}")
            n = memo[i][1]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
