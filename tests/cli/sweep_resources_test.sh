#!/bin/sh
# `raceaccel sweep --resources` (docs/cli.md, "sweep", Resources): a tiny
# kernel shape synthesized with Yosys through scripts/synth_report.sh (about
# a minute of CPU), its LUT/FF/BRAM in the CSV and in a resources plot; a
# second sweep reading them from the cache without synthesizing; --resources
# none; and what cannot be synthesized: no source tree, no Yosys (69), a
# point that is no RTL shape (2), a cache entry without a report.
# Usage: sweep_resources_test.sh RACEACCEL WORK_DIR
set -u
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/lib.sh"





t=$work/t.rtrace
"$bin" gen --threads 2 --events 2000 -o "$t" || fail "gen"
cache=$work/synth-cache
# The smallest shape there is: 2 slots of 8-bit clocks, a 2 x 1 cache, one
# sync object, no read-VC pool, one-way buckets; two latencies, one shape.
tiny="--grid slots=2 --grid clock_bits=8 --grid sets=2 --grid ways=1 --grid objects=1 --grid pool=0 --grid bucket_ways=1"

# shellcheck disable=SC2086 # $tiny is a list of words
expect_status 0 "synthesize" "$bin" sweep --resources synth --synth-cache "$cache" $tiny --grid latency=1,8 \
  --csv "$work/synth.csv" --plot "$work/plots" "$t"
expect_grep "$work/err" "synthesizing rac_kernel (NumSlots=2 ClkW=8 Sets=2 Ways=1 Objects=1 ReadVcs=0 BucketWays=1)" \
  "says what it synthesizes"
[ "$(grep -c "synthesizing rac_kernel" "$work/err")" -eq 1 ] && pass || fail "one shape synthesized more than once"
lut=$(column "$work/synth.csv" lut | sort -u)
ff=$(column "$work/synth.csv" ff | sort -u)
bram=$(column "$work/synth.csv" bram | sort -u)
# Even the tiny kernel has its AXI blocks, sync store and engine: thousands of cells.
[ "$(echo "$lut" | wc -l)" -eq 1 ] && [ "$lut" -gt 1000 ] && pass || fail "lut column: $lut"
[ "$(echo "$ff" | wc -l)" -eq 1 ] && [ "$ff" -gt 1000 ] && pass || fail "ff column: $ff"
echo "$bram" | grep -Eq '^[0-9]+(\.5)?$' && pass || fail "bram column: $bram"
expect_grep "$work/plots/resources_vs_latency.dat" " LUT" "resources plot: LUT line"
expect_grep "$work/plots/resources_vs_latency.dat" "^1 $lut\$" "resources plot: the LUT count at latency 1"
expect_grep "$work/plots/resources_vs_latency.svg" "resources (Yosys synth_xilinx, xcup) vs latency" "resources plot title"
ls "$cache" | grep -q tmp && fail "a build directory left in the cache" || pass

# Cached: the same figures, nothing synthesized (the default mode).
expect_status 0 "cached" "$bin" sweep --synth-cache "$cache" $tiny --csv "$work/cached.csv" "$t"
[ "$(column "$work/cached.csv" lut)" = "$lut" ] && [ "$(column "$work/cached.csv" ff)" = "$ff" ] &&
  [ "$(column "$work/cached.csv" bram)" = "$bram" ] && pass || fail "cached figures differ"
grep -q "synthesizing" "$work/err" && fail "synthesized although cached" || pass
# A shape not in the cache has no figures in cached mode (and is not synthesized).
expect_status 0 "cached, other shape" "$bin" sweep --synth-cache "$cache" --grid slots=4 --grid clock_bits=8 \
  --grid sets=2 --grid ways=1 --grid objects=1 --grid pool=0 --grid bucket_ways=1 --csv "$work/other.csv" "$t"
[ -z "$(column "$work/other.csv" lut)" ] && pass || fail "figures for a shape never synthesized"
grep -q "synthesizing" "$work/err" && fail "cached mode synthesized" || pass
# none: empty columns even when cached.
expect_status 0 "none" "$bin" sweep --resources none --synth-cache "$cache" $tiny --csv "$work/none.csv" "$t"
[ -z "$(column "$work/none.csv" lut)$(column "$work/none.csv" ff)$(column "$work/none.csv" bram)" ] && pass ||
  fail "--resources none filled the columns"

# What cannot be synthesized, said before any run.
expect_status 69 "no source tree" env RACEACCEL_SOURCE_DIR="$work/no-source" "$bin" sweep --resources synth \
  --synth-cache "$work/cache2" $tiny "$t"
expect_grep "$work/err" "needs the raceaccel source tree" "no source tree message"
expect_status 69 "no yosys" env PATH="$work/empty-path" "$bin" sweep --resources synth --synth-cache "$work/cache2" $tiny "$t"
expect_grep "$work/err" "needs Yosys on PATH" "no Yosys message"
# The sweep's default point has no cache (sets 0), which no RTL shape lacks.
expect_status 2 "no RTL shape" "$bin" sweep --resources synth --synth-cache "$work/cache2" "$t"
expect_grep "$work/err" "not a kernel shape" "no RTL shape message"
expect_status 2 "bad mode" "$bin" sweep --resources maybe "$t"
# A synthesis that outlives --synth-timeout is stopped (a hung Yosys never
# blocks a sweep) and leaves no entry in the cache (only its log, in the
# build directory the message names).
expect_status 69 "synthesis timeout" "$bin" sweep --resources synth --synth-timeout 1 --synth-cache "$work/cache3" \
  $tiny "$t"
expect_grep "$work/err" "did not finish .* within 1 s" "timeout message"
[ -z "$(ls -A "$work/cache3" 2>/dev/null | grep -v '[.]tmp-')" ] && pass ||
  fail "a stopped synthesis left a cache entry: $(ls -A "$work/cache3")"
expect_status 2 "timeout 0" "$bin" sweep --resources synth --synth-timeout 0 "$t"
# A damaged entry (its report gone): cached mode has no figures, synth mode
# says which entry to remove.
entry=$(ls -d "$cache"/*/ | head -1)
: >"$entry/resources.txt"
expect_status 0 "damaged entry, cached" "$bin" sweep --synth-cache "$cache" $tiny --csv "$work/damaged.csv" "$t"
[ -z "$(column "$work/damaged.csv" lut)" ] && pass || fail "figures from a damaged entry"
expect_status 69 "damaged entry, synth" "$bin" sweep --resources synth --synth-cache "$cache" $tiny "$t"
expect_grep "$work/err" "holds no report (remove it" "damaged entry message"

finish
