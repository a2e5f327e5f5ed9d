#!/usr/bin/env python3
"""The tables of scripts/card_agreement.sh, from its two CSVs.

Usage: card_agreement_tables.py OUT_DIR  (reads OUT_DIR/{fast,verilator}.csv,
writes OUT_DIR/table.md, docs/hardware.md's table, and OUT_DIR/throughput.md,
docs/performance.md's "Modelled card throughput" table).

The escalation columns are the sweep's esc_* columns that are not zero on
some trace. Most count escalated accesses by first cause (they add up to
`escalations`); the two spill causes count records the kernel sent when it
evicted a bucket line or a read clock, not accesses, so they get columns of
their own.
"""
import csv
import sys

SPILLS = ("esc_bucket_spill", "esc_read_clock_spill")


def rows(out, name):
    with open(f"{out}/{name}.csv", newline="") as f:
        return list(csv.DictReader(f))


def trace_name(row):
    return row["trace"].rsplit("/", 1)[-1].removesuffix(".rtrace")


def count(v):
    return f"{int(v):,}"


def rate(v):
    return f"{float(v) / 1e6:.1f} M" if v else "—"


def main():
    out = sys.argv[1]
    fast, ver = rows(out, "fast"), rows(out, "verilator")
    occurring = [c for c in fast[0] if c.startswith("esc_") and any(int(r[c]) for r in fast + ver)]
    causes = [c for c in occurring if c not in SPILLS]
    spills = [c for c in SPILLS if c in occurring]
    with open(f"{out}/table.md", "w") as t:
        t.write("| trace | events | accesses | on chip (Verilator = model) | races | escalated: "
                + " / ".join(c[4:] for c in causes) + " | spill records: " + " / ".join(c[4:] for c in spills)
                + " | cycles/event, model / Verilator |\n")
        t.write("|---" * 8 + "|\n")
        for f, v in zip(fast, ver):
            share = 100.0 * int(v["on_chip"]) / max(1, int(v["accesses"]))
            t.write(f"| `{trace_name(v)}` | {count(v['events'])} | {count(v['accesses'])} | "
                    f"{count(v['on_chip'])} ({share:.2f} %) | {count(v['races'])} | "
                    + " / ".join(count(v[c]) for c in causes) + " | " + " / ".join(count(v[c]) for c in spills)
                    + f" | {float(f['cycles_per_event']):.3f} / {float(v['cycles_per_event']):.3f} |\n")
    with open(f"{out}/throughput.md", "w") as t:
        t.write("| trace | busy cycles/event (Verilator) | kernel limit at 300 MHz | command bytes/event | "
                "record bytes/event | PCIe limit | modelled card | host limit (one core) | end to end |\n")
        t.write("|---" * 9 + "|\n")
        for v in ver:
            t.write(f"| `{trace_name(v)}` | {float(v['cycles_per_event']):.3f} | "
                    f"{rate(v['kernel_bound_events_per_s'])} | {float(v['command_bytes_per_event']):.1f} | "
                    f"{float(v['record_bytes_per_event']):.1f} | {rate(v['pcie_bound_events_per_s'])} | "
                    f"{rate(v['modelled_events_per_s'])} | {rate(v['host_bound_events_per_s'])} | "
                    f"**{rate(v['end_to_end_events_per_s'])}** |\n")


if __name__ == "__main__":
    main()
