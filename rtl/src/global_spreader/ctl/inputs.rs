//! Part 0 of the controller's rules: clocks, the EU masks, the type-specific inputs and the
//! triangle references.

use super::*;

impl hdl::Part<0> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Clocks.
        self.en_q.clock.next = self.clock.val();
        self.loc_q.clock.next = self.clock.val();
        self.yld_q.clock.next = self.clock.val();
        self.sticky_q.clock.next = self.clock.val();
        self.e_vdt.clock.next = self.clock.val();
        self.e_pt.clock.next = self.clock.val();
        self.e_mal.clock.next = self.clock.val();
        self.e_cred.clock.next = self.clock.val();
        self.e_rel.clock.next = self.clock.val();
        self.stall_cnt.clock.next = self.clock.val();
        self.rvalid_q.clock.next = self.clock.val();
        self.rdata_q.clock.next = self.clock.val();

        // --- EU masks.
        self.en_m.next = self.zero32.val();
        self.nz_m.next = self.zero32.val();
        self.rdy_m.next = self.zero32.val();
        self.rfs_m.next = self.zero32.val();
        for e in 0..self.ar_ready.len() {
            self.eu_en_q[e].clock.next = self.clock.val();
            self.sel_q[e].clock.next = self.clock.val();
            self.rej_cnt[e].clock.next = self.clock.val();
            if self.eu_en_q[e].q.val() {
                self.en_m.next = self.en_m.val() | self.w32[e].val();
            }
            if self.edt_nz[e].val() {
                self.nz_m.next = self.nz_m.val() | self.w32[e].val();
            }
            if self.ar_ready[e].val() {
                self.rdy_m.next = self.rdy_m.val() | self.w32[e].val();
            }
            if self.ar_refuse[e].val() {
                self.rfs_m.next = self.rfs_m.val() | self.w32[e].val();
            }
        }
        for k in 0..self.occ_q.len() {
            self.occ_q[k].clock.next = self.clock.val();
            self.gnt_q[k].clock.next = self.clock.val();
            self.ded_m[k].next = self.zero32.val();
            self.fit_m[k].next = self.zero32.val();
            self.rfm_m[k].next = self.zero32.val();
            for e in 0..self.ar_ready.len() {
                self.ded_q[k][e].clock.next = self.clock.val();
                self.refm_q[k][e].clock.next = self.clock.val();
                if self.ded_q[k][e].q.val() {
                    self.ded_m[k].next = self.ded_m[k].val() | self.w32[e].val();
                }
                if self.fit[k][e].val() {
                    self.fit_m[k].next = self.fit_m[k].val() | self.w32[e].val();
                }
                if self.refm_q[k][e].q.val() {
                    self.rfm_m[k].next = self.rfm_m[k].val() | self.w32[e].val();
                }
            }
            // R4 fit: resources and at least one free entity record.
            self.fit_m[k].next = self.fit_m[k].val() & self.nz_m.val();
        }

        // --- Type-specific inputs (0 or 1 of each).
        self.vtx_blk.next = false;
        self.vtx_mal.next = false;
        for i in 0..self.vtx_blocked.len() {
            self.vidx_q[i].clock.next = self.clock.val();
            self.vtx_blk.next = self.vtx_blocked[i].val();
            // R2: count 0 or above VGRP; indexed base not a multiple of VGRP.
            self.vtx_mal.next = (self.vp_count[i].val() == self.zero8.val())
                | (self.vp_count[i].val() > self.vgrp8[i].val())
                | (self.vp_indexed[i].val() & self.vp_bad[i].val());
        }
        self.patch_blk.next = false;
        self.patch_mal.next = false;
        for i in 0..self.patch_blocked.len() {
            self.pidx_q[i].clock.next = self.clock.val();
            self.patch_blk.next = self.patch_blocked[i].val();
            self.patch_mal.next = self.pp_indexed[i].val() & self.pp_bad[i].val();
        }
        self.tri_blk.next = false;
        for i in 0..self.tri_blocked.len() {
            self.tri_blk.next = self.tri_blocked[i].val();
        }
        // Triangle references: indexed, VDT entry valid, tag equal.
        for i in 0..self.tri_hit_l.len() {
            self.tri_hit_l[i].next = false;
        }
        for i in 0..self.tri_vvalid.len() {
            // Read by the home computation before the grant: inputs and registers only.
            self.tri_hit[i].next = self.tidx_q[0].q.val() & self.tri_vvalid[i].val() & self.tri_tag_eq[i].val();
            self.tri_hit_l[i].next = self.tidx_q[0].q.val() & self.tri_vvalid[i].val() & self.tri_tag_eq[i].val();
        }
        self.tri_hh.next = false;
        self.tri_home_l.next = self.zero8.val();
        for i in 0..self.tri_home.len() {
            self.tidx_q[i].clock.next = self.clock.val();
            self.tri_hh.next = self.tri_has_home[i].val();
            self.tri_home_l.next = self.tri_home[i].val();
        }
        self.pix_hit_l.next = false;
        self.pix_home_l.next = self.zero8.val();
        for i in 0..self.pix_hit.len() {
            self.xmask_q[i].clock.next = self.clock.val();
            self.xlast_q[i].clock.next = self.clock.val();
            self.pix_hit_l.next = self.pix_hit[i].val();
            self.pix_home_l.next = self.pix_home[i].val();
        }
    }
}
