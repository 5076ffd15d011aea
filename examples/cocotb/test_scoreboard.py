"""The scoreboard (warpgen_scoreboard, default config: 4 thread groups, 8 trackers of 4 bits,
2 completion ports, max_count 15) through short completion scenarios. Every expected value is
written here from the spec's test cases (docs/spec/scoreboard.md §6.5: T02, T10, T14) and the
port timing of docs/blocks/scoreboard.md; none is read from a run.

Packing at this config: cpl_tg port p at [2p +: 2], cpl_trk port p at [3p +: 3]; counter
(g, t) is cnt_flat[(8g + t)*4 +: 4]; trk_zero bit 8g + t; tg_idle bit g.
"""

import cocotb

from common import cycle, start

INPUTS = ["clr_valid", "clr_tg", "iss_valid", "iss_tg", "iss_dep_mask", "iss_trk_en", "iss_trk", "iss_nxt_mask",
          "cpl_valid", "cpl_tg", "cpl_trk", "chk_tg", "chk_mask", "br_tg", "br_mask_a", "br_mask_b"]


def cnt(g, t, value):
    """cnt_flat with counter (g, t) at `value` and every other counter 0."""
    return value << ((8 * g + t) * 4)


@cocotb.test()
async def fig4_load_completes_then_dependent_fires(dut):
    """T02: a LOAD on tracker 0 of group 0 fires, a MOV that does not depend on it fires, an
    ADD that depends on tracker 0 waits until the cycle after the load's completion."""
    await start(dut, INPUTS)
    await cycle(dut, "c0 LOAD", dict(iss_ready=1, iss_fire=1, cnt_flat=0, tg_idle=0b1111),
                iss_valid=1, iss_tg=0, iss_trk_en=1, iss_trk=0, iss_dep_mask=0)
    await cycle(dut, "c1 MOV", dict(iss_ready=1, iss_fire=1, cnt_flat=cnt(0, 0, 1), tg_idle=0b1110), iss_trk_en=0)
    for c in range(2, 10):
        await cycle(dut, f"c{c} ADD waits", dict(iss_ready=0, iss_fire=0, cnt_flat=cnt(0, 0, 1)), iss_dep_mask=0x01)
    await cycle(dut, "c10 ADD waits, the load completes", dict(iss_ready=0, iss_fire=0, cnt_flat=cnt(0, 0, 1)),
                cpl_valid=0b01, cpl_tg=0, cpl_trk=0)
    await cycle(dut, "c11 ADD fires", dict(iss_ready=1, iss_fire=1, cnt_flat=0, tg_idle=0b1111, err_underflow=0),
                cpl_valid=0)


@cocotb.test()
async def two_ports_complete_at_once_then_underflow(dut):
    """T10 and T14: two loads on tracker 3 of group 2; both completion ports complete them in
    one cycle (the counter is 0 after it); then a completion on an idle tracker sets the
    sticky err_underflow and the counter stays 0."""
    await start(dut, INPUTS)
    for n in range(2):
        await cycle(dut, f"load {n + 1}", dict(iss_fire=1, cnt_flat=cnt(2, 3, n)),
                    iss_valid=1, iss_tg=2, iss_trk_en=1, iss_trk=3)
    await cycle(dut, "both ports complete (2, 3)", dict(cnt_flat=cnt(2, 3, 2), tg_idle=0b1011, err_underflow=0),
                iss_valid=0, cpl_valid=0b11, cpl_tg=(2 << 2) | 2, cpl_trk=(3 << 3) | 3)
    await cycle(dut, "counter back to 0", dict(cnt_flat=0, tg_idle=0b1111, err_underflow=0),
                cpl_valid=0b01, cpl_tg=1, cpl_trk=6)
    await cycle(dut, "underflow, sticky", dict(cnt_flat=0, err_underflow=1), cpl_valid=0)
    await cycle(dut, "still set", dict(err_underflow=1))
