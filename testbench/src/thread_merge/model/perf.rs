//! Contract R16-R17 (`docs/perf.md`): the performance counters and the error clear of the
//! reference model, written from the contract's event list only.

/// The counters in `perf_sel` order (contract R16, docs/perf.md).
pub const PERF_NAMES: [&str; 9] =
    ["frag_acc", "grp_out", "rsp_out", "stall_frag", "stall_grp", "stall_me", "err_proto_ev", "err_xlane_ev", "stall_slot"];

/// Indices into [`PERF_NAMES`].
pub const FRAG_ACC: usize = 0;
pub const GRP_OUT: usize = 1;
pub const RSP_OUT: usize = 2;
pub const STALL_FRAG: usize = 3;
pub const STALL_GRP: usize = 4;
pub const STALL_ME: usize = 5;
pub const ERR_PROTO_EV: usize = 6;
pub const ERR_XLANE_EV: usize = 7;
pub const STALL_SLOT: usize = 8;

/// The events of one cycle, R16, from the registered state at the start of the cycle and
/// this cycle's inputs (the error events come from the rules' own error detection).
#[derive(Debug, Clone, Copy, Default)]
pub struct PerfEvents {
    pub frag_valid: bool,
    pub frag_ready: bool,
    pub grp_valid: bool,
    pub grp_ready: bool,
    pub rsp_valid: bool,
    pub rsp_ready: bool,
    pub me_valid: bool,
    pub me_ready: bool,
    pub free_cnt: usize,
    pub proto_err: bool,
    pub xlane_err: bool,
}

impl PerfEvents {
    /// Event k of the cycle, in [`PERF_NAMES`] order.
    pub fn vector(&self) -> [bool; 9] {
        let mut e = [false; 9];
        e[FRAG_ACC] = self.frag_valid && self.frag_ready;
        e[GRP_OUT] = self.grp_valid && self.grp_ready;
        e[RSP_OUT] = self.rsp_valid && self.rsp_ready;
        e[STALL_FRAG] = self.frag_valid && !self.frag_ready;
        e[STALL_GRP] = self.grp_valid && !self.grp_ready;
        e[STALL_ME] = self.me_valid && !self.me_ready;
        e[ERR_PROTO_EV] = self.proto_err;
        e[ERR_XLANE_EV] = self.xlane_err;
        e[STALL_SLOT] = self.frag_valid && !self.frag_ready && self.free_cnt == 0;
        e
    }
}

/// R16: `counter(n+1) = perf_clr(n) ? 0 : min(counter(n) + event(n), 2^32 - 1)`.
pub fn count(counters: &mut [u32], events: &[bool], clear: bool) {
    for (c, &e) in counters.iter_mut().zip(events) {
        *c = if clear { 0 } else { c.saturating_add(u32::from(e)) };
    }
}

/// `perf_val`: counter `sel`, 0 for an index past the last counter (or without counters).
pub fn read(counters: &[u32], sel: u64) -> u64 {
    usize::try_from(sel).ok().and_then(|k| counters.get(k)).map_or(0, |&c| u64::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_saturate_clear_and_read_zero_past_the_end() {
        let mut c = [u32::MAX - 1, 5, 0];
        count(&mut c, &[true, true, false], false);
        assert_eq!(c, [u32::MAX, 6, 0]);
        count(&mut c, &[true, false, true], false);
        assert_eq!(c, [u32::MAX, 6, 1], "saturated: never wraps");
        assert_eq!((read(&c, 0), read(&c, 2), read(&c, 3), read(&c, 1 << 40)), (u32::MAX as u64, 1, 0, 0));
        count(&mut c, &[true, true, true], true);
        assert_eq!(c, [0, 0, 0], "clear wins over a same-cycle event");
    }
}
