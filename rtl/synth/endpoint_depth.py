#!/usr/bin/env python3
"""Logic depth per endpoint register of a kept synth_xilinx netlist.

rac_netlist_depth reports the worst path per endpoint class; to see what a
retiming did to one register, this lists every endpoint (a flip-flop's D or
control pins, a RAM's pins by name) with its deepest path, counted the same
way (each LUT, LUTRAM read, MUXF and CARRY one level; paths start at
flip-flops, RAMs and input ports):

  KEEP_NETLIST=1 sh rtl/synth/synth_block.sh ...       (keeps <tag>.netlist.json)
  endpoint_depth.py <netlist.json> <top> [endpoint-regex] [start-regex]

endpoint-regex selects the lines ("<register> .D", "<register> .ctrl",
"<ram> .<pin>"); start-regex counts only paths that start at registers or
RAMs whose name matches it (and none from the ports), to separate, say, a
write's data path from the ready chain that enables the same register.
"""
import collections
import json
import re
import sys


def kind(t):
    if t.startswith("LUT") and len(t) == 4:
        return "lut"
    if t.startswith("MUXF"):
        return "muxf"
    if t.startswith("CARRY"):
        return "carry"
    if t in ("INV", "BUF", "VCC", "GND"):
        return "comb"
    if t.startswith("FD"):
        return "ff"
    if t.startswith("RAMB") or t.startswith("URAM"):
        return "ram"
    if t.startswith("RAM"):
        return "lutram"  # asynchronous read: one LUT level from its address
    return "seq"


def is_address(pin):
    return pin.startswith("ADDR") or pin.startswith("DPRA") or (len(pin) >= 2 and pin[0] == "A" and pin[1].isdigit())


NONE = (-(10**6), 0, 0, "")  # no path (a start the filter excludes)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.setrecursionlimit(1_000_000)
    mod = json.load(open(sys.argv[1]))["modules"][sys.argv[2]]
    select = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
    start = re.compile(sys.argv[4]) if len(sys.argv) > 4 else None

    cells, driver = [], {}
    for name, c in mod["cells"].items():
        ins, outs = [], []
        for pin, bits in c["connections"].items():
            nets = [b if isinstance(b, int) else -1 for b in bits]
            if c["port_directions"][pin] == "output":
                for n in nets:
                    if n >= 0:
                        driver[n] = len(cells)
                outs += nets
            else:
                ins.append((pin, nets))
        cells.append((name, kind(c["type"]), ins, outs))
    label = {}
    for name, n in mod["netnames"].items():
        if name and name[0] != "$":
            for b in n["bits"]:
                if isinstance(b, int) and (b not in label or len(name) < len(label[b])):
                    label[b] = name

    memo = {}

    def arriving(n):  # (lut, muxf, carry, start) of the deepest path to net n
        if n < 0 or n not in driver:
            return NONE if start else (0, 0, 0, "port")
        i = driver[n]
        if cells[i][1] in ("ff", "ram", "seq"):
            name = label.get(n, f"net{n}")
            return NONE if start and not start.search(name) else (0, 0, 0, name)
        return through(i)

    def through(i):
        if i in memo:
            return memo[i]
        _, k, ins, _ = cells[i]
        best = None
        for pin, nets in ins:
            if k == "lutram" and not is_address(pin):
                continue
            for n in nets:
                p = arriving(n)
                if best is None or (sum(p[:3]), p[0]) > (sum(best[:3]), best[0]):
                    best = p
        lut, muxf, carry, frm = best if best is not None else (0, 0, 0, "constant")
        if k in ("lut", "lutram"):
            lut += 1
        elif k == "muxf":
            muxf += 1
        elif k == "carry":
            carry += 1
        memo[i] = (lut, muxf, carry, frm)
        return memo[i]

    worst = collections.defaultdict(lambda: NONE)
    for name, k, ins, outs in cells:
        if k not in ("ff", "ram", "lutram", "seq"):
            continue
        reg = next((label[n] for n in outs if n >= 0 and n in label), name)
        for pin, nets in ins:
            if pin in ("C", "CLK", "WCLK"):
                continue
            cls = ("D" if pin == "D" else "ctrl") if k == "ff" else pin.rstrip("0123456789[]")
            key = f"{reg} .{cls}"
            for n in nets:
                p = arriving(n)
                if sum(p[:3]) > sum(worst[key][:3]):
                    worst[key] = p
    for key, (lut, muxf, carry, frm) in sorted(worst.items(), key=lambda kv: -sum(kv[1][:3])):
        if lut < 0 or (select and not select.search(key)):
            continue
        print(f"{lut + muxf + carry:3d} ({lut} + {muxf} + {carry})  {key:50s} <- {frm}")


if __name__ == "__main__":
    main()
