"""warpgen's replay timing in cocotb: in each cycle the inputs change after the falling clock
edge, the outputs are read once they have settled, then the rising edge updates the registers."""

from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly


async def start(dut, inputs):
    """Starts a 10 ns clock, drives every input of `inputs` to 0 and `reset` to 1 for one
    rising edge (warpgen's replay starts every input at 0)."""
    Clock(dut.clock, 10, unit="ns").start(start_high=False)
    await FallingEdge(dut.clock)
    for name in inputs:
        getattr(dut, name).value = 0
    dut.reset.value = 1
    await FallingEdge(dut.clock)
    dut.reset.value = 0


async def cycle(dut, label, expect, **inputs):
    """One cycle, called `label` in a failure: drives `inputs` (the others keep their values),
    lets them settle, checks every output named in `expect` against its value, then lets the
    rising edge pass."""
    for name, value in inputs.items():
        getattr(dut, name).value = value
    await ReadOnly()
    got = {name: int(getattr(dut, name).value) for name in expect}
    wrong = {name: f"{got[name]:#x}, expected {value:#x}" for name, value in expect.items() if got[name] != value}
    assert not wrong, f"{label}: {wrong}"
    await FallingEdge(dut.clock)

