//! The counter rule of the uniform performance-counter interface (docs/perf.md), shared by
//! every block's reference model: written from docs/perf.md, not from `rtl/src/perf.rs`.
//! Each model decides its own events; this is only what a counter does with them.

/// docs/perf.md "Counting": `counter(n+1) = perf_clr(n) ? 0 : min(counter(n) + event(n),
/// 2^32 - 1)`, for every counter at once (`events` in `perf_sel` order).
pub fn count(counters: &mut [u32], events: &[bool], clear: bool) {
    for (c, &e) in counters.iter_mut().zip(events) {
        *c = if clear { 0 } else { c.saturating_add(u32::from(e)) };
    }
}

/// `perf_val`: counter `sel`, 0 for an index past the last counter (or without counters).
pub fn read(counters: &[u32], sel: u64) -> u64 {
    usize::try_from(sel).ok().and_then(|k| counters.get(k)).map_or(0, |&c| u64::from(c))
}

/// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel`.
pub fn sel_width(ncnt: usize) -> u32 {
    (usize::BITS - ncnt.saturating_sub(1).leading_zeros()).max(1)
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

    #[test]
    fn sel_width_is_at_least_one_bit() {
        let w: Vec<u32> = [1, 2, 3, 4, 5, 8, 9, 10, 16, 17].iter().map(|&n| sel_width(n)).collect();
        assert_eq!(w, [1, 1, 2, 2, 3, 3, 4, 4, 4, 5]);
    }
}
