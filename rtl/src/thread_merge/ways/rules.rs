//! The rules of one edge of [`ThreadMergeWays`], in R3's order: part 0 the events (R8-R11),
//! part 1 the response (R12), xl (R14) and the status outputs, part 2 the candidate set and
//! the emission (R4-R6, R20), part 3 the spawn (R7) and the registers' next state (R15),
//! part 4 the counter bank's wiring, part 5 the lookups (R13), part 6 the counter events
//! (R16, the pair core's macro).

use super::*;

impl<const L: usize> hdl::Part<0> for ThreadMergeWays<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Registers hold by default; the working copies start at S0.
        dff_setup!(self, clock, pv_q, plast_q, gv_q, rv_q, rmerged_q, ract_q, fresh_q, rsel_q, mcount_q, mpend_q, eproto_q, epend_q, exl_q);
        self.perr.next = false;
        self.merge_ev.next = false;
        self.any_free.next = false;
        for s in 0..self.st_q.len() {
            self.paired_q[s].clock.next = self.clock.val();
            self.broken_q[s].clock.next = self.clock.val();
            self.merged_q[s].clock.next = self.clock.val();
            self.paired_q[s].d.next = self.paired_q[s].q.val();
            self.brk[s].next = self.broken_q[s].q.val();
            self.mrg[s].next = self.merged_q[s].q.val();
            self.free0[s].next = true;
            for _z in 0..self.to_last.len() {
                self.w0[s].next = false;
            }
            for m in 0..self.mcode.len() {
                self.st_q[s][m].clock.next = self.clock.val();
                self.act_q[s][m].clock.next = self.clock.val();
                self.owe_q[s][m].clock.next = self.clock.val();
                self.perm_q[s][m].clock.next = self.clock.val();
                self.perm_q[s][m].d.next = self.perm_q[s][m].q.val();
                for b in 0..self.frag_tag.len() {
                    self.tag_q[s][m][b].clock.next = self.clock.val();
                    self.tag_q[s][m][b].d.next = self.tag_q[s][m][b].q.val();
                }
                self.st[s][m].next = self.st_q[s][m].q.val();
                self.act[s][m].next = self.act_q[s][m].q.val();
                // The owe bit in S0: an owed resume loaded at the last edge (fresh, owed) has
                // its bit cleared through the grant registers.
                self.owe[s][m].next = self.owe_q[s][m].q.val()
                    & !(self.osel_q[s][m].q.val() & self.fresh_q.q.val() & self.rsel_q.q.val());
                self.oe[s][m].next = self.owe[s][m].val();
                self.osel_q[s][m].clock.next = self.clock.val();
                self.osel_q[s][m].d.next = self.osel_q[s][m].q.val();
                if self.st_q[s][m].q.val() != self.s_free.val() {
                    self.free0[s].next = false;
                }
                for _z in 0..self.to_last.len() {
                    if self.st_q[s][m].q.val() == self.s_wait.val() {
                        self.w0[s].next = true;
                    }
                }
            }
            self.any_free.next = self.any_free.val() | self.free0[s].val();
            for k in 0..self.w_wait.len() {
                self.wait_q[s][k].clock.next = self.clock.val();
            }
            for _z in 0..self.to_last.len() {
                self.wcnt[s].next = self.zero8.val();
                for k in 0..self.w_wait.len() {
                    if self.wait_q[s][k].q.val() {
                        self.wcnt[s].next = self.wcnt[s].val() | self.w_wait[k].val();
                    }
                }
            }
        }

        // ---- R8 term: a live member frees; a member of an unmerged set breaks it, and the
        // set's waiting members resume alone (POST, owed).
        self.found.next = false;
        for s in 0..self.st_q.len() {
            self.tslot[s].next = false;
            for m in 0..self.mcode.len() {
                if self.term_valid.val()
                    & (self.term_tgid.val() == self.idg[s][m].val())
                    & ((self.st[s][m].val() == self.s_pre.val()) | (self.st[s][m].val() == self.s_post.val()))
                {
                    self.found.next = true;
                    self.tslot[s].next = true;
                    self.st[s][m].next = self.s_free.val();
                    self.owe[s][m].next = false;
                }
            }
            self.alive[s].next = false;
            for m in 0..self.mcode.len() {
                if self.st[s][m].val() != self.s_free.val() {
                    self.alive[s].next = true;
                }
            }
            if self.tslot[s].val() & self.paired_q[s].q.val() & !self.mrg[s].val() & self.alive[s].val() {
                self.brk[s].next = true;
                for m in 0..self.mcode.len() {
                    if self.st[s][m].val() == self.s_wait.val() {
                        self.st[s][m].next = self.s_post.val();
                        self.owe[s][m].next = true;
                    }
                }
            }
        }
        if self.term_valid.val() & !self.found.val() {
            self.perr.next = true;
        }

        // ---- R9 disc: a live member's mask loses the lanes.
        self.found.next = false;
        for s in 0..self.st_q.len() {
            for m in 0..self.mcode.len() {
                if self.disc_valid.val()
                    & (self.disc_tgid.val() == self.idg[s][m].val())
                    & ((self.st[s][m].val() == self.s_pre.val()) | (self.st[s][m].val() == self.s_post.val()))
                {
                    self.found.next = true;
                    self.act[s][m].next = self.act[s][m].val() & !self.disc_mask.val();
                }
            }
        }
        if self.disc_valid.val() & !self.found.val() {
            self.perr.next = true;
        }

        // ---- R10 me (accepted when the response register can load, R12).
        self.rsp_free.next = !self.rv_q.q.val() | self.rsp_ready.val();
        self.me_ready.next = self.rsp_free.val();
        self.me_acc.next = self.me_valid.val() & self.rsp_free.val();
        self.me_rsp.next = false;
        self.me_mrg.next = false;
        self.rtg.next = self.zero8.val();
        self.racts.next = self.lzero.val();
        for j in 0..self.rmask.len() {
            self.rmask[j].next = false;
        }
        self.found.next = false;
        for s in 0..self.st_q.len() {
            for _z in 0..self.to_last.len() {
                self.wz[s].next = false;
            }
            self.orall[s].next = self.lzero.val();
            for m in 0..self.mcode.len() {
                self.orall[s].next = self.orall[s].val() | self.act[s][m].val();
                // Every other member WAIT or FREE.
                self.allw[s][m].next = true;
                for m2 in 0..self.mcode.len() {
                    if (self.st[s][m2].val() == self.s_pre.val()) | (self.st[s][m2].val() == self.s_post.val()) {
                        if self.idg[s][m2].val() != self.idg[s][m].val() {
                            self.allw[s][m].next = false;
                        }
                    }
                }
            }
            for m in 0..self.mcode.len() {
                if self.me_acc.val() & (self.me_tgid.val() == self.idg[s][m].val()) {
                    if (self.st[s][m].val() == self.s_post.val()) | (self.st[s][m].val() == self.s_pre.val()) {
                        self.found.next = true;
                        self.owe[s][m].next = false;
                        if (self.st[s][m].val() == self.s_post.val()) | !self.paired_q[s].q.val() | self.brk[s].val() {
                            // POST (a NOP), or alone: past the merge point, the response only.
                            self.st[s][m].next = self.s_post.val();
                            self.me_rsp.next = true;
                            self.rtg.next = self.rtg.val() | self.idg[s][m].val();
                            self.racts.next = self.racts.val() | self.act[s][m].val();
                        } else if self.allw[s][m].val() {
                            // MERGE: A takes the OR, every other member retires.
                            self.mrg[s].next = true;
                            self.merge_ev.next = true;
                            self.me_rsp.next = true;
                            self.me_mrg.next = true;
                            self.rtg.next = self.rtg.val() | self.idg[s][0].val();
                            self.racts.next = self.racts.val() | self.orall[s].val();
                            for m2 in 1..self.mcode.len() {
                                if self.st[s][m2].val() != self.s_free.val() {
                                    self.rmask[m2 - 1].next = true;
                                }
                                self.st[s][m2].next = self.s_free.val();
                            }
                            self.st[s][0].next = self.s_post.val();
                            self.act[s][0].next = self.orall[s].val();
                        } else {
                            // Parks; the first member to wait starts the counter.
                            self.st[s][m].next = self.s_wait.val();
                            for _z in 0..self.to_last.len() {
                                self.wz[s].next = !self.w0[s].val();
                            }
                        }
                    }
                }
            }
        }
        if self.me_acc.val() & !self.found.val() {
            self.perr.next = true;
        }

        // ---- R11 timeouts: at the counter's last value, every waiting member resumes.
        for s in 0..self.st_q.len() {
            for _z in 0..self.to_last.len() {
                self.wstill[s].next = false;
                for m in 0..self.mcode.len() {
                    if (self.st_q[s][m].q.val() == self.s_wait.val()) & (self.st[s][m].val() == self.s_wait.val()) {
                        self.wstill[s].next = true;
                    }
                }
            }
            for z in 0..self.to_last.len() {
                if (self.wcnt[s].val() == self.to_last[z].val()) & self.wstill[s].val() {
                    self.brk[s].next = true;
                    for m in 0..self.mcode.len() {
                        if self.st[s][m].val() == self.s_wait.val() {
                            self.st[s][m].next = self.s_post.val();
                            self.owe[s][m].next = true;
                        }
                    }
                }
            }
            // The counter counts on (a bitwise increment); the first member to wait restarts it.
            for _z in 0..self.to_last.len() {
                self.car[0].next = true;
                for k in 0..self.w_wait.len() {
                    self.wait_q[s][k].d.next = (self.wait_q[s][k].q.val() ^ self.car[0].val()) & !self.wz[s].val();
                    self.car[0].next = self.car[0].val() & self.wait_q[s][k].q.val();
                }
            }
        }
    }
}

impl<const L: usize> hdl::Part<1> for ThreadMergeWays<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- R12 the response register: this edge's me response, else the owed resume of
        // the lowest tgid (its owe bit clears), else empty. Held without rsp_free.
        self.rtgid_v.next = self.zero8.val();
        for k in 0..self.rtgid_q.len() {
            self.rtgid_q[k].clock.next = self.clock.val();
            self.rtgid_q[k].d.next = self.rtgid_q[k].q.val();
            if self.rtgid_q[k].q.val() {
                self.rtgid_v.next = self.rtgid_v.val() | self.w_tgid[k].val();
            }
        }
        for j in 0..self.rmask_q.len() {
            self.rmask_q[j].clock.next = self.clock.val();
            self.rmask_q[j].d.next = self.rmask_q[j].q.val();
        }
        // The owed resume: per slot the lowest owing member, in the first slot that owes (a
        // prefix over the slots, not a chain over the groups); none while a me answers.
        self.any_owe.next = false;
        for s in 0..self.st_q.len() {
            self.sowe[s].next = false;
            for m in 0..self.mcode.len() {
                self.sowe[s].next = self.sowe[s].val() | self.owe[s][m].val();
            }
            self.any_owe.next = self.any_owe.val() | self.sowe[s].val();
        }
        for s in 0..self.st_q.len() {
            self.slow[s].next = self.me_rsp.val();
            for s2 in 0..self.st_q.len() {
                if self.slt[s][s2].val() & self.sowe[s2].val() {
                    self.slow[s].next = true;
                }
            }
            for m in 0..self.mcode.len() {
                self.osel[s][m].next = self.owe[s][m].val() & !self.slow[s].val();
                for m2 in 0..self.mcode.len() {
                    if self.mlt[m][m2].val() & self.owe[s][m2].val() {
                        self.osel[s][m].next = false;
                    }
                }
            }
        }
        // The response register holds what names the response: the me's id, mask, merge
        // flag and retire mask (rtgid_q, ract_q, rmerged_q, rmask_q), or the owed grant,
        // one-hot (osel_q), with rsel_q = owed and fresh_q = loaded at the last edge. An
        // owed response's id is decoded from the grant; its mask is the group's active
        // register in the cycle after the load (which holds the mask after R8-R10 of the
        // load edge) and the copy made at the end of that cycle afterwards. So neither the
        // grant's id nor its mask selection sits in front of a flop, and the granted owe
        // bit clears through the grant (Part 0).
        self.fresh_q.d.next = false;
        self.oid.next = self.zero8.val();
        self.oact.next = self.lzero.val();
        for s in 0..self.st_q.len() {
            for m in 0..self.mcode.len() {
                if self.osel_q[s][m].q.val() {
                    self.oid.next = self.oid.val() | self.idg[s][m].val();
                    self.oact.next = self.oact.val() | self.act_q[s][m].q.val();
                }
            }
        }
        self.rsp_tgid_v.next = self.rtgid_v.val();
        if self.rsel_q.q.val() {
            self.rsp_tgid_v.next = self.oid.val();
        }
        self.rsp_active.next = self.ract_q.q.val();
        if self.fresh_q.q.val() & self.rsel_q.q.val() {
            self.rsp_active.next = self.oact.val();
            self.ract_q.d.next = self.oact.val();
        }
        if self.rsp_free.val() {
            self.fresh_q.d.next = true;
            // Valid: a me response or some owed group (not the grant's prefix).
            self.rv_q.d.next = self.me_rsp.val() | self.any_owe.val();
            self.rsel_q.d.next = !self.me_rsp.val();
            self.rmerged_q.d.next = self.me_mrg.val();
            self.ract_q.d.next = self.racts.val();
            for j in 0..self.rmask_q.len() {
                self.rmask_q[j].d.next = self.rmask[j].val();
            }
            for k in 0..self.rtgid_q.len() {
                self.rtgid_q[k].d.next = self.rtg.val().get_bit(k);
            }
            for s in 0..self.st_q.len() {
                for m in 0..self.mcode.len() {
                    self.osel_q[s][m].d.next = self.osel[s][m].val() & !self.reset.val();
                }
            }
        }
        self.rsp_valid.next = self.rv_q.q.val();
        self.rsp_merged.next = self.rmerged_q.q.val();
        self.rsp_retire.next = self.rmerged_q.q.val();
        for j in 0..self.rmask_q.len() {
            self.rsp_retire_mask[j].next = self.rmask_q[j].q.val();
        }
        // rsp_retire_tgid = rsp_tgid + 1.
        for k in 0..self.rtgid_q.len() {
            self.rsp_tgid[k].next = self.rsp_tgid_v.val().get_bit(k);
        }
        self.rnext.next = self.rsp_tgid_v.val();
        self.rnext.next = self.rnext.val() + self.one8.val();
        for k in 0..self.rtgid_q.len() {
            self.rsp_retire_tgid[k].next = self.rnext.val().get_bit(k);
        }

        // ---- R14: a cross-lane operation of a group past the merge point (S0).
        self.xl_hit.next = false;
        for s in 0..self.st_q.len() {
            for m in 0..self.mcode.len() {
                if self.xl_valid.val()
                    & (self.xl_tgid.val() == self.idg[s][m].val())
                    & (self.st_q[s][m].q.val() == self.s_post.val())
                {
                    self.xl_hit.next = true;
                }
            }
        }

        // ---- Status outputs (registered state); members m >= W are FREE.
        for t in 0..self.st_state_g.len() {
            self.st_state_g[t].next = self.s_free.val();
            self.st_active_g[t].next = self.lzero.val();
            self.st_owe_g[t].next = false;
        }
        self.fcount.next = self.zero8.val();
        for s in 0..self.st_q.len() {
            for m in 0..self.mcode.len() {
                self.st_state_g[4 * s + m].next = self.st_q[s][m].q.val();
                self.st_active_g[4 * s + m].next = self.act_q[s][m].q.val();
                self.st_owe_g[4 * s + m].next = self.oe[s][m].val();
            }
            self.st_paired[s].next = self.paired_q[s].q.val();
            self.st_broken[s].next = self.broken_q[s].q.val();
            self.st_merged[s].next = self.merged_q[s].q.val();
            if self.free0[s].val() {
                self.fcount.next = self.fcount.val() + self.one8.val();
            }
        }
        for k in 0..self.free_cnt.len() {
            self.free_cnt[k].next = self.fcount.val().get_bit(k);
        }
        self.pend_valid.next = self.pv_q.q.val();
        // merge_count and err_proto: a register plus this edge's pending event (as the pair
        // core), so no wide enable or flag waits for the late merge and error decisions.
        self.mcount.next = self.mcount_q.q.val();
        if self.mpend_q.q.val() {
            self.mcount.next = self.mcount_q.q.val() + self.one32.val();
        }
        self.merge_count.next = self.mcount.val();
        self.err_proto.next = self.eproto_q.q.val() | self.epend_q.q.val();
        self.err_xlane.next = self.exl_q.q.val();
    }
}

impl<const L: usize> hdl::Part<2> for ThreadMergeWays<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- R4 with R20's set: the candidate holds members j < W-1 (mv_q), U their OR.
        self.out_ok.next = !self.gv_q.q.val() | self.grp_ready.val();
        self.pmis.next = false;
        for b in 0..self.pprim_q.len() {
            self.pprim_q[b].clock.next = self.clock.val();
            self.pprim_q[b].d.next = self.pprim_q[b].q.val();
            if self.pprim_q[b].q.val() ^ self.frag_prim[b].val() {
                self.pmis.next = true;
            }
        }
        for k in 0..self.xprim.len() {
            self.pmis.next = !self.xprim[k].val();
        }
        self.age.next = self.zero8.val();
        for k in 0..self.w_age.len() {
            self.page_q[k].clock.next = self.clock.val();
            if self.page_q[k].q.val() {
                self.age.next = self.age.val() | self.w_age[k].val();
            }
        }
        self.age_max.next = self.hold_on.val() & (self.age.val() == self.hold_max.val());
        self.flush_now.next = self.pv_q.q.val()
            & (self.plast_q.q.val() | self.flush.val() | self.age_max.val() | (self.frag_valid.val() & self.pmis.val()));
        self.frag_ready.next = self.out_ok.val() & self.any_free.val() & !self.flush_now.val();
        self.f_acc.next = self.frag_valid.val() & self.frag_ready.val();
        self.ucov.next = self.lzero.val();
        for j in 0..self.mv_q.len() {
            self.mv_q[j].clock.next = self.clock.val();
            self.mcov_q[j].clock.next = self.clock.val();
            self.mperm_q[j].clock.next = self.clock.val();
            if self.mv_q[j].q.val() {
                self.ucov.next = self.ucov.val() | self.mcov_q[j].q.val();
            }
            for b in 0..self.frag_tag.len() {
                self.mtag_q[j][b].clock.next = self.clock.val();
            }
        }

        // R5 against U: the first p in 0, 1, 2, 3 with U & xperm(F.cov, p) == 0.
        self.x1.next = ((self.frag_cov.val() & self.m_x0.val()) << self.sh1.val())
            | ((self.frag_cov.val() & self.m_x1.val()) >> self.sh1.val());
        self.x2.next = ((self.frag_cov.val() & self.m_y0.val()) << self.sh2.val())
            | ((self.frag_cov.val() & self.m_y1.val()) >> self.sh2.val());
        self.x3.next = ((self.x1.val() & self.m_y0.val()) << self.sh2.val())
            | ((self.x1.val() & self.m_y1.val()) >> self.sh2.val());
        // Per p: F after remap p is disjoint from U. Some p fits (`can`), and whether the set
        // then covers every lane, the same for every p that fits (a remap keeps F's lane
        // count), are ORs over p beside the choice of the first p, not after it.
        self.d_p[0].next = !(self.ucov.val() & self.frag_cov.val()).any();
        self.d_p[1].next = self.remap_on.val() & !(self.ucov.val() & self.x1.val()).any();
        self.d_p[2].next = self.remap_on.val() & !(self.ucov.val() & self.x2.val()).any();
        self.d_p[3].next = self.remap_on.val() & !(self.ucov.val() & self.x3.val()).any();
        self.can.next = self.d_p[0].val() | self.d_p[1].val() | self.d_p[2].val() | self.d_p[3].val();
        self.ufull.next = (self.d_p[0].val() & (self.ucov.val() | self.frag_cov.val()).all())
            | (self.d_p[1].val() & (self.ucov.val() | self.x1.val()).all())
            | (self.d_p[2].val() & (self.ucov.val() | self.x2.val()).all())
            | (self.d_p[3].val() & (self.ucov.val() | self.x3.val()).all());
        // The first p that fits and F's lanes under it (don't-care when none fits).
        self.jperm.next = self.p0.val();
        self.jcov.next = self.frag_cov.val();
        if !self.d_p[0].val() {
            if self.d_p[1].val() {
                self.jperm.next = self.p1.val();
                self.jcov.next = self.x1.val();
            } else if self.d_p[2].val() {
                self.jperm.next = self.p2.val();
                self.jcov.next = self.x2.val();
            } else {
                self.jperm.next = self.p3.val();
                self.jcov.next = self.x3.val();
            }
        }
        // The held set has W-1 members: F's join completes it.
        self.hfull.next = false;
        for j in (self.mv_q.len() - 1)..self.mv_q.len() {
            self.hfull.next = self.mv_q[j].q.val();
        }

        // The emitted set as it is if an emission happens at this edge: the held set (E0, E3
        // without p), F alone (E1, E2 with last) or the held set with F joined (E3 with p). It
        // does not wait for frag_ready and the slot's free state: without an emission nothing
        // takes it. The held set after the edge starts as the held set.
        for j in 0..self.ev.len() {
            self.ev[j].next = false;
            self.ecov[j].next = self.lzero.val();
            self.eperm[j].next = self.p0.val();
            for b in 0..self.frag_tag.len() {
                self.etag[j][b].next = false;
            }
        }
        for j in 0..self.mv_q.len() {
            self.ev[j].next = self.mv_q[j].q.val();
            self.ecov[j].next = self.mcov_q[j].q.val();
            self.eperm[j].next = self.mperm_q[j].q.val();
            for b in 0..self.frag_tag.len() {
                self.etag[j][b].next = self.mtag_q[j][b].q.val();
            }
            self.hv[j].next = self.mv_q[j].q.val();
            self.hcov[j].next = self.mcov_q[j].q.val();
            self.hperm[j].next = self.mperm_q[j].q.val();
            for b in 0..self.frag_tag.len() {
                self.htag[j][b].next = self.mtag_q[j][b].q.val();
            }
        }
        if !self.flush_now.val() & (self.frag_cov.val().all() | (!self.pv_q.q.val() & self.frag_last.val())) {
            for j in 0..self.ev.len() {
                self.ev[j].next = false;
            }
            self.ev[0].next = true;
            self.ecov[0].next = self.frag_cov.val();
            self.eperm[0].next = self.p0.val();
            for b in 0..self.frag_tag.len() {
                self.etag[0][b].next = self.frag_tag[b].val();
            }
        } else if !self.flush_now.val() & self.pv_q.q.val() & self.can.val() {
            self.placed.next = false;
            for j in 0..self.ev.len() {
                if !self.ev[j].val() & !self.placed.val() {
                    self.placed.next = true;
                    self.ev[j].next = true;
                    self.ecov[j].next = self.jcov.val();
                    self.eperm[j].next = self.jperm.val();
                    for b in 0..self.frag_tag.len() {
                        self.etag[j][b].next = self.frag_tag[b].val();
                    }
                }
            }
        }
        // The decision (R4's E0-E3 with the set).
        self.emit.next = false;
        self.placed.next = false;
        self.pv_n.next = self.pv_q.q.val();
        self.newset.next = false;
        for z in 0..self.aged.len() {
            self.aged[z].next = self.pv_q.q.val();
        }
        self.plast_q.d.next = self.plast_q.q.val();
        if self.out_ok.val() & self.any_free.val() & self.flush_now.val() {
            // E0: the held set leaves; no fragment is taken.
            self.emit.next = true;
            self.pv_n.next = false;
            for z in 0..self.aged.len() {
                self.aged[z].next = false;
            }
        } else if self.f_acc.val() & !self.frag_cov.val().any() {
            self.perr.next = true;
        } else if self.f_acc.val() & (self.frag_cov.val().all() | (!self.pv_q.q.val() & self.frag_last.val())) {
            // E1 (a full fragment) and E2 with last: F leaves alone; a held set is kept (a
            // full last F ends its run).
            self.emit.next = true;
            if self.frag_last.val() & self.pv_q.q.val() {
                self.plast_q.d.next = true;
            }
        } else if self.f_acc.val() & !self.pv_q.q.val() {
            // E2: the first partial fragment starts a set.
            self.pv_n.next = true;
            self.newset.next = true;
            self.plast_q.d.next = false;
        } else if self.f_acc.val() & self.can.val() {
            // E3 with p: F joins as the next member; the set leaves when it has W members,
            // covers every lane, or F is its run's last fragment.
            self.placed.next = false;
            for j in 0..self.hv.len() {
                if !self.hv[j].val() & !self.placed.val() {
                    self.placed.next = true;
                    self.hv[j].next = true;
                    self.hcov[j].next = self.jcov.val();
                    self.hperm[j].next = self.jperm.val();
                    for b in 0..self.frag_tag.len() {
                        self.htag[j][b].next = self.frag_tag[b].val();
                    }
                }
            }
            if self.hfull.val() | self.ufull.val() | self.frag_last.val() {
                self.emit.next = true;
                self.pv_n.next = false;
                for z in 0..self.aged.len() {
                    self.aged[z].next = false;
                }
            }
        } else if self.f_acc.val() {
            // E3 without p: the held set leaves, F starts a new one.
            self.emit.next = true;
            self.newset.next = true;
            self.plast_q.d.next = self.frag_last.val();
        }
        if self.newset.val() {
            for z in 0..self.aged.len() {
                self.aged[z].next = false;
            }
            for j in 0..self.hv.len() {
                self.hv[j].next = false;
            }
            self.hv[0].next = true;
            self.hcov[0].next = self.frag_cov.val();
            self.hperm[0].next = self.p0.val();
            for b in 0..self.frag_tag.len() {
                self.htag[0][b].next = self.frag_tag[b].val();
            }
            for b in 0..self.pprim_q.len() {
                self.pprim_q[b].d.next = self.frag_prim[b].val();
            }
        }
        // A member the set does not have spawns FREE with mask, tag and perm 0 (R20).
        for j in 0..self.ev.len() {
            if !self.ev[j].val() {
                self.ecov[j].next = self.lzero.val();
                self.eperm[j].next = self.p0.val();
                for b in 0..self.frag_tag.len() {
                    self.etag[j][b].next = false;
                }
            }
        }
        // The candidate's registers. The age counts while the set stays held (R4, R6).
        self.pv_q.d.next = self.pv_n.val() & !self.reset.val();
        for j in 0..self.mv_q.len() {
            self.mv_q[j].d.next = self.hv[j].val() & self.pv_n.val() & !self.reset.val();
            self.mcov_q[j].d.next = self.hcov[j].val();
            self.mperm_q[j].d.next = self.hperm[j].val();
            for b in 0..self.frag_tag.len() {
                self.mtag_q[j][b].d.next = self.htag[j][b].val();
            }
        }
        for z in 0..self.aged.len() {
            self.car[0].next = self.age.val() != self.hold_max.val();
            for k in 0..self.page_q.len() {
                self.page_q[k].d.next = (self.page_q[k].q.val() ^ self.car[0].val()) & self.aged[z].val() & !self.reset.val();
                self.car[0].next = self.car[0].val() & self.page_q[k].q.val();
            }
        }
    }
}

impl<const L: usize> hdl::Part<3> for ThreadMergeWays<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- R7 the spawn: the lowest slot free in S0 takes the emitted set.
        self.found.next = false;
        for s in 0..self.st_q.len() {
            self.alloc_here[s].next = self.free0[s].val() & !self.found.val();
            self.found.next = self.found.val() | self.free0[s].val();
        }
        if self.emit.val() {
            self.gv_q.d.next = true;
        } else if self.grp_ready.val() {
            self.gv_q.d.next = false;
        }
        for k in 0..self.gslot_q.len() {
            self.gslot_q[k].clock.next = self.clock.val();
            self.gslot_q[k].d.next = self.gslot_q[k].q.val();
        }
        for j in 0..self.gmv_q.len() {
            self.gmv_q[j].clock.next = self.clock.val();
            self.gcov_q[j].clock.next = self.clock.val();
            self.gperm_q[j].clock.next = self.clock.val();
            self.gmv_q[j].d.next = self.gmv_q[j].q.val();
            self.gcov_q[j].d.next = self.gcov_q[j].q.val();
            self.gperm_q[j].d.next = self.gperm_q[j].q.val();
            for b in 0..self.frag_tag.len() {
                self.gtag_q[j][b].clock.next = self.clock.val();
                self.gtag_q[j][b].d.next = self.gtag_q[j][b].q.val();
            }
            // The payload loads whenever the register can (out_ok): without an emission
            // grp_valid is 0 next and the payload is not looked at (§5).
            if self.out_ok.val() {
                self.gmv_q[j].d.next = self.ev[j].val();
                self.gcov_q[j].d.next = self.ecov[j].val();
                self.gperm_q[j].d.next = self.eperm[j].val();
                for b in 0..self.frag_tag.len() {
                    self.gtag_q[j][b].d.next = self.etag[j][b].val();
                }
            }
        }
        // The slot an emission would take is free, so no event touches it and nothing reads
        // its flags, masks, tags or remaps (R13, §5): they load every cycle; only the states
        // wait for the emission.
        for s in 0..self.st_q.len() {
            if self.out_ok.val() & self.alloc_here[s].val() {
                for k in 0..self.gslot_q.len() {
                    self.gslot_q[k].d.next = self.sbit[s][k].val();
                }
            }
            if self.emit.val() & self.alloc_here[s].val() {
                for m in 0..self.mcode.len() {
                    self.st[s][m].next = self.s_free.val();
                    if self.ev[m].val() {
                        self.st[s][m].next = self.s_pre.val();
                    }
                }
            }
            if self.alloc_here[s].val() {
                self.paired_q[s].d.next = self.ev[1].val();
                self.brk[s].next = false;
                self.mrg[s].next = false;
                for m in 0..self.mcode.len() {
                    self.act[s][m].next = self.ecov[m].val();
                    self.perm_q[s][m].d.next = self.eperm[m].val();
                    for b in 0..self.frag_tag.len() {
                        self.tag_q[s][m][b].d.next = self.etag[m][b].val();
                    }
                }
            }
        }
        // The descriptor's outputs: member j's id is {slot, j}.
        self.grp_valid.next = self.gv_q.q.val();
        self.grp_paired.next = self.gmv_q[1].q.val();
        self.grp_a_cov.next = self.gcov_q[0].q.val();
        self.grp_b_cov.next = self.gcov_q[1].q.val();
        self.grp_b_perm.next = self.gperm_q[1].q.val();
        for b in 0..self.grp_a_tag.len() {
            self.grp_a_tag[b].next = self.gtag_q[0][b].q.val();
            self.grp_b_tag[b].next = self.gtag_q[1][b].q.val();
        }
        self.grp_a_tgid[0].next = false;
        self.grp_a_tgid[1].next = false;
        self.grp_b_tgid[0].next = true;
        self.grp_b_tgid[1].next = false;
        for k in 0..self.gslot_q.len() {
            self.grp_a_tgid[k + 2].next = self.gslot_q[k].q.val();
            self.grp_b_tgid[k + 2].next = self.gslot_q[k].q.val();
        }
        for x in 0..self.grp_x_valid.len() {
            self.grp_x_valid[x].next = self.gmv_q[x + 2].q.val();
            self.grp_x_cov[x].next = self.gcov_q[x + 2].q.val();
            self.grp_x_perm[x].next = self.gperm_q[x + 2].q.val();
            for b in 0..self.frag_tag.len() {
                self.grp_x_tag[x][b].next = self.gtag_q[x + 2][b].q.val();
            }
            self.grp_x_tgid[x][0].next = self.mcode[x + 2].val().get_bit(0);
            self.grp_x_tgid[x][1].next = self.mcode[x + 2].val().get_bit(1);
            for k in 0..self.gslot_q.len() {
                self.grp_x_tgid[x][k + 2].next = self.gslot_q[k].q.val();
            }
        }

        // ---- The registers' next state; R15 reset wins.
        for s in 0..self.st_q.len() {
            self.broken_q[s].d.next = self.brk[s].val();
            self.merged_q[s].d.next = self.mrg[s].val();
            for m in 0..self.mcode.len() {
                self.st_q[s][m].d.next = self.st[s][m].val();
                self.act_q[s][m].d.next = self.act[s][m].val();
                self.owe_q[s][m].d.next = self.owe[s][m].val();
                if self.reset.val() {
                    self.st_q[s][m].d.next = self.s_free.val();
                    self.owe_q[s][m].d.next = false;
                }
            }
        }
        self.mpend_q.d.next = self.merge_ev.val();
        self.mcount_q.d.next = self.mcount.val();
        self.epend_q.d.next = self.perr.val();
        self.eproto_q.d.next = self.eproto_q.q.val() | self.epend_q.q.val();
        if self.xl_hit.val() {
            self.exl_q.d.next = true;
        }
        // R17: err_clr clears both flags; this edge's errors set them again (epend_q, xl_hit).
        for i in 0..self.err_clr.len() {
            if self.err_clr[i].val() {
                self.eproto_q.d.next = false;
                self.exl_q.d.next = self.xl_hit.val();
            }
        }
        if self.reset.val() {
            self.gv_q.d.next = false;
            self.rv_q.d.next = false;
            self.mcount_q.d.next = self.zero32.val();
            self.mpend_q.d.next = false;
            self.eproto_q.d.next = false;
            self.epend_q.d.next = false;
            self.exl_q.d.next = false;
        }
    }
}

impl<const L: usize> hdl::Part<5> for ThreadMergeWays<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- R13 the register-file lookup (registered state; 0 for a FREE or unnamed id).
        self.rf_common_wmask.next = self.lzero.val();
        self.rf_exec_mask.next = self.lzero.val();
        self.rf_perm.next = self.p0.val();
        self.rf_post.next = false;
        for s in 0..self.st_q.len() {
            for m in 0..self.mcode.len() {
                if (self.rf_tgid.val() == self.idg[s][m].val()) & (self.st_q[s][m].q.val() != self.s_free.val()) {
                    self.rf_common_wmask.next = self.act_q[s][m].q.val();
                    self.rf_exec_mask.next = self.lones.val();
                    self.rf_perm.next = self.perm_q[s][m].q.val();
                    if self.st_q[s][m].q.val() == self.s_post.val() {
                        self.rf_exec_mask.next = self.act_q[s][m].q.val();
                        self.rf_post.next = true;
                    }
                }
            }
        }
        // ---- R13 the write-back lookup; a merged A reads its members' frozen records.
        self.wb_hit.next = false;
        self.wb_active.next = self.lzero.val();
        self.wb_lane_src.next = self.lzero.val();
        self.wb_perm_own.next = self.p0.val();
        self.wb_perm_partner.next = self.p0.val();
        for b in 0..self.wb_tag_self.len() {
            self.wb_tag_self[b].next = false;
            self.wb_tag_partner[b].next = false;
        }
        for x in 0..self.wb_perm_x.len() {
            self.wb_perm_x[x].next = self.p0.val();
            for b in 0..self.frag_tag.len() {
                self.wb_tag_x[x][b].next = false;
            }
        }
        for i in 0..self.wb_lane_mem.len() {
            self.wb_lane_mem[i].next = self.mcode[0].val();
            self.wpsel[i].next = self.p0.val();
        }
        for s in 0..self.st_q.len() {
            for m in 0..self.mcode.len() {
                if (self.wb_tgid.val() == self.idg[s][m].val()) & (self.st_q[s][m].q.val() != self.s_free.val()) {
                    self.wb_hit.next = true;
                    self.wb_active.next = self.act_q[s][m].q.val();
                    self.wb_perm_own.next = self.perm_q[s][m].q.val();
                    for b in 0..self.wb_tag_self.len() {
                        self.wb_tag_self[b].next = self.tag_q[s][m][b].q.val();
                    }
                    for i in 0..self.wpsel.len() {
                        self.wpsel[i].next = self.perm_q[s][m].q.val();
                    }
                }
            }
            if (self.wb_tgid.val() == self.idg[s][0].val())
                & (self.st_q[s][0].q.val() != self.s_free.val())
                & self.merged_q[s].q.val()
            {
                self.wb_perm_partner.next = self.perm_q[s][1].q.val();
                for b in 0..self.wb_tag_partner.len() {
                    self.wb_tag_partner[b].next = self.tag_q[s][1][b].q.val();
                }
                for x in 0..self.wb_perm_x.len() {
                    self.wb_perm_x[x].next = self.perm_q[s][x + 2].q.val();
                    for b in 0..self.frag_tag.len() {
                        self.wb_tag_x[x][b].next = self.tag_q[s][x + 2][b].q.val();
                    }
                }
                for m in 1..self.mcode.len() {
                    self.wb_lane_src.next = self.wb_lane_src.val() | self.act_q[s][m].q.val();
                    for i in 0..self.wb_lane_mem.len() {
                        if self.act_q[s][m].q.val().get_bit(i) {
                            self.wb_lane_mem[i].next = self.mcode[m].val();
                            self.wpsel[i].next = self.perm_q[s][m].q.val();
                        }
                    }
                }
            }
        }
        for i in 0..self.wb_orig_lo.len() {
            self.wb_orig_lo[i].next = self.p0.val();
            if self.wb_hit.val() {
                self.wb_orig_lo[i].next = self.inq[i].val() ^ self.wpsel[i].val();
            }
            for k in 0..self.qbit[0].len() {
                self.wb_orig_hi[i][k].next = self.qbit[i][k].val() & self.wb_hit.val();
            }
        }
    }
}

super::super::core_design::perf_events::perf_events!([const L: usize] ThreadMergeWays<L>, 6);
