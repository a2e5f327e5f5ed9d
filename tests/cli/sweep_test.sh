#!/bin/sh
# `raceaccel sweep` end to end (docs/cli.md, "sweep"): a 2 x 2 grid on a
# generated trace (CSV header, one row per point, the on-chip share moving
# with the read-VC pool and the slot count, the same races at every point),
# --jobs giving the same rows, bad grids and impossible shapes (exit 2), a
# missing or malformed trace (74, 65), --model verilator refused, and --plot
# (SVGs through gnuplot; exit 69 without gnuplot on PATH).
# Usage: sweep_test.sh RACEACCEL WORK_DIR
set -u
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/lib.sh"





t=$work/t.rtrace
"$bin" gen --threads 8 --events 20000 -o "$t" || fail "gen"

# A 2 x 2 grid: pool (0: no read-VC pool) x slots (4: most threads slotless).
expect_status 0 "2x2 sweep" "$bin" sweep --grid pool=0,16 --grid slots=4,64 --csv "$work/grid.csv" "$t"
header="trace,model,slots,clock_bits,sets,ways,pool,objects,bucket_bits,batch_words,reimport,pool_ways,atomics,bucket_ways,latency,events,races,accesses,on_chip,on_chip_share,escalations,cycles,cycles_per_event,command_bytes_per_event,host_ns_per_event,esc_slotless,esc_atomic,esc_overflow,esc_host_owned,esc_no_pool,esc_second_share,esc_partial_read,esc_lastwrite,esc_different_reads,esc_bucket_spill,esc_read_clock_spill,esc_other,record_bytes_per_event,kernel_bound_events_per_s,pcie_bound_events_per_s,modelled_events_per_s,lut,ff,bram,host_bound_events_per_s,end_to_end_events_per_s"
[ "$(head -1 "$work/grid.csv")" = "$header" ] && pass || fail "CSV header: $(head -1 "$work/grid.csv")"
[ "$(wc -l <"$work/grid.csv")" -eq 5 ] && pass || fail "rows: $(wc -l <"$work/grid.csv") lines, expected header + 4"
# Rows in grid order: the first grid varies slowest.
[ "$(column "$work/grid.csv" pool | tr '\n' ' ')" = "0 0 16 16 " ] && pass || fail "pool column order"
[ "$(column "$work/grid.csv" slots | tr '\n' ' ')" = "4 64 4 64 " ] && pass || fail "slots column order"
# The model is exact at every shape: the same races; only where they are decided differs.
[ "$(column "$work/grid.csv" races | sort -u | wc -l)" -eq 1 ] && pass || fail "races differ between points"
[ "$(column "$work/grid.csv" events | sort -u)" = "20000" ] && pass || fail "events column"
share() { awk -F, -v p="$2" -v s="$3" 'NR > 1 && $7 == p && $3 == s { print $20 }' "$1"; }
# With 64 slots a read-VC pool keeps read-shared lines on chip; without one
# they escalate (no_pool). With 4 slots most accesses are slotless.
awk -v a="$(share "$work/grid.csv" 16 64)" -v b="$(share "$work/grid.csv" 0 64)" 'BEGIN { exit !(a > b) }' &&
  pass || fail "on-chip share does not grow with the pool: $(share "$work/grid.csv" 16 64) vs $(share "$work/grid.csv" 0 64)"
awk -v a="$(share "$work/grid.csv" 16 64)" -v b="$(share "$work/grid.csv" 16 4)" 'BEGIN { exit !(a > b + 0.3) }' &&
  pass || fail "on-chip share does not grow with the slots"
awk -F, 'NR > 1 && $7 == 0 && $3 == 64 { exit !($30 > 0) }' "$work/grid.csv" && pass || fail "no esc_no_pool without a pool"
awk -F, 'NR > 1 && $7 == 16 { exit !($30 == 0) }' "$work/grid.csv" && pass || fail "esc_no_pool with a pool"
# The fast model estimates the kernel's cycles (at the default latency, 8).
[ "$(column "$work/grid.csv" latency | sort -u)" = "8" ] && pass || fail "latency column"
for c in $(column "$work/grid.csv" cycles); do
  [ "$c" -gt 20000 ] && pass || fail "cycles $c: not estimated (at least one per event)"
done
# The modelled card (offload/card_model.hpp): 300 MHz over the busy cycles
# per event, PCIe over the bytes each way, the lower of the two.
for row in 2 3 4 5; do
  line=$(sed -n "${row}p" "$work/grid.csv")
  get() { echo "$line" | awk -F, -v c="$(head -1 "$work/grid.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1)" '{ print $c }'; }
  awk -v k="$(get kernel_bound_events_per_s)" -v c="$(get cycles_per_event)" \
    'BEGIN { d = k * c / 300e6 - 1; if (d < 0) d = -d; exit !(d < 0.001) }' &&
    pass || fail "kernel-bound $(get kernel_bound_events_per_s) is not 300 MHz / $(get cycles_per_event) cycles"
  awk -v p="$(get pcie_bound_events_per_s)" -v b="$(get command_bytes_per_event)" -v r="$(get record_bytes_per_event)" \
    'BEGIN { q = 9e9 / b; if (r > 0 && 12e9 / r < q) q = 12e9 / r; d = p / q - 1; if (d < 0) d = -d; exit !(d < 0.001) }' &&
    pass || fail "PCIe-bound $(get pcie_bound_events_per_s) from $(get command_bytes_per_event) and $(get record_bytes_per_event) bytes"
  awk -v m="$(get modelled_events_per_s)" -v k="$(get kernel_bound_events_per_s)" -v p="$(get pcie_bound_events_per_s)" \
    'BEGIN { exit !(m == (k < p ? k : p)) }' && pass || fail "modelled is not the lower bound"
  [ -z "$(get lut)$(get ff)$(get bram)" ] && pass || fail "resources without synthesis: $(get lut) $(get ff) $(get bram)"
  [ -z "$(get host_bound_events_per_s)$(get end_to_end_events_per_s)" ] && pass ||
    fail "a host bound without --host-ns-per-event: $(get host_bound_events_per_s) $(get end_to_end_events_per_s)"
done
# With the host's time per event given, its bound (1e9 / ns) and the end to
# end figure (the lowest of kernel, PCIe and host) are in the CSV; the card's
# own columns do not change.
expect_status 0 "host bound" "$bin" sweep --grid slots=64 --host-ns-per-event 90 --csv "$work/host.csv" "$t"
[ "$(column "$work/host.csv" host_bound_events_per_s)" = "11111111" ] && pass ||
  fail "host bound at 90 ns: $(column "$work/host.csv" host_bound_events_per_s)"
[ "$(column "$work/host.csv" end_to_end_events_per_s)" = "11111111" ] && pass ||
  fail "end to end is not the host bound (the card's is far above): $(column "$work/host.csv" end_to_end_events_per_s)"
[ "$(column "$work/host.csv" modelled_events_per_s)" = "$(sed -n 5p "$work/grid.csv" | cut -d, -f41)" ] && pass ||
  fail "the host bound changed the card's modelled events/s"
expect_status 0 "a fast host" "$bin" sweep --grid slots=64 --host-ns-per-event 0.001 --csv "$work/fasthost.csv" "$t"
[ "$(column "$work/fasthost.csv" end_to_end_events_per_s)" = "$(column "$work/fasthost.csv" modelled_events_per_s)" ] &&
  pass || fail "with a host faster than the card, end to end is not the card's bound"
expect_status 2 "negative host time" "$bin" sweep --host-ns-per-event -1 "$t"
# Slotless threads escalate: more records back per event with 4 slots.
awk -F, 'NR > 1 && $3 == 4 { a = $38 } NR > 1 && $3 == 64 { b = $38 } END { exit !(a > b) }' "$work/grid.csv" &&
  pass || fail "record bytes do not grow with the escalations"

# Cycles grow with the memory latency once there is a cache to miss in.
expect_status 0 "latency sweep" "$bin" sweep --grid sets=64 --grid ways=2 --grid latency=1,64 --csv "$work/lat.csv" "$t"
[ "$(column "$work/lat.csv" cycles | sed -n 2p)" -gt "$(column "$work/lat.csv" cycles | sed -n 1p)" ] &&
  pass || fail "cycles do not grow with the latency: $(column "$work/lat.csv" cycles | tr '\n' ' ')"
[ "$(column "$work/lat.csv" escalations | sort -u | wc -l)" -eq 1 ] && pass || fail "escalations depend on the latency"
expect_status 2 "latency 0" "$bin" sweep --grid latency=0 "$t"
expect_status 2 "bucket_ways 3" "$bin" sweep --grid bucket_ways=3 --grid sets=64 --grid ways=2 "$t"
# The bucket table defaults to the card's (offload::kCardBucketBits, 2^20
# buckets: a card has GiBs of device memory), not the models' 2^16.
[ "$(column "$work/grid.csv" bucket_bits | sort -u)" = "20" ] && pass || fail "default bucket_bits is not 20"
# check takes the table size too (1..20); a larger one is a usage error.
expect_status 66 "check --bucket-bits 8" "$bin" check --backend software --bucket-bits 8 "$t"
expect_status 2 "check --bucket-bits 21" "$bin" check --backend software --bucket-bits 21 "$t"

# --jobs: the same rows (host_ns_per_event, a timing, left out), in the same order.
expect_status 0 "2x2 sweep, 3 jobs, stdout" "$bin" sweep --grid pool=0,16 --grid slots=4,64 --jobs 3 "$t"
cut -d, -f1-24,26- "$work/out" >"$work/jobs.cut"
cut -d, -f1-24,26- "$work/grid.csv" >"$work/grid.cut"
cmp -s "$work/jobs.cut" "$work/grid.cut" && pass || fail "--jobs 3 rows differ from --jobs 1"

# Several read clocks per line (pool_ways, version 6): the same races, more
# decided on chip; a way count that is not a power of two is no kernel shape.
expect_status 0 "pool_ways sweep" "$bin" sweep --grid pool_ways=1,4 --csv "$work/ways.csv" "$t"
[ "$(column "$work/ways.csv" races | sort -u | wc -l)" = 1 ] && pass || fail "races differ with pool_ways"
[ "$(column "$work/ways.csv" on_chip | sed -n 2p)" -gt "$(column "$work/ways.csv" on_chip | sed -n 1p)" ] &&
  pass || fail "4 read clocks per line do not decide more on chip than 1"
expect_status 2 "pool_ways 3" "$bin" sweep --grid pool_ways=3 "$t"
expect_grep "$work/err" "read-VC pool ways" "pool_ways message"

# Bad grids: usage errors (2) with a message naming the problem.
expect_status 2 "unknown knob" "$bin" sweep --grid colour=1,2 "$t"
expect_grep "$work/err" "unknown knob 'colour'" "unknown knob message"
expect_status 2 "empty list" "$bin" sweep --grid pool= "$t"
expect_grep "$work/err" "the list of values is empty" "empty list message"
expect_status 2 "empty value" "$bin" sweep --grid pool=0,,16 "$t"
expect_status 2 "non-numeric" "$bin" sweep --grid slots=4,many "$t"
expect_grep "$work/err" "'many' is not an unsigned decimal integer" "non-numeric message"
expect_status 2 "no =" "$bin" sweep --grid slots "$t"
expect_status 2 "out of range" "$bin" sweep --grid slots=512 "$t"
expect_status 2 "knob twice" "$bin" sweep --grid slots=4 --grid slots=8 "$t"
expect_status 2 "pool not a power of two" "$bin" sweep --grid pool=3 "$t"
expect_grep "$work/err" "the point pool=3 is not a kernel shape" "impossible shape message"
expect_status 2 "sets without ways" "$bin" sweep --grid sets=256 "$t"
expect_status 2 "pool larger than the cache" "$bin" sweep --grid sets=8 --grid ways=2 --grid pool=16 "$t"
expect_status 2 "stdin" "$bin" sweep -

# Traces: missing (74), malformed (65), as check.
expect_status 74 "missing trace" "$bin" sweep "$work/none.rtrace"
expect_grep "$work/err" "cannot open" "missing trace message"
printf 'T0|w(V1)|1\nnot a line\n' >"$work/bad.std"
expect_status 65 "malformed trace" "$bin" sweep --grid pool=0,16 "$work/bad.std"
expect_grep "$work/err" "bad.std:2:" "malformed message names the line"

# --plot: SVGs through gnuplot (scripts/install-deps.sh installs gnuplot-nox).
expect_status 0 "plot" "$bin" sweep --grid pool=0,16 --grid slots=4,64 --plot "$work/plots" "$t"
for knob in pool slots; do
  svg=$work/plots/on_chip_share_vs_$knob.svg
  [ -s "$svg" ] && pass || fail "no $svg"
  expect_grep "$svg" "<svg" "$knob plot is SVG"
  expect_grep "$svg" "on-chip share vs $knob" "$knob plot title"
  expect_grep "$work/plots/cycles_per_event_vs_$knob.svg" "kernel cycles per event vs $knob" "$knob cycles plot"
  expect_grep "$work/plots/events_per_s_vs_$knob.dat" "PCIe-bound" "$knob events/s plot: PCIe line"
  expect_grep "$work/plots/events_per_s_vs_$knob.dat" "kernel-bound" "$knob events/s plot: kernel line"
  # No shape was synthesized: no resources plot.
  [ ! -e "$work/plots/resources_vs_$knob.svg" ] && pass || fail "a resources plot without resources"
done
# Knobs gridded with one value are in the title, not in every legend entry
# (a long legend left the plot no width), and names are plain text
# (bucket_bits, not a subscript).
expect_status 0 "plot with fixed knobs" "$bin" sweep --grid pool=0,16 --grid slots=4,64 --grid bucket_bits=12 \
  --plot "$work/plots_fixed" "$t"
expect_grep "$work/plots_fixed/on_chip_share_vs_slots.svg" "on-chip share vs slots (bucket_bits=12)" "fixed knobs in title"
if grep -q "bucket_bits" "$work/plots_fixed/on_chip_share_vs_slots.dat"; then
  fail "a one-value knob is in the legend entries"
else
  pass
fi
expect_grep "$work/plots_fixed/on_chip_share_vs_slots.gp" "noenhanced" "plain-text labels"
# A plot directory that cannot be made: 74 before any run.
: >"$work/not_a_dir"
expect_status 74 "uncreatable plot dir" "$bin" sweep --grid pool=0,16 --plot "$work/not_a_dir/plots" "$t"
# Without gnuplot on PATH: 69 before any run.
expect_status 69 "plot without gnuplot" env PATH="$work/empty-path" "$bin" sweep --plot "$work/p2" "$t"
expect_grep "$work/err" "needs gnuplot" "no gnuplot message"

finish
