//! Part 2 of the controller's rules: the channels (R3), the malformed drop (R2), the slots and
//! their control bits, the references of the request.

use super::*;

impl hdl::Part<2> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Channels (R3), malformed drop (R2), slots.
        self.busy_l.next = false;
        self.st_slot_valid.next = self.zero4.val();
        self.ar_type.next = self.zero2.val();
        self.ar_vcount.next = self.zero5.val();
        self.vc5.next = self.zero5.val();
        for i in 0..self.vcnt_q.len() {
            for b in 0..self.w5.len() {
                self.vcnt_q[i][b].clock.next = self.clock.val();
                if self.vcnt_q[i][b].q.val() {
                    self.vc5.next = self.vc5.val() | self.w5[b].val();
                }
            }
        }
        self.g_tri.next = false;
        self.g_pix.next = false;
        self.a_vtx.next = false;
        self.a_patch.next = false;
        self.a_tri.next = false;
        self.a_pix.next = false;
        self.l_vtx.next = false;
        self.l_patch.next = false;
        self.l_tri.next = false;
        self.l_pix.next = false;
        self.f_tri.next = false;
        self.f_pix.next = false;
        self.mal_set.next = false;
        for k in 0..self.occ_q.len() {
            self.ack_k[k].next = self.gnt_l[k].val() & self.acked.val();
            self.c_ready[k].next = self.en_q.q.val() & (!self.occ_q[k].q.val() | self.ack_k[k].val());
            self.fire_k[k].next = self.c_valid[k].val() & self.en_q.q.val() & (!self.occ_q[k].q.val() | self.ack_k[k].val());
            self.load[k].next = self.fire_k[k].val()
                & !((self.is_vtx[k].val() & self.vtx_mal.val()) | (self.is_patch[k].val() & self.patch_mal.val()));
            if self.fire_k[k].val() & !self.load[k].val() {
                self.mal_set.next = true;
            }
            self.occ_q[k].d.next = self.load[k].val() | (self.occ_q[k].q.val() & !self.ack_k[k].val());
            if self.reset.val() {
                self.occ_q[k].d.next = false;
            }
            self.gnt_q[k].d.next = self.gnt_l[k].val();
            if self.occ_q[k].q.val() {
                self.busy_l.next = true;
                self.st_slot_valid.next = self.st_slot_valid.val() | self.slotbit[k].val();
            }
            if self.gnt_l[k].val() {
                self.ar_type.next = self.tcode[k].val();
                if self.is_vtx[k].val() {
                    self.ar_vcount.next = self.vc5.val();
                } else {
                    self.ar_vcount.next = self.vcnt_k[k].val();
                }
            }
            // Kind strobes.
            self.g_tri.next = self.g_tri.val() | (self.is_tri[k].val() & self.gnt_l[k].val());
            self.g_pix.next = self.g_pix.val() | (self.is_pix[k].val() & self.gnt_l[k].val());
            self.a_vtx.next = self.a_vtx.val() | (self.is_vtx[k].val() & self.ack_k[k].val());
            self.a_patch.next = self.a_patch.val() | (self.is_patch[k].val() & self.ack_k[k].val());
            self.a_tri.next = self.a_tri.val() | (self.is_tri[k].val() & self.ack_k[k].val());
            self.a_pix.next = self.a_pix.val() | (self.is_pix[k].val() & self.ack_k[k].val());
            self.l_vtx.next = self.l_vtx.val() | (self.is_vtx[k].val() & self.load[k].val());
            self.l_patch.next = self.l_patch.val() | (self.is_patch[k].val() & self.load[k].val());
            self.l_tri.next = self.l_tri.val() | (self.is_tri[k].val() & self.load[k].val());
            self.l_pix.next = self.l_pix.val() | (self.is_pix[k].val() & self.load[k].val());
            self.f_tri.next = self.f_tri.val() | (self.is_tri[k].val() & self.fire_k[k].val());
            self.f_pix.next = self.f_pix.val() | (self.is_pix[k].val() & self.fire_k[k].val());
            // Refused mask (R6, R8): cleared without a selection, joined by a refusal,
            // emptied with the slot.
            for e in 0..self.ar_ready.len() {
                self.refm_q[k][e].d.next = self.refm_q[k][e].q.val() & self.found[k].val();
                if self.gnt_l[k].val() & self.rf_m.val().get_bit(e) {
                    self.refm_q[k][e].d.next = true;
                }
                if self.load[k].val() | self.ack_k[k].val() | self.reset.val() {
                    self.refm_q[k][e].d.next = false;
                }
            }
        }
        self.busy.next = self.busy_l.val();
        self.stall_l.next = self.busy_l.val() & !self.pres.val();
        self.stall.next = self.stall_l.val();

        // --- Slot control bits, type-specific effect strobes.
        for i in 0..self.vidx_q.len() {
            self.vidx_q[i].d.next = self.vidx_q[i].q.val();
            if self.l_vtx.val() {
                self.vidx_q[i].d.next = self.vp_indexed[i].val();
            }
            self.vtx_indexed[i].next = self.vidx_q[i].q.val();
            self.vtx_w[i].next = self.a_vtx.val();
            self.vtx_adv[i].next = self.a_vtx.val() & !self.vidx_q[i].q.val();
            for b in 0..self.w5.len() {
                self.vcnt_q[i][b].d.next = self.vcnt_q[i][b].q.val();
                if self.l_vtx.val() {
                    self.vcnt_q[i][b].d.next = self.vp_count[i].val().get_bit(b);
                }
            }
        }
        for i in 0..self.pidx_q.len() {
            self.pidx_q[i].d.next = self.pidx_q[i].q.val();
            if self.l_patch.val() {
                self.pidx_q[i].d.next = self.pp_indexed[i].val();
            }
            self.patch_indexed[i].next = self.pidx_q[i].q.val();
            self.patch_w[i].next = self.a_patch.val();
            self.patch_adv[i].next = self.a_patch.val() & !self.pidx_q[i].q.val();
        }
        for i in 0..self.tri_w.len() {
            self.tri_w[i].next = self.a_tri.val();
        }
        for i in 0..self.tidx_q.len() {
            self.tidx_q[i].d.next = self.tidx_q[i].q.val();
            if self.l_tri.val() {
                self.tidx_q[i].d.next = self.tp_indexed[i].val();
            }
            self.tp_fire[i].next = self.f_tri.val();
        }
        for i in 0..self.xmask_q.len() {
            self.xmask_q[i].d.next = self.xmask_q[i].q.val();
            self.xlast_q[i].d.next = self.xlast_q[i].q.val();
            if self.l_pix.val() {
                self.xmask_q[i].d.next = self.xp_mask[i].val();
                self.xlast_q[i].d.next = self.xp_last[i].val();
            }
            self.xp_fire[i].next = self.f_pix.val();
            self.pix_clr[i].next = self.a_pix.val() & self.xlast_q[i].q.val();
            self.ref_pix[i].next = self.g_pix.val();
            self.ar_pix_mask[i].next = self.zero16[i].val();
            if self.g_pix.val() {
                self.ar_pix_mask[i].next = self.xmask_q[i].q.val();
            }
        }
        // References of the request: live until presented, then held with it.
        for i in 0..self.fresh_ref.len() {
            self.refv_q[i].clock.next = self.clock.val();
            self.fresh_ref[i].next = self.g_tri.val() & self.tri_hit_l[i].val();
        }
        for _i in 0..self.pix_hit.len() {
            self.fresh_ref[0].next = self.fresh_ref[0].val() | (self.g_pix.val() & self.pix_hit_l.val());
        }
        for i in 0..self.ar_ref_valid.len() {
            self.ar_ref_valid[i].next = self.fresh_ref[i].val();
            if self.sticky_q.q.val() {
                self.ar_ref_valid[i].next = self.refv_q[i].q.val();
            }
            self.refv_q[i].d.next = self.ar_ref_valid[i].val();
        }
    }
}
