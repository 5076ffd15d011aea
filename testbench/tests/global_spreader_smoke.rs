//! Smoke checks of the global_spreader RTL in Verilator, at the default config, with
//! expected values written by hand from contracts/global_spreader.md (§3 ports, §4 cycle
//! rules R1-R13, §7 test cases). They cover a vertex dispatch with its table effects, the
//! triangle/pixel locality path with same-cycle forwarding, refusal and back-pressure, a
//! malformed packet and the register interface. The model, the directed spec cases and
//! random lockstep live elsewhere (testbench/src/global_spreader/).

use warpgen_testbench::smoke::Bench;

/// The default-config RTL, out of reset. `set` then `get` shows cycle m's outputs; `step`
/// is the edge ending m.
struct Gs(Bench);

warpgen_testbench::bench_wrapper!(Gs, 0);

impl Gs {
    fn new() -> Gs {
        Gs(Bench::out_of_reset("global_spreader", &[], 1))
    }

    /// A register read: the access in one cycle, its data in the next (R11).
    fn read(&mut self, addr: u64) -> u64 {
        self.set("cfg_valid", 1);
        self.set("cfg_we", 0);
        self.set("cfg_addr", addr);
        self.step();
        self.set("cfg_valid", 0);
        self.eval();
        assert_eq!(self.get("cfg_rvalid"), 1, "read of {addr:#x}");
        self.get("cfg_rdata")
    }

    fn write(&mut self, addr: u64, data: u64) {
        self.set("cfg_valid", 1);
        self.set("cfg_we", 1);
        self.set("cfg_addr", addr);
        self.set("cfg_wdata", data);
        self.step();
        self.set("cfg_valid", 0);
        self.set("cfg_we", 0);
        self.eval();
        assert_eq!(self.get("cfg_rvalid"), 0, "a write returns no data");
    }

    /// Offers an indexed or non-indexed vertex packet this cycle.
    fn vertex(&mut self, indexed: bool, base: u64, count: u64, size: u64, src: u64) {
        self.set("vp_valid", 1);
        self.set("vp_indexed", indexed as u64);
        self.set("vp_base_idx", base);
        self.set("vp_count", count);
        self.set("vp_size", size);
        self.set("vp_src_addr", src);
        self.eval();
    }

    /// Answers the request of this cycle: EU `eu` acknowledges with entity `ent`.
    fn ack(&mut self, eu: usize, ent: u64) {
        self.set("ar_ready", 1 << eu);
        self.set("ar_ent", ent << (8 * eu));
        self.eval();
    }

    fn quiet(&mut self) {
        for p in ["vp_valid", "tp_valid", "xp_valid", "pp_valid", "ar_ready", "ar_refuse", "ar_ent"] {
            self.set(p, 0);
        }
        self.eval();
    }
}

#[test]
fn reset_state_and_registers() {
    let mut gs = Gs::new();
    // TC-01: every channel ready (EN), nothing requested, 5 EUs available.
    for p in ["vp_ready", "tp_ready", "xp_ready", "pp_ready"] {
        assert_eq!(gs.get(p), 1, "{p}");
    }
    assert_eq!((gs.get("busy"), gs.get("stall"), gs.get("ar_valid")), (0, 0, 0));
    assert_eq!(gs.get("eu_avail_cnt"), 5);
    assert_eq!(gs.get("cfg_rvalid"), 0);
    assert_eq!(gs.read(0x000), 0x3, "CTRL: EN, LOCALITY_EN");
    assert_eq!(gs.read(0x001), 0x1f, "EU_ENABLE");
    assert_eq!(gs.read(0x100 + 32 * 2 + 2), 2, "PRIO[PIX][2]");
    assert_eq!(gs.read(0x100 + 32 * 3 + 4), 4, "PRIO[PATCH][4]");
    assert_eq!(gs.read(0x105), 0, "PRIO[VTX][5]: s >= N_EU reads 0");
    assert_eq!(gs.read(0x044), 64, "FREE_RES[4]");
    assert_eq!(gs.read(0x084), 256, "FREE_EDT[4]");
    assert_eq!(gs.read(0x008 + 2), 0x1f, "DED_MASK[PIX]");
    assert_eq!(gs.read(0x3ff), 0, "unmapped");
    // EDT_TOTAL stores min(wdata, 2^ENT_W) and sets FREE_EDT; RES_TOTAL sets FREE_RES.
    gs.write(0x061, 1000);
    assert_eq!(gs.read(0x061), 256);
    gs.write(0x061, 3);
    assert_eq!((gs.read(0x061), gs.read(0x081)), (3, 3));
    gs.write(0x022, 0xfff5);
    assert_eq!((gs.read(0x022), gs.read(0x042)), (0xff5, 0xff5), "low RES_W bits stored");
    assert_eq!(gs.field("st_free_res", 2 * 12, 12), 0xff5);
    // PRIO stores PRIO_W = 4 bits; EU_ENABLE N_EU bits; eu_avail_cnt follows EU_ENABLE.
    gs.write(0x100, 0xfe);
    assert_eq!(gs.read(0x100), 0xe);
    gs.write(0x001, 0xff_ff06);
    assert_eq!(gs.read(0x001), 0x06);
    assert_eq!(gs.get("eu_avail_cnt"), 2);
    // CTRL.EN = 0: no channel is ready.
    gs.write(0x000, 0x2);
    assert_eq!((gs.get("vp_ready"), gs.get("xp_ready")), (0, 0));
}

#[test]
fn vertex_dispatch_and_its_effects() {
    let mut gs = Gs::new();
    // TC-02: indexed vertex packet, base 0, count 8, size 4: transfer t0, request t0+1.
    gs.vertex(true, 0, 8, 4, 0xabcd);
    assert_eq!(gs.get("vp_ready"), 1);
    gs.step();
    gs.quiet();
    assert_eq!(gs.get("ar_valid"), 0b00001, "EU0, first in PRIO[VTX]");
    assert_eq!((gs.get("ar_type"), gs.get("ar_footprint"), gs.get("ar_copy_size")), (0, 4, 4));
    assert_eq!((gs.get("ar_src_addr"), gs.get("ar_vcount"), gs.get("ar_base_idx")), (0xabcd, 8, 0));
    assert_eq!((gs.get("busy"), gs.get("stall"), gs.get("st_slot_valid")), (1, 0, 0b0001));
    gs.ack(0, 7);
    assert_eq!(gs.get("vp_ready"), 1, "the slot's request is acked this cycle");
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("ar_valid"), gs.get("busy")), (0, 0));
    assert_eq!(gs.field("st_free_res", 0, 12), 60);
    assert_eq!(gs.field("st_free_edt", 0, 9), 255);
    assert_eq!(gs.field("st_vdt_valid", 0, 1), 1, "VDT slot 0");
    assert_eq!(gs.read(0x200), 1, "PEND[0][VTX]");
    assert_eq!(gs.read(0x180), 1, "ALLOC_CNT[0][VTX]");
    assert_eq!(gs.read(0x002), 0, "AUTO_IDX: indexed packets leave it");
    // TC-03: AUTO_IDX <- 0x40; a non-indexed packet (base field ignored) takes it.
    gs.write(0x002, 0x47);
    assert_eq!(gs.read(0x002), 0x40, "low log2 VGRP bits written as 0");
    gs.vertex(false, 0xdead, 8, 4, 1);
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("ar_valid"), gs.get("ar_base_idx")), (0b00001, 0x40));
    gs.ack(0, 8);
    gs.step();
    gs.quiet();
    assert_eq!(gs.read(0x002), 0x48);
    assert_eq!(gs.field("st_vdt_valid", 8, 1), 1, "VDT slot 8");
    assert_eq!(gs.field("st_free_res", 0, 12), 56);
    // TC-20: the same slot with another tag is blocked until released.
    gs.vertex(true, 0x800, 8, 4, 2);
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("ar_valid"), gs.get("busy"), gs.get("stall")), (0, 1, 1));
    gs.set("vr_valid", 1); // EU0 releases slot 0
    gs.eval();
    gs.step();
    gs.set("vr_valid", 0);
    gs.eval();
    assert_eq!(gs.get("ar_valid"), 1, "release in r, request in r+1");
    assert_eq!(gs.get("err_release"), 0);
    // TC-31: releasing an invalid entry sets err_release.
    gs.set("vr_valid", 1 << 3);
    gs.set("vr_slot", 77 << (3 * 8));
    gs.step();
    gs.set("vr_valid", 0);
    gs.eval();
    assert_eq!(gs.get("err_release"), 1);
}

#[test]
fn triangle_and_pixel_locality() {
    let mut gs = Gs::new();
    // PRIO[VTX] = 2, 0, 1, 3, 4: vertex group 0 goes to EU2 (TC-08).
    for (s, e) in [2u64, 0, 1, 3, 4].iter().enumerate() {
        gs.write(0x100 + s as u64, *e);
    }
    gs.vertex(true, 0, 3, 4, 10);
    gs.step();
    gs.quiet();
    assert_eq!(gs.get("ar_valid"), 0b00100);
    // The vertex is acked in the cycle the triangle (0, 1, 2), PrID 5 transfers: the
    // triangle's VDT lookup sees the write of that edge (forwarding), no bubble.
    gs.ack(2, 9);
    gs.set("tp_valid", 1);
    gs.set("tp_indexed", 1);
    gs.set("tp_vidx", 0 | (1 << 16) | (2 << 32));
    gs.set("tp_prid", 5);
    gs.set("tp_size", 2);
    gs.set("tp_src_addr", 11);
    gs.eval();
    assert_eq!(gs.get("tp_ready"), 1);
    gs.step();
    gs.quiet();
    assert_eq!(gs.get("ar_valid"), 0b00100, "home EU2 although PRIO[TRI] starts with EU0");
    assert_eq!((gs.get("ar_type"), gs.get("ar_vcount"), gs.get("ar_prid"), gs.get("ar_footprint")), (1, 3, 5, 2));
    assert_eq!(gs.get("ar_ref_valid"), 0b111);
    assert_eq!(gs.get("ar_ref_eu"), 2 | (2 << 3) | (2 << 6));
    assert_eq!(gs.get("ar_ref_ent"), 9 | (9 << 8) | (9 << 16));
    assert_eq!(gs.get("ar_ref_elem"), 0 | (1 << 3) | (2 << 6));
    assert_eq!((gs.get("ar_ref_grp"), gs.get("ar_global_ref")), (0, 0));
    gs.ack(2, 4);
    gs.step();
    gs.quiet();
    assert_eq!(gs.field("st_pt_valid", 5, 1), 1, "PT[5]");
    // TC-11: a pixel of triangle 5 goes to the triangle's EU with its entity.
    gs.set("xp_valid", 1);
    gs.set("xp_tri_id", 5);
    gs.set("xp_mask", 0x00ff);
    gs.set("xp_last", 1);
    gs.set("xp_size", 1);
    gs.set("xp_src_addr", 12);
    gs.eval();
    gs.step();
    gs.quiet();
    assert_eq!(gs.get("ar_valid"), 0b00100);
    assert_eq!((gs.get("ar_type"), gs.get("ar_vcount"), gs.get("ar_prid"), gs.get("ar_pix_mask")), (2, 0, 5, 0xff));
    assert_eq!((gs.get("ar_ref_valid"), gs.get("ar_ref_eu"), gs.get("ar_ref_ent")), (0b001, 2, 4));
    assert_eq!((gs.get("ar_ref_elem"), gs.get("ar_global_ref")), (0, 0));
    gs.ack(2, 5);
    gs.step();
    gs.quiet();
    assert_eq!(gs.field("st_pt_valid", 5, 1), 0, "the last pixel releases PT[5]");
    // A pixel without its triangle: no reference, PRIO[PIX] order, err_pt_miss after the ack.
    gs.set("xp_valid", 1);
    gs.set("xp_last", 0);
    gs.eval();
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("ar_valid"), gs.get("ar_ref_valid"), gs.get("ar_ref_eu")), (0b00001, 0, 0));
    assert_eq!(gs.get("err_pt_miss"), 0);
    gs.ack(0, 1);
    gs.step();
    gs.quiet();
    assert_eq!(gs.get("err_pt_miss"), 1);
    assert_eq!(gs.read(0x003) >> 2, 0b00010, "STATUS err bits");
}

#[test]
fn refusal_and_back_pressure() {
    let mut gs = Gs::new();
    gs.vertex(true, 0, 8, 4, 20);
    gs.step();
    // A second packet waits while the first is held (TC-17): same request every cycle.
    gs.vertex(true, 8, 8, 4, 21);
    for _ in 0..3 {
        assert_eq!((gs.get("ar_valid"), gs.get("ar_src_addr"), gs.get("vp_ready")), (0b00001, 20, 0));
        gs.step();
    }
    // TC-12: EU0 refuses; the next request goes to EU1; EU0 is not debited.
    gs.set("ar_refuse", 1);
    gs.eval();
    assert_eq!(gs.get("vp_ready"), 0, "a refusal does not free the slot");
    gs.step();
    gs.set("ar_refuse", 0);
    gs.eval();
    assert_eq!((gs.get("ar_valid"), gs.get("ar_src_addr")), (0b00010, 20));
    gs.ack(1, 3);
    assert_eq!(gs.get("vp_ready"), 1, "acked: the waiting packet transfers now");
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("ar_valid"), gs.get("ar_src_addr")), (0b00001, 21), "a new packet starts with an empty mask");
    assert_eq!(gs.field("st_free_res", 0, 12), 64);
    assert_eq!(gs.field("st_free_res", 12, 12), 60);
    assert_eq!(gs.read(0x0c0), 1, "NACK_CNT[0]");
    // Three cycles of back-pressure with busy && no grant? No: the request was presented.
    assert_eq!(gs.read(0x004), 0, "STALL_CNT");
}

#[test]
fn malformed_packets_are_dropped() {
    let mut gs = Gs::new();
    // TC-25: an indexed vertex packet with base 3.
    gs.vertex(true, 3, 8, 4, 30);
    assert_eq!(gs.get("vp_ready"), 1);
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("err_malformed"), gs.get("ar_valid"), gs.get("busy")), (1, 0, 0));
    assert_eq!(gs.read(0x003), 0x10);
    gs.write(0x003, 0x10);
    assert_eq!(gs.get("err_malformed"), 0);
    // Count 0 and count above VGRP; an indexed patch base not a multiple of 16 (TC-30).
    gs.vertex(true, 0, 9, 4, 31);
    gs.step();
    gs.quiet();
    assert_eq!((gs.get("err_malformed"), gs.get("busy")), (1, 0));
    gs.write(0x003, 0x7c);
    gs.set("pp_valid", 1);
    gs.set("pp_indexed", 1);
    gs.set("pp_base_idx", 8);
    gs.step();
    gs.quiet();
    gs.set("pp_valid", 0);
    gs.eval();
    assert_eq!((gs.get("err_malformed"), gs.get("busy")), (1, 0));
}
