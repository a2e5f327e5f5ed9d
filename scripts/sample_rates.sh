#!/bin/sh
# Detection rate against overhead of sample=RATE (docs/runtime.md,
# "Sampling"; docs/performance.md, "Sampling"). Runs every racy program of
# tests/programs (the manifest's "race" rows) and of tests/runtime/programs
# (region_mix and random_mix for seeds 1..SEEDS, sample_sites,
# parallel_stress) RUNS times at each rate, interleaved (run 1 of everything
# at every rate, then run 2, ...). A rate of 1 is the unsampled reference.
# Prints per rate and program group:
#   found   runs that reported at least one race / the same at rate 1;
#   reports race reports printed / the same at rate 1;
#   checked accesses checked / accesses checked + sampled out (verbosity=1);
#   CPU     user + system seconds summed over the group's runs, and / rate 1.
# A benchmark, not a test: nothing fails on a number.
#
# Usage: scripts/sample_rates.sh [BUILD_DIR] [RUNS] [RATES] [SEEDS]
#   defaults: build 5 "1 0.5 0.1 0.02" 20
set -eu
build=${1:-build}
runs=${2:-5}
rates=${3:-1 0.5 0.1 0.02}
seeds=${4:-20}
manifest=$build/tests/programs/programs.manifest
rt=$build/tests/runtime/programs
[ -r "$manifest" ] || { echo "sample_rates.sh: no $manifest (build raceaccel_programs)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One line per program: group|command words separated by '^'.
list=$out/programs
while IFS='|' read -r _name _driver verdict _source exe args; do
  [ "$verdict" = race ] || continue
  echo "tests/programs|$exe^$args" >>"$list"
done <"$manifest"
s=1
while [ "$s" -le "$seeds" ]; do
  echo "region_mix|$rt/region_mix^$s^4" >>"$list"
  echo "random_mix|$rt/random_mix^$((s + 5000))^4" >>"$list"
  s=$((s + 1))
done
echo "sample_sites|$rt/sample_sites" >>"$list"
echo "parallel_stress|$rt/parallel_stress^1^4" >>"$list"

# (time -o writes "Command exited with non-zero status 66" first for racy runs.)
# results: group rate found reports checked sampled_out cpu_seconds
r=1
while [ "$r" -le "$runs" ]; do
  echo "run $r of $runs..." >&2
  while IFS='|' read -r group words; do
    # shellcheck disable=SC2046 # the command is a word list
    set -- $(printf '%s' "$words" | tr '^' ' ')
    for rate in $rates; do
      options="verbosity=1"
      [ "$rate" = 1 ] || options="$options sample=$rate"
      RACEACCEL_OPTIONS=$options /usr/bin/time -f "%U %S" -o "$out/time" "$@" >/dev/null 2>"$out/err" || true
      # the largest count: a forked child prints its own summary (sampled: also with 0)
      reports=$(sed -n 's/^raceaccel: reported \([0-9]*\) data race.*/\1/p' "$out/err" | sort -n | tail -1)
      checked=$(sed -n 's/.* events checked (\([0-9]*\) accesses.*/\1/p' "$out/err" | head -1)
      dropped=$(sed -n 's/.* \([0-9]*\) accesses sampled out.*/\1/p' "$out/err" | head -1)
      cpu=$(tail -1 "$out/time" | awk '{ print $1 + $2 }')
      found=0
      [ "${reports:-0}" -gt 0 ] && found=1
      echo "$group $rate $found ${reports:-0} ${checked:-0} ${dropped:-0} $cpu" >>"$out/results"
    done
  done <"$list"
  r=$((r + 1))
done

echo "machine: $(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$runs runs of each program at each rate, interleaved"
printf '| programs | sample | runs | found / unsampled | reports / unsampled | accesses checked | CPU (sum) | CPU / unsampled |\n'
printf '|---|---|---|---|---|---|---|---|\n'
awk '
  { g = $1; r = $2; n[g, r]++; f[g, r] += $3; rep[g, r] += $4; c[g, r] += $5; d[g, r] += $6; cpu[g, r] += $7
    if (!(g in seen)) { seen[g] = 1; groups[++ng] = g }
    if (!(r in rseen)) { rseen[r] = 1; rs[++nr] = r } }
  END {
    for (i = 1; i <= ng; i++) for (j = 1; j <= nr; j++) {
      g = groups[i]; r = rs[j]
      share = (c[g, r] + d[g, r]) > 0 ? 100 * c[g, r] / (c[g, r] + d[g, r]) : 100
      printf "| %s | %s | %d | %d / %d = %.2f | %d / %d = %.2f | %.1f %% | %.2f s | %.2f |\n", g, r, n[g, r],
        f[g, r], f[g, 1], (f[g, 1] ? f[g, r] / f[g, 1] : 0), rep[g, r], rep[g, 1], (rep[g, 1] ? rep[g, r] / rep[g, 1] : 0),
        share, cpu[g, r], (cpu[g, 1] ? cpu[g, r] / cpu[g, 1] : 0)
    }
  }' "$out/results"
