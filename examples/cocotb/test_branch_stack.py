"""The branch stack (warpgen_branch_stack, default config: depth 4, 3 producer stages, 32-bit
PC, pc_increment 1, reset_pc 0) through the patent's worked example, Figs. 5-7, and its taken
twin. Every expected value is written here from the spec (docs/spec/branch_stack.md §3.3,
TC-06 and TC-07) and the port timing of docs/blocks/branch_stack.md; none is read from a run.

Condition codes are 4 bits, C N V Z. Stage EX0 pushes: cc_vld bit 0, cc_sop[1:0] = 10 (PU),
cc_val[3:0] = the code. The branch is BEZ at 0x40 with offset 0x10: a simple branch on the
Z bit (de_br_sel 0) taken when it is 1 (de_br_pol 1).
"""

import cocotb

from common import cycle, start

INPUTS = ["cc_vld", "cc_sop", "cc_val", "de_br_vld", "de_br_cmp", "de_br_sel", "de_br_pol", "de_br_f", "de_br_g",
          "de_br_op", "de_pc", "de_off", "ex_branch_t1", "ex_t1pc", "pc_hold", "err_clr"]
PU = 0b10
BEZ = dict(de_br_vld=1, de_br_cmp=0, de_br_sel=0, de_br_pol=1, de_pc=0x40, de_off=0x10)
NO_ERRORS = dict(err_ovf=0, err_udf=0, err_port=0, err_multi=0)


@cocotb.test()
async def figs_5_to_7_bez_not_taken(dut):
    """I1, I2, I3 push "0" (0001), "1" (1000), "2" (0010) in EX0; BEZ in DE reads R = "2" and
    S = "1", pops "2" (Fig. 7: [1,0,X,X]); Z of 0010 is 0, so it is not taken."""
    await start(dut, INPUTS)
    await cycle(dut, "T-3, I1 pushes 0001", dict(cc_cnt=0, cc_r_vld=0, cc_r=0, pc=0, npc=1),
                cc_vld=1, cc_sop=PU, cc_val=0b0001)
    await cycle(dut, "T-2, I2 pushes 1000", dict(cc_cnt=1, cc_r_vld=1, cc_r=0b0001, cc_s_vld=0, pc=1),
                cc_val=0b1000)
    await cycle(dut, "T-1, I3 pushes 0010", dict(cc_cnt=2, cc_r=0b1000, cc_s=0b0001, cc_s_vld=1, pc=2),
                cc_val=0b0010)
    await cycle(dut, "T, BEZ decoded", dict(cc_cnt=3, cc_r=0b0010, cc_s=0b1000, br_taken=0, br_target=0x50, pc=3),
                cc_vld=0, **BEZ)
    await cycle(dut, "T+1, [1,0,X,X]", dict(cc_cnt=2, cc_r=0b1000, cc_s=0b0001, branch_t0_q=0, pc=4, **NO_ERRORS),
                de_br_vld=0)
    await cycle(dut, "T+2, pc keeps counting", dict(cc_cnt=2, branch_t0_q=0, pc=5, npc=6))


@cocotb.test()
async def figs_5_to_7_bez_taken(dut):
    """TC-07: as above, but I3 pushes 0001: Z is 1, BEZ is taken to 0x40 + 0x10; T0 holds it
    at T+1 and the PC is the target from T+2."""
    await start(dut, INPUTS)
    await cycle(dut, "T-3, push 0001", dict(cc_cnt=0, pc=0), cc_vld=1, cc_sop=PU, cc_val=0b0001)
    await cycle(dut, "T-2, push 1000", dict(cc_cnt=1, pc=1), cc_val=0b1000)
    await cycle(dut, "T-1, push 0001", dict(cc_cnt=2, cc_r=0b1000, pc=2), cc_val=0b0001)
    await cycle(dut, "T, BEZ decoded", dict(cc_cnt=3, cc_r=0b0001, br_taken=1, br_target=0x50, pc=3), cc_vld=0, **BEZ)
    await cycle(dut, "T+1, T0 holds the branch", dict(cc_cnt=2, cc_r=0b1000, cc_s=0b0001, branch_t0_q=1, t0pc_q=0x50, pc=4),
                de_br_vld=0)
    await cycle(dut, "T+2, pc at the target", dict(branch_t0_q=0, pc=0x50, npc=0x51, **NO_ERRORS))
    await cycle(dut, "T+3", dict(pc=0x51))
