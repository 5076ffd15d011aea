"""Runs the cocotb example testbenches on warpgen's Verilog in Icarus Verilog (`make cocotb`).

Generates the branch stack and the scoreboard at the default config with the warpgen program
(target/release/warpgen, or the one $WARPGEN names) into build/cocotb/rtl, then runs
test_branch_stack.py and test_scoreboard.py through cocotb's Python runner. Exit status 0 when
every test passed, 1 otherwise. Needs cocotb (make deps puts it in .venv/) and iverilog.
"""

import os
import subprocess
import sys
from pathlib import Path

from cocotb_tools.check_results import get_results
from cocotb_tools.runner import get_runner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BUILD = ROOT / "build" / "cocotb"
# (block, cocotb test module): each block is its own top module.
RUNS = [("branch_stack", "test_branch_stack"), ("scoreboard", "test_scoreboard")]


def main() -> int:
    warpgen = os.environ.get("WARPGEN", str(ROOT / "target" / "release" / "warpgen"))
    rtl = BUILD / "rtl"
    blocks = [a for block, _ in RUNS for a in ("--block", block)]
    subprocess.run([warpgen, "generate", *blocks, "--out", str(rtl)], check=True, stdout=subprocess.DEVNULL)
    runner = get_runner("icarus")
    passed = failed = 0
    for block, module in RUNS:
        top = f"warpgen_{block}"
        build = BUILD / block
        runner.build(sources=[rtl / f"{top}.v"], hdl_toplevel=top, build_dir=build, always=True, timescale=("1ns", "1ps"))
        xml = runner.test(test_module=module, hdl_toplevel=top, test_dir=HERE, build_dir=build, results_xml=str(build / "results.xml"))
        tests, fails = get_results(Path(xml))
        if tests == 0:
            print(f"cocotb: {module} ran no test", file=sys.stderr)
            fails = 1
        passed += tests - fails
        failed += fails
    print(f"cocotb: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
