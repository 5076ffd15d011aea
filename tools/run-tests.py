#!/usr/bin/env python3
"""Runs every test of the workspace, one process per test, on every core: what `make test` runs.

`cargo test` runs its test binaries one after another, each test of a binary on a thread of
that binary. A binary whose last test is long leaves the other core idle, and the next binary
waits for it; on 2 cores that cost `make test` about a fifth of its time (docs/build-time.md).
This runner builds the tests with cargo, lists every test of every binary, and runs them as
one pool: each test in its own process (`BINARY --exact NAME`, in its package's directory, as
cargo runs it), the longest first (from the measured times below), as many at once as there
are cores. Then the doc tests, through cargo. Each test's wall and processor time (its own
and that of every tool it ran) is printed when it ends, a failing test's output too; the
summary names every failure and the exit status is 1 if there was one.

Usage: tools/run-tests.py [--jobs N] [--also NAME=COMMAND]... [cargo test options...] [-- FILTER]
A FILTER keeps the tests whose `binary::name` contains it. `--also` adds a shell command to the
pool (run in the current directory, its output printed when it ends): `make test` adds the
cocotb example and the QoR gates, so that they too share the cores with the tests.
"""

import json
import os
import subprocess
import sys
import threading
import time

# The cargo to run (make passes its own).
CARGO = os.environ.get("CARGO", "cargo")

# Processor seconds each long test took on this project's 2-core machine, two tests at a time,
# from an empty Verilator model cache (a fresh clone of 6d4c545; `tools/run-tests.py` prints
# every test's times; update these from its output when a test's cost changes). Processor
# time, not wall time: a test's wall time also counts the minutes it waits for a model another
# test is building. Only the order depends on them: the longest start first, and tests not
# listed run after these, in cargo's order.
MEASURED = {
    "task_combiner::largest_entries_lockstep": 347,
    "lint_every_key::every_key_at_each_edge_lints_clean": 176,
    "prove::global_spreader_default_proves": 130,
    "prove::task_combiner_default_proves": 121,
    "prove::thread_merge_proves": 93,
    "task_combiner::directed_cases_pass_on_the_rtl": 88,
    "qor-ice40-hx8k": 59,
    "task_combiner::lint_and_synth_every_tested_config": 58,
    "thread_merge::directed_cases_pass_on_the_rtl": 57,
    "second_simulator::task_combiner_replays_the_same_in_both": 55,
    "global_spreader::directed_cases_pass_on_the_rtl": 51,
    "scoreboard::directed_cases_pass_on_the_rtl": 46,
    "scoreboard::lint_and_synth_largest_config": 44,
    "prove::global_spreader_proves": 43,
    "prove::thread_merge_candidates_prove": 48,
    "prove::task_combiner_hold_producers_prove": 40,
    "prove::task_combiner_dep_tags_prove": 22,
    "second_simulator::an_exported_testbench_passes_on_the_block_and_fails_on_a_broken_copy": 39,
    "second_simulator::thread_merge_replays_the_same_in_both": 35,
    "prove::thread_merge_cross_primitive_proves": 35,
    "prove::task_combiner_proves": 34,
    "thread_merge::lint_largest_config": 33,
    "scoreboard::lint_and_synth_every_tested_config": 33,
    "prove::scoreboard_proves": 33,
    "cache::second_identical_build_runs_no_verilator": 33,
    "prove::branch_stack_perf_counters_prove": 32,
    "global_spreader::lint_and_synth_every_tested_config": 32,
    "scoreboard::largest_groups_lockstep": 30,
    "prove::branch_stack_thread_groups_prove": 30,
    "second_simulator::global_spreader_replays_the_same_in_both": 29,
    "task_combiner::lockstep_perf_counters": 28,
    "prove::branch_stack_proves": 25,
    "second_simulator::scoreboard_replays_the_same_in_both": 24,
    "prove::global_spreader_perf_counters_prove": 24,
    "second_simulator::the_examples_replay_the_same_in_both": 22,
    "prove::task_combiner_perf_counters_prove": 20,
    "branch_stack::directed_cases_pass_on_the_rtl": 20,
}


def cargo_test_binaries(cargo_args):
    """Builds the test targets; returns (name, executable, package directory) for each."""
    cmd = [CARGO, "test", "--no-run", "--message-format=json-render-diagnostics", *cargo_args]
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"run-tests: `{' '.join(cmd)}` failed (exit {proc.returncode})")
    bins = []
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["profile"]["test"]:
            bins.append((msg["target"]["name"], msg["executable"], os.path.dirname(msg["manifest_path"])))
    return bins


def list_tests(name, exe, cwd):
    """The tests of one binary, in its own order."""
    out = subprocess.run([exe, "--list", "--format", "terse"], cwd=cwd, stdout=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit(f"run-tests: listing the tests of {exe} failed (exit {out.returncode})")
    return [l[: -len(": test")] for l in out.stdout.splitlines() if l.endswith(": test")]


def main():
    jobs, also, args, filt = os.cpu_count() or 2, [], [], None
    rest = sys.argv[1:]
    while rest:
        arg = rest.pop(0)
        if arg == "--jobs" and rest:
            jobs = int(rest.pop(0))
        elif arg == "--also" and rest and "=" in rest[0]:
            also.append(tuple(rest.pop(0).split("=", 1)))
        elif arg == "--":
            filt = rest.pop(0) if rest else None
            rest = []
        else:
            args.append(arg)
    start = time.monotonic()
    # A job: (name, argv, cwd, whether its output is printed when it passes).
    queue = [(name, ["sh", "-c", cmd], os.getcwd(), True) for name, cmd in also if filt is None or filt in name]
    for name, exe, cwd in cargo_test_binaries(args):
        for test in list_tests(name, exe, cwd):
            full = f"{name}::{test}"
            if filt is None or filt in full:
                queue.append((full, [exe, "--exact", test, "--test-threads", "1"], cwd, False))
    order = {full: i for i, (full, *_) in enumerate(queue)}
    queue.sort(key=lambda job: (-MEASURED.get(job[0], 0), order[job[0]]))
    print(f"run-tests: {len(queue)} tests and commands, {jobs} at a time", flush=True)

    lock = threading.Lock()
    results = []

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                full, argv, cwd, show = queue.pop(0)
            t0 = time.monotonic()
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
            )
            out = proc.stdout.read()
            proc.stdout.close()
            # wait4 gives the processor time of the test and of every process it waited for
            # (Verilator, the C++ compiler, Yosys): the cost that the pool's cores share.
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            secs = time.monotonic() - t0
            cpu = usage.ru_utime + usage.ru_stime
            ok = proc.returncode == 0
            with lock:
                results.append((full, ok, secs, cpu))
                print(f"{'ok  ' if ok else 'FAIL'} {secs:7.1f} s {cpu:7.1f} s cpu  {full}", flush=True)
                if show or not ok:
                    print(f"---- {full} (exit {proc.returncode}) ----\n{out}---- end of {full} ----", flush=True)

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    doc_ok = True
    if filt is None:
        cmd = [CARGO, "test", "--doc", *args]
        print("$ " + " ".join(cmd), flush=True)
        doc_ok = subprocess.run(cmd).returncode == 0

    failed = [full for full, ok, *_ in results if not ok]
    slowest = sorted(results, key=lambda r: -r[2])[:10]
    print("\nrun-tests: slowest (wall, processor):")
    for full, _, secs, cpu in slowest:
        print(f"  {secs:7.1f} s {cpu:7.1f} s  {full}")
    print(f"run-tests: the tests' processor time summed to {sum(r[3] for r in results):.0f} s")
    print(
        f"run-tests: {len(results) - len(failed)} passed, {len(failed)} failed"
        f"{'' if doc_ok else ', doc tests failed'}; {time.monotonic() - start:.0f} s with the build"
    )
    for full in failed:
        print(f"  FAILED {full}")
    sys.exit(0 if not failed and doc_ok else 1)


if __name__ == "__main__":
    main()
