//! Parts 5 and 6 of the controller's rules (only with `perf_counters`; without it every loop below is
//! empty and the part emits nothing): the events of rule G1 (docs/blocks/global_spreader.md,
//! docs/perf.md) into the shared counter bank [`crate::perf::PerfBank`], from this cycle's
//! registered state and inputs. `err_clr` (rule G2) is applied in part 3, beside the W1C clear.

use super::*;

// The bank's clock, clear (reset | perf_clr), perf_sel and perf_val: part 6.
crate::perf::perf_wiring!([] Ctl, 6);

impl hdl::Part<5> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.perf.len() {
            // 0-3: a packet of type 0 VTX, 1 TRI, 2 PIX, 3 PATCH is dispatched (its request acked).
            self.perf[i].ev[0].next = self.a_vtx.val();
            self.perf[i].ev[1].next = self.a_tri.val();
            self.perf[i].ev[2].next = self.a_pix.val();
            self.perf[i].ev[3].next = self.a_patch.val();
            // 4-7 stall_<type>: the type's channel refuses a valid packet. 8 stall_blocked, 9
            // stall_no_eu: some channel offers a packet while its slot holds one that is not granted
            // and is blocked (R4) / is not blocked and has no selection (R6).
            self.perf[i].ev[4].next = false;
            self.perf[i].ev[5].next = false;
            self.perf[i].ev[6].next = false;
            self.perf[i].ev[7].next = false;
            self.perf[i].ev[8].next = false;
            self.perf[i].ev[9].next = false;
            for k in 0..self.occ_q.len() {
                self.pblk[k].next = (self.is_vtx[k].val() & self.vtx_blk.val())
                    | (self.is_patch[k].val() & self.patch_blk.val())
                    | (self.is_tri[k].val() & self.tri_blk.val());
                // R14: a pixel while the reorder buffer is full is blocked too (`pixel_reorder`).
                for j in 0..self.pix_blocked.len() {
                    self.pblk[k].next = self.pblk[k].val() | (self.is_pix[k].val() & self.pix_blocked[j].val());
                }
                if self.c_valid[k].val() & !self.c_ready[k].val() {
                    if self.is_vtx[k].val() {
                        self.perf[i].ev[4].next = true;
                    }
                    if self.is_tri[k].val() {
                        self.perf[i].ev[5].next = true;
                    }
                    if self.is_pix[k].val() {
                        self.perf[i].ev[6].next = true;
                    }
                    if self.is_patch[k].val() {
                        self.perf[i].ev[7].next = true;
                    }
                }
                if self.c_valid[k].val() & self.occ_q[k].q.val() & !self.gnt_l[k].val() {
                    if self.pblk[k].val() {
                        self.perf[i].ev[8].next = true;
                    } else if !self.found[k].val() {
                        self.perf[i].ev[9].next = true;
                    }
                }
            }
            // 10 credit, 11 release: some EU returns a credit / releases a table entry.
            self.perf[i].ev[10].next = self.cr_valid[i].val().any();
            self.perf[i].ev[11].next = (self.rel_valid[0].val() | self.rel_valid[1].val()).any();
            // 12-16 err_<flag>_ev: what sets the flag at this edge (part 3).
            self.perf[i].ev[12].next = false;
            for j in 0..self.tidx_q.len() {
                if self.a_tri.val() & self.tidx_q[j].q.val()
                    & !(self.ar_ref_valid[0].val() & self.ar_ref_valid[1].val() & self.ar_ref_valid[2].val())
                {
                    self.perf[i].ev[12].next = true;
                }
            }
            self.perf[i].ev[13].next = false;
            for _j in 0..self.pix_hit.len() {
                if self.a_pix.val() & !self.ar_ref_valid[0].val() {
                    self.perf[i].ev[13].next = true;
                }
            }
            self.perf[i].ev[14].next = self.mal_set.val();
            self.perf[i].ev[15].next = self.credit_err[0].val() | self.credit_err[1].val();
            self.perf[i].ev[16].next = false;
            for j in 0..self.release_err.len() {
                if self.release_err[j].val() {
                    self.perf[i].ev[16].next = true;
                }
            }
        }
    }
}
