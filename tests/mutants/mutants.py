#!/usr/bin/env python3
"""The RTL mutant campaign (docs/verification.md, "Mutant campaign").

Single-line mutations are made automatically in the RTL, one at a time: a
comparison flipped (== !=, < >=, > <=, >= <), a condition replaced by 0 or 1
(`if (c)`), && and || swapped, a sized decimal constant off by one ('dK ->
'd(K+1)). For each mutant the smallest models that contain the mutated
module are rebuilt in a scratch copy of the source tree, and the fast tests
that cover that module run on it (the block testbenches of tests/rtl, the
formal proofs of tests/formal, the engine and kernel tests at tiny shapes);
the first test that fails kills the mutant. A mutant that does not build
(Verilator -Wall rejects it) is stillborn and not counted.

  mutants.py list [--module M ...]
      every mutant, one per line: id, operator, line, old -> new
  mutants.py run --work DIR [--module M ...] [--sample N] [--seed S]
                 [--min-killed PCT] [--jobs-timeout SEC] [--only ID ...]
      the campaign: results in DIR/results.tsv and a summary on stdout;
      --sample N takes N mutants per module, chosen with the seed (the
      sampled subset that `make test` runs); exit 1 when fewer than
      --min-killed percent of the built mutants were killed.

Lines never mutated: comments, declarations, loop headers (a flipped loop
bound does not elaborate), the assertion macros and the cover points.
"""
import argparse
import filecmp
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "..", ".."))

# module -> (build targets, test executables in bin/, proofs of prove.sh).
# Tests run in this order; the first failure kills the mutant, so the
# cheap ones come first.
VC_TB = (["vc_units_test_n8w8s1", "vc_units_test_n5w3s3"], ["vc_units_test_n8w8s1", "vc_units_test_n5w3s3"])
# The engine: the 4-slot model against DJIT+, then (only for a mutant that
# survives it: one model build each) the pool-ways model's way choice.
ENGINE = (["engine_recycling_tests", "engine_pool_tests"], ["engine_recycling_tests", "engine_pool_tests"])
PLANS = {
    "rac_cmd_reader": (["rac_cmd_reader_test_f8b3", "rac_cmd_reader_test_f32b16"],
                       ["rac_cmd_reader_test_f8b3", "rac_cmd_reader_test_f32b16"], ["reader"]),
    "rac_record_writer": (["rac_record_writer_test_r64", "rac_record_writer_test_r192"],
                          ["rac_record_writer_test_r64", "rac_record_writer_test_r192"], ["writer"]),
    "rac_meta_port": (["rac_meta_port_test_w1l128", "rac_meta_port_test_w4l569"],
                      ["rac_meta_port_test_w1l128", "rac_meta_port_test_w4l569"], ["meta"]),
    "rac_axil_ctrl": (["rac_axil_ctrl_test_default"], ["rac_axil_ctrl_test_default"], ["axil"]),
    "rac_cmd_decoder": (["rac_cmd_decoder_test_s5c32", "rac_cmd_decoder_test_s8c16"],
                        ["rac_cmd_decoder_test_s5c32", "rac_cmd_decoder_test_s8c16"], []),
    "vc_join": VC_TB + (["vc_join"],),
    "vc_join_comb": VC_TB + (["vc_join"],),
    "vc_leq": VC_TB + (["vc_leq"],),
    "vc_leq_comb": VC_TB + (["vc_leq"],),
    "vc_epoch_leq": VC_TB + (["vc_epoch_leq"],),
    "vc_epoch_leq_comb": VC_TB + (["vc_epoch_leq"],),
    "vc_lanes_gt_comb": VC_TB + (["vc_leq"],),
    "vc_lane_sel_comb": VC_TB + (["vc_epoch_leq"],),
    "rac_first_one": VC_TB + (["vc_leq"],),
    "rac_pipe_reg": VC_TB + (["vc_join"],),
    # The engine's blocks: their proofs first (seconds, no build), then the
    # engine on the 4-slot model against DJIT+.
    "rac_line_status_comb": ([], [], ["line_status"]),
    "rac_victim_sel_comb": ([], [], ["victim_sel"]),
    "rac_repl_state": ([], [], ["repl_state"]),
    "rac_check_engine": ENGINE + ([],),
    "rac_engine_store": ENGINE + ([],),
    "rac_read_fwd": ENGINE + ([],),
    "rac_patch_comb": ENGINE + ([],),
    "rac_byte_check_comb": ENGINE + ([],),
    "rac_byte_rules_comb": ENGINE + ([],),
    # The kernel's glue: the kernel tests on the tiny models (four models to
    # build: the slowest plan, so only in the full campaign).
    "rac_kernel": (["kernel_tests"], ["kernel_tests --gtest_filter=KernelRareStates.*:*Tiny*:*Bus*:*Status*:*Capacity*"], []),
}
# Where a module's file is, when not in rtl/: the test-only VC units.
UNITS_DIR = os.path.join("tests", "rtl", "units")
MODULE_DIR = {m: UNITS_DIR for m in ("vc_join", "vc_leq", "vc_leq_comb", "vc_epoch_leq", "rac_pipe_reg")}


def module_path(root, mod):
    return os.path.join(root, MODULE_DIR.get(mod, "rtl"), mod + ".sv")


# Proofs run after the simulation tests; an engine block whose proof misses a
# mutant also runs the engine tests.
FALLBACK = {"rac_line_status_comb": ENGINE, "rac_victim_sel_comb": ENGINE, "rac_repl_state": ENGINE}

CMP = [("==", "!="), ("!=", "=="), (" >= ", " < "), (" < ", " >= "), (" > ", " <= ")]
SKIP_LINE = re.compile(
    r"^\s*(parameter|localparam|input|output|inout|logic|wire|reg|typedef|module|function|endfunction|"
    r"int|genvar|import|`include|`define|\)\s*;|for\s*\(|.*\bfor\s*\(int)")


# Mutants shown equivalent to the RTL (no input tells them apart), by module
# and the line before and after the mutation: left out of every run, after
# the sample is drawn (so the other mutants drawn stay the same), with the
# reason printed.
EQUIVALENT = {
    ("rac_cmd_reader", "if (hi_zero && lo_q < 9'(MaxBurst) && lo_at < 10'd64) burst_len = lo_q[6:0];",
     "if (hi_zero && lo_q < 9'(MaxBurst) && lo_at < 10'd65) burst_len = lo_q[6:0];"):
        "lo_at == 64 is lo_q == to_boundary; with lo_q < MaxBurst the boundary clip above already set "
        "burst_len to to_boundary, which is lo_q",
    ("rac_cmd_decoder", "assign idx_load = rst_i || (state_q == DIdle && start_i);",
     "assign idx_load = rst_i || (state_q == DIdle || start_i);"):
        "start_i comes only in DIdle (the decoder's StartWhenIdle contract), so the mutant adds loads of 0 "
        "in DIdle alone, and idx_q is not read in DIdle or DZero before the load at the next start",
}


def mutable_lines(path):
    """(line number, text) of the lines that may be mutated."""
    out = []
    in_cover = False
    in_macro = 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.rstrip("\n")
            if s.strip().startswith("`ifdef RAC_COVER"):
                in_cover = True
            if in_cover:
                if s.strip().startswith("`endif"):
                    in_cover = False
                continue
            code = s.split("//", 1)[0]
            if in_macro > 0 or "`RAC_" in code:
                in_macro += code.count("(") - code.count(")")
                in_macro = max(in_macro, 0)
                continue
            if not code.strip() or SKIP_LINE.match(code):
                continue
            out.append((n, s))
    return out


def mutants_of(path):
    """Every single-line mutant of a file: (id, line, op, old line, new line)."""
    base = os.path.basename(path)[:-3]
    result = []
    for n, s in mutable_lines(path):
        code, sep, comment = s.partition("//")
        cands = []
        for old, new in CMP:
            for m in re.finditer(re.escape(old), code):
                i = m.start()
                # '<=' / '>=' / '==' neighbours make another operator.
                if old.strip() in ("<", ">") and (code[i + len(old) - 1:i + len(old) + 1] in ("<=", ">=")):
                    continue
                if old in ("==", "!=") and (code[i - 1:i] in "=!<>" or code[i + 2:i + 3] == "="):
                    continue
                cands.append(("cmp", code[:i] + new + code[i + len(old):]))
        for old, new in (("&&", "||"), ("||", "&&")):
            for m in re.finditer(re.escape(old), code):
                i = m.start()
                cands.append(("logic", code[:i] + new + code[i + 2:]))
        m = re.search(r"\bif \(", code)
        if m:
            depth, j = 0, m.end() - 1
            while j < len(code):
                depth += {"(": 1, ")": -1}.get(code[j], 0)
                if depth == 0:
                    break
                j += 1
            if j < len(code):
                for const in ("1'b0", "1'b1"):
                    cands.append(("cond" + const[-1], code[:m.end()] + const + code[j:]))
        for m in re.finditer(r"\b(\d+)'d(\d+)\b", code):
            width, value = int(m.group(1)), int(m.group(2))
            padding = value == 0 and code[m.end():].lstrip().startswith(",")  # {N'd0, x}: a zero-extension
            if value + 1 < (1 << width) and not padding:
                cands.append(("offby1", code[:m.start(2)] + str(value + 1) + code[m.end(2):]))
        for k, (op, new_code) in enumerate(cands):
            new = new_code + sep + comment
            if new != s:
                result.append((f"{base}:{n}:{op}:{k}", n, op, s, new))
    return result


def modules(selected):
    names = selected or sorted(PLANS)
    for name in names:
        if name not in PLANS:
            sys.exit(f"mutants.py: no test plan for module '{name}' (modules: {', '.join(sorted(PLANS))})")
    return names


def run(cmd, cwd, timeout, log):
    """Exit status of cmd (124 on time-out), its output appended to log."""
    with open(log, "a") as out:
        out.write(f"$ {cmd}\n")
        out.flush()
        try:
            return subprocess.run(cmd, shell=True, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write("(timed out)\n")
            return 124


def sync_tree(src, dst):
    """dst := src (no .git, no build trees, not dst itself), copying only
    files that differ, so that the scratch build stays incremental from one
    campaign to the next."""
    skip = {".git", "build"}
    dst_abs = os.path.abspath(dst)

    def keep(root, d):
        path = os.path.join(root, d)
        return (d not in skip and not d.startswith("build-") and os.path.abspath(path) != dst_abs and
                not os.path.exists(os.path.join(path, "CMakeCache.txt")))

    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if keep(root, d)]
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for name in files:
            a, b = os.path.join(root, name), os.path.join(dst, rel, name)
            if not os.path.exists(b) or not filecmp.cmp(a, b, shallow=False):
                shutil.copy2(a, b)


def prepare(work, log):
    """A scratch copy of the source tree and a build of it, configured once."""
    tree, build = os.path.join(work, "src"), os.path.join(work, "build")
    sync_tree(SRC, tree)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        gen = "-G Ninja" if shutil.which("ninja") else ""
        if run(f"cmake -S {tree} -B {build} {gen} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRACEACCEL_TRACE=OFF",
               work, 600, log) != 0:
            sys.exit(f"mutants.py: configuring the scratch build failed (log: {log})")
    return tree, build


def try_mutant(tree, build, mod, mutant, timeout, log):
    """(outcome, killer): killed / survived / stillborn. mutant None: the
    unmutated RTL (the baseline, first stage only), which must survive."""
    targets, tests, proofs = PLANS[mod]
    path = module_path(tree, mod)
    with open(path) as f:
        lines = f.read().split("\n")
    original = "\n".join(lines)
    if mutant is not None:
        _, n, _, old, new = mutant
        assert lines[n - 1] == old
        lines[n - 1] = new
        with open(path, "w") as f:
            f.write("\n".join(lines))
    try:
        plan = [(targets, tests, proofs)]
        if mod in FALLBACK and mutant is not None:
            plan.append(FALLBACK[mod] + ([],))
        built = set()
        for targets_, tests_, proofs_ in plan:
            # Proofs without a build first when there are tests to build.
            for proof in proofs_:
                rc = run(f"sh {tree}/tests/formal/prove.sh {proof} {tree}/rtl {build}/mutant_proof", tree, timeout, log)
                if rc != 0:
                    return "killed", f"proof {proof}" + (" (timeout)" if rc == 124 else "")
            # One model at a time when each test has its own: a mutant the
            # first kills costs one model build.
            steps = list(zip(targets_, tests_)) if len(targets_) == len(tests_) else [(targets_, t) for t in tests_]
            for target, test in steps:
                todo = [t for t in ([target] if isinstance(target, str) else target) if t not in built]
                if todo:
                    rc = run(f"cmake --build {build} -j1 --target {' '.join(todo)}", tree, 3600, log)
                    if rc != 0:
                        return "stillborn", "build"
                    built.update(todo)
                rc = run(f"{build}/bin/{test} --gtest_brief=1", build, timeout, log)
                if rc != 0:
                    return "killed", test.split()[0] + (" (timeout)" if rc == 124 else "")
        return "survived", ""
    finally:
        with open(path, "w") as f:
            f.write(original)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["list", "run"])
    ap.add_argument("--module", action="append", default=[])
    ap.add_argument("--work", default=os.path.join(SRC, "build", "mutants"))
    ap.add_argument("--sample", type=int, default=0, help="mutants per module (0: all)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--min-killed", type=float, default=0.0)
    ap.add_argument("--test-timeout", type=int, default=300)
    ap.add_argument("--only", action="append", default=[],
                    help="just this mutant (its id as `list` prints it, e.g. rac_engine_store:252:cond1:1); repeatable")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip running the tests on the unmutated RTL first (when they run elsewhere anyway)")
    args = ap.parse_args()

    chosen = []
    for mod in modules(args.module):
        ms = mutants_of(module_path(SRC, mod))
        if args.sample:
            ms = random.Random(f"{args.seed}:{mod}").sample(ms, min(args.sample, len(ms)))
        for m in ms:
            if args.only and m[0] not in args.only:
                continue
            reason = EQUIVALENT.get((mod, m[3].strip(), m[4].strip()))
            if reason is None:
                chosen.append((mod, m))
            else:
                print(f"{m[0]}: left out, equivalent ({reason})", file=sys.stderr)
    if args.command == "list":
        for mod, (mid, n, op, old, new) in chosen:
            print(f"{mid}\t{op}\t{old.strip()}  ->  {new.strip()}")
        print(f"{len(chosen)} mutants", file=sys.stderr)
        return 0

    os.makedirs(args.work, exist_ok=True)
    log = os.path.join(args.work, "campaign.log")
    tree, build = prepare(args.work, log)
    # The tests must pass on the unmutated RTL, or every mutant would look killed.
    for mod in ([] if args.no_baseline else dict.fromkeys(mod for mod, _ in chosen)):
        outcome, killer = try_mutant(tree, build, mod, None, args.test_timeout, log)
        if outcome != "survived":
            sys.exit(f"mutants.py: the tests of {mod} fail on the unmutated RTL ({outcome}: {killer}; log: {log})")
    results = os.path.join(args.work, "results.tsv")
    counts = {"killed": 0, "survived": 0, "stillborn": 0}
    survivors = []
    with open(results, "w") as out:
        out.write("id\tmodule\toperator\toutcome\tkiller\tseconds\told\tnew\n")
        for i, (mod, m) in enumerate(chosen, 1):
            t0 = time.time()
            outcome, killer = try_mutant(tree, build, mod, m, args.test_timeout, log)
            secs = time.time() - t0
            counts[outcome] += 1
            if outcome == "survived":
                survivors.append(m)
            out.write(f"{m[0]}\t{mod}\t{m[2]}\t{outcome}\t{killer}\t{secs:.0f}\t{m[3].strip()}\t{m[4].strip()}\n")
            out.flush()
            print(f"[{i}/{len(chosen)}] {m[0]}: {outcome} {killer} ({secs:.0f} s)", flush=True)
    live = counts["killed"] + counts["survived"]
    pct = 100.0 * counts["killed"] / live if live else 100.0
    print(f"{counts['killed']} killed, {counts['survived']} survived, {counts['stillborn']} stillborn: "
          f"{pct:.1f} % of {live} built mutants killed (results: {results})")
    for m in survivors:
        print(f"survived: {m[0]}: {m[3].strip()}  ->  {m[4].strip()}")
    return 0 if pct + 1e-9 >= args.min_killed else 1


if __name__ == "__main__":
    sys.exit(main())
