//! A running simulation instance.

use std::ffi::{c_void, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;
use std::time::Instant;

use crate::ffi::{Inst, Status};
use crate::library::ModelInner;
use crate::ports::{check_stimulus, fits, hex, Dir, PortInfo, Storage};
use crate::SimError;

/// Initial value of the replay checksum.
pub const CHECKSUM_INIT: u64 = 0xcbf2_9ce4_8422_2325;

/// Folds one 64-bit output word into a replay checksum (FNV-1a style, as `wg_fold` in the
/// C++ benchmark).
#[inline]
pub fn fold_checksum(h: u64, word: u64) -> u64 {
    (h ^ word).wrapping_mul(0x0000_0100_0000_01b3)
}

/// A port of one model, found by [`Sim::port`]: an index, cheap to copy. It is valid for
/// every instance of the same model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PortId(pub(crate) u32);

impl PortId {
    /// Position of the port in [`Model::ports`](crate::Model::ports).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a port's value lives in the Verilated model object.
#[derive(Clone, Copy)]
struct Slot {
    ptr: *mut c_void,
    storage: Storage,
    /// Mask of the low 64 bits of the port.
    mask: u64,
}

impl Slot {
    /// Writes `v` (already within the port's width); the bits above 64 become 0.
    #[inline]
    fn write(&self, v: u64) {
        // SAFETY: `ptr` points to the model member of this storage type (wg_port_pointers),
        // which lives as long as the instance; only the instance's owner (a `Sim`, through
        // `&mut self`) writes it.
        unsafe {
            match self.storage {
                Storage::U8 => *self.ptr.cast::<u8>() = v as u8,
                Storage::U16 => *self.ptr.cast::<u16>() = v as u16,
                Storage::U32 => *self.ptr.cast::<u32>() = v as u32,
                Storage::U64 => *self.ptr.cast::<u64>() = v,
                Storage::Wide { words } => {
                    let p = self.ptr.cast::<u32>();
                    for i in 0..words {
                        *p.add(i) = if i < 2 { (v >> (32 * i)) as u32 } else { 0 };
                    }
                }
            }
        }
    }

    /// Writes little-endian 64-bit `words` (already within the port's width); missing
    /// words are 0.
    #[inline]
    fn write_words(&self, words: &[u64]) {
        match self.storage {
            Storage::Wide { words: n32 } => {
                let p = self.ptr.cast::<u32>();
                for i in 0..n32 {
                    let w = words.get(i / 2).copied().unwrap_or(0);
                    // SAFETY: as in `write`; i < the member's word count.
                    unsafe { *p.add(i) = (w >> (32 * (i % 2))) as u32 };
                }
            }
            _ => self.write(words.first().copied().unwrap_or(0)),
        }
    }

    /// Reads 64-bit word `i` of the value (0 past the end).
    #[inline]
    fn read_word(&self, i: usize) -> u64 {
        // SAFETY: as in `write`; reads only within the member.
        let v = unsafe {
            match self.storage {
                Storage::U8 if i == 0 => u64::from(*self.ptr.cast::<u8>()),
                Storage::U16 if i == 0 => u64::from(*self.ptr.cast::<u16>()),
                Storage::U32 if i == 0 => u64::from(*self.ptr.cast::<u32>()),
                Storage::U64 if i == 0 => *self.ptr.cast::<u64>(),
                Storage::Wide { words } => {
                    let p = self.ptr.cast::<u32>();
                    let lo = if 2 * i < words {
                        u64::from(*p.add(2 * i))
                    } else {
                        0
                    };
                    let hi = if 2 * i + 1 < words {
                        u64::from(*p.add(2 * i + 1))
                    } else {
                        0
                    };
                    lo | hi << 32
                }
                _ => 0,
            }
        };
        if i == 0 {
            v & self.mask
        } else {
            v
        }
    }
}


/// Whether the simulation can still evaluate.
#[derive(Debug, Clone)]
enum State {
    Running,
    Died(String),
    Finished(String),
}

/// Result of a replay run (see [`Model::replay_bench_report`] and [`Sim::replay`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchReport {
    /// Cycles simulated (stimulus length × repeat).
    pub cycles: u64,
    /// Wall-clock time of the cycle loop alone.
    pub seconds: f64,
    /// Checksum of every output word read after each cycle's input evaluation: equal
    /// checksums mean equal behaviour (see [`fold_checksum`](crate::fold_checksum)).
    pub checksum: u64,
}

impl BenchReport {
    /// Simulated cycles per second of wall-clock time.
    pub fn cycles_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.cycles as f64 / self.seconds
        } else {
            f64::INFINITY
        }
    }
}

/// One simulation instance of a [`Model`](crate::Model): its own Verilated context and
/// model object, driven port by port.
///
/// Values are written into and read from the Verilated model's members directly: `set` and
/// `get` cost a few nanoseconds, and evaluation is one call into the library.
pub struct Sim {
    model: Arc<ModelInner>,
    inst: NonNull<Inst>,
    slots: Vec<Slot>,
    state: State,
    cycle: u64,
    vcd_open: bool,
    /// Writes every cycle's inputs as stimulus ([`record_stimulus`](Sim::record_stimulus)).
    recorder: Option<crate::stimulus::Recorder>,
}

// SAFETY: a `Sim` exclusively owns its instance (context, model, trace file); Verilator
// models may be used from any thread as long as not from two at once, which `&mut self`
// guarantees. The library it points into is kept alive by `model`.
unsafe impl Send for Sim {}

impl Sim {
    pub(crate) fn new(model: Arc<ModelInner>) -> Result<Sim, SimError> {
        let mut status = 0i32;
        // SAFETY: wg_create has no preconditions; it returns null only when out of memory.
        let inst = unsafe { (model.lib.api.create)(&mut status) };
        let inst = NonNull::new(inst).ok_or_else(|| SimError::Died {
            message: "out of memory creating the model".to_string(),
        })?;
        let mut ptrs = vec![std::ptr::null_mut::<c_void>(); model.ports.len()];
        // SAFETY: `ptrs` has one entry per port of the table.
        unsafe { (model.lib.api.port_pointers)(inst.as_ptr(), ptrs.as_mut_ptr()) };
        let slots = model
            .ports
            .iter()
            .zip(ptrs)
            .map(|(p, ptr)| Slot {
                ptr,
                storage: Storage::for_width(p.width),
                mask: if p.width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << p.width) - 1
                },
            })
            .collect();
        let mut sim = Sim {
            model,
            inst,
            slots,
            state: State::Running,
            cycle: 0,
            vcd_open: false,
            recorder: None,
        };
        sim.check(status.into())?;
        Ok(sim)
    }

    /// The port called `name`; the error lists the ports there are.
    pub fn port(&self, name: &str) -> Result<PortId, SimError> {
        match self.model.index.get(name) {
            Some(&i) => Ok(PortId(i as u32)),
            None => Err(SimError::UnknownPort {
                name: name.to_string(),
                available: self.model.ports.iter().map(|p| p.name.clone()).collect(),
            }),
        }
    }

    /// All ports, as [`Model::ports`](crate::Model::ports).
    pub fn ports(&self) -> &[PortInfo] {
        &self.model.ports
    }

    /// Name, direction and width of port `p`.
    pub fn info(&self, p: PortId) -> &PortInfo {
        &self.model.ports[p.index()]
    }

    /// Sets input `p` to `v`. Errors: `p` is an output, `v` has bits above the port's width,
    /// or the simulation has died or finished. Ports wider than 64 bits get `v` in their low
    /// bits and 0 above.
    pub fn set(&mut self, p: PortId, v: u64) -> Result<(), SimError> {
        self.set_wide(p, std::slice::from_ref(&v))
    }

    /// Sets input `p` to the value of little-endian 64-bit `words` (any width; missing
    /// words are 0). Errors as [`set`](Sim::set).
    pub fn set_wide(&mut self, p: PortId, words: &[u64]) -> Result<(), SimError> {
        self.running()?;
        let info = self.info(p);
        if info.dir != Dir::In {
            return Err(SimError::NotAnInput {
                port: info.name.clone(),
            });
        }
        if !fits(words, info.width) {
            return Err(SimError::ValueTooWide {
                port: info.name.clone(),
                width: info.width,
                value: hex(words),
            });
        }
        self.slots[p.index()].write_words(words);
        Ok(())
    }

    /// Sets port `p` to `v` truncated to the port's width, without checking direction,
    /// width or state: the fast path for hot loops. (Writing an output is harmless: the
    /// next evaluation overwrites it.)
    #[inline]
    pub fn set_unchecked(&mut self, p: PortId, v: u64) {
        let slot = &self.slots[p.index()];
        slot.write(v & slot.mask);
    }

    /// The low 64 bits of port `p` (input or output).
    #[inline]
    pub fn get(&self, p: PortId) -> u64 {
        self.slots[p.index()].read_word(0)
    }

    /// Word `i` (bits `64*i ..`) of port `p`, without allocating; 0 past the port's width.
    #[inline]
    pub fn get_word(&self, p: PortId, i: usize) -> u64 {
        if i < self.info(p).words() {
            self.slots[p.index()].read_word(i)
        } else {
            0
        }
    }

    /// All bits of port `p` as little-endian 64-bit words (`ceil(width / 64)` of them).
    pub fn get_wide(&self, p: PortId) -> Vec<u64> {
        let slot = &self.slots[p.index()];
        (0..self.info(p).words())
            .map(|i| slot.read_word(i))
            .collect()
    }

    /// Evaluates the model: settles combinational logic after inputs changed. Verilator's
    /// convergence limit bounds it: a combinational loop that does not settle kills the
    /// simulation with an error instead of hanging.
    #[inline]
    pub fn eval(&mut self) -> Result<(), SimError> {
        self.running()?;
        // SAFETY: the instance is alive (not destroyed before drop) and not dead.
        let status = unsafe { (self.model.lib.api.eval)(self.inst.as_ptr()) };
        self.check(status.into())
    }

    /// One rising edge of input `clock`: `clock = 1`, evaluate, `clock = 0`, evaluate. With a
    /// VCD open, the state before the edge is dumped at time `2n` and the state after it at
    /// `2n + 1`, where `n` counts ticks. Requires a 1-bit input named `clock`.
    #[inline]
    pub fn tick(&mut self) -> Result<(), SimError> {
        if !self.model.has_clock {
            return Err(SimError::NoClock);
        }
        self.running()?;
        if self.recorder.is_some() {
            self.record_line()?;
        }
        // SAFETY: as in `eval`.
        let status: Status = unsafe { (self.model.lib.api.tick)(self.inst.as_ptr()) }.into();
        if status != Status::Died {
            self.cycle += 1;
        }
        self.check(status)
    }

    /// Writes, at every [`tick`](Sim::tick) from now on, one line of warpgen's replay
    /// stimulus to `out`: every input (but the clock) with the value it has at the edge. The
    /// lines replay this run's inputs in `warpgen sim` (any simulator). Flushed when the `Sim`
    /// drops.
    pub fn record_stimulus(&mut self, out: Box<dyn std::io::Write + Send>) {
        self.recorder = Some(crate::stimulus::Recorder::new(&self.model.ports, out));
    }

    #[cold]
    fn record_line(&mut self) -> Result<(), SimError> {
        let mut r = self.recorder.take().expect("recording");
        let res = r.line(self);
        self.recorder = Some(r);
        res.map_err(|e| SimError::io("writing the recorded stimulus", e))
    }

    /// Number of completed [`tick`](Sim::tick)s.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Starts writing a VCD waveform of this instance to `path` (one per instance); it is
    /// written at every `tick` and flushed and closed when the `Sim` drops or dies. Requires a
    /// model built with `trace: true`.
    pub fn open_vcd(&mut self, path: &Path) -> Result<(), SimError> {
        if !self.model.has_trace {
            return Err(SimError::TraceNotBuilt);
        }
        self.running()?;
        let trace_err = |message: String| SimError::Trace {
            path: path.to_path_buf(),
            message,
        };
        if self.vcd_open {
            return Err(trace_err("this instance already writes a VCD".to_string()));
        }
        let c_path = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| trace_err("the path contains a NUL byte".to_string()))?;
        // SAFETY: live instance; the path is a NUL-terminated string the call only reads.
        let status: Status =
            unsafe { (self.model.lib.api.trace_open)(self.inst.as_ptr(), c_path.as_ptr()) }.into();
        if status != Status::Ok {
            return Err(trace_err(self.message()));
        }
        self.vcd_open = true;
        Ok(())
    }

    /// Flushes and closes the VCD opened by [`open_vcd`](Sim::open_vcd), if any, after
    /// dumping the current state.
    pub fn close_vcd(&mut self) {
        if self.vcd_open {
            // SAFETY: live instance.
            unsafe { (self.model.lib.api.trace_close)(self.inst.as_ptr()) };
            self.vcd_open = false;
        }
    }

    /// Runs `stimulus` `repeat` times through this instance, as
    /// [`Model::replay_bench_report`](crate::Model::replay_bench_report) does in plain C++:
    /// per cycle, set every stimulus port, `eval`, fold every output into the checksum,
    /// `tick`. Equal checksums mean the harness and the C++ loop saw the same outputs.
    pub fn replay(
        &mut self,
        stimulus: &[Vec<u64>],
        repeat: usize,
    ) -> Result<BenchReport, SimError> {
        check_stimulus(&self.model.ports, stimulus)?;
        let ports = &self.model.ports;
        let inputs: Vec<(Slot, usize)> = ports
            .iter()
            .zip(&self.slots)
            .filter(|(p, _)| p.is_stimulus())
            .map(|(p, s)| (*s, p.words()))
            .collect();
        let outputs: Vec<(Slot, usize)> = ports
            .iter()
            .zip(&self.slots)
            .filter(|(p, _)| p.dir == Dir::Out)
            .map(|(p, s)| (*s, p.words()))
            .collect();
        let mut h = CHECKSUM_INIT;
        let start = Instant::now();
        for _ in 0..repeat {
            for values in stimulus {
                let mut k = 0;
                for &(slot, n) in &inputs {
                    if n == 1 {
                        slot.write(values[k]);
                    } else {
                        slot.write_words(&values[k..k + n]);
                    }
                    k += n;
                }
                self.eval()?;
                for &(slot, n) in &outputs {
                    for i in 0..n {
                        h = fold_checksum(h, slot.read_word(i));
                    }
                }
                if self.model.has_clock {
                    self.tick()?;
                }
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        Ok(BenchReport {
            cycles: (stimulus.len() * repeat) as u64,
            seconds,
            checksum: h,
        })
    }

    fn running(&self) -> Result<(), SimError> {
        match &self.state {
            State::Running => Ok(()),
            State::Died(message) => Err(SimError::Died {
                message: message.clone(),
            }),
            State::Finished(message) => Err(SimError::Finished {
                message: message.clone(),
            }),
        }
    }

    /// Turns an evaluation status into a result, recording death or `$finish`.
    #[inline]
    fn check(&mut self, status: Status) -> Result<(), SimError> {
        if status == Status::Ok {
            Ok(())
        } else {
            self.fail(status)
        }
    }

    #[cold]
    fn fail(&mut self, status: Status) -> Result<(), SimError> {
        match status {
            Status::Died => {
                self.state = State::Died(self.message());
                self.vcd_open = false; // the shim closed it
            }
            Status::Finished => self.state = State::Finished(self.message()),
            Status::NoClock => return Err(SimError::NoClock),
            other => {
                self.state = State::Died(format!(
                    "unexpected status {other:?} from the simulation library"
                ))
            }
        }
        self.running()
    }

    fn message(&self) -> String {
        // SAFETY: live instance.
        unsafe { self.model.lib.message(self.inst.as_ptr()) }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        if let Some(r) = &mut self.recorder {
            let _ = r.flush();
        }
        // SAFETY: the instance is destroyed exactly once, here; the library outlives it
        // (`self.model` drops after this).
        unsafe { (self.model.lib.api.destroy)(self.inst.as_ptr()) };
    }
}

impl std::fmt::Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim")
            .field("cycle", &self.cycle)
            .field("state", &self.state)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_checks_every_word() {
        assert!(fits(&[1], 1));
        assert!(!fits(&[2], 1));
        assert!(fits(&[u64::MAX], 64));
        assert!(!fits(&[0, 1], 64));
        assert!(fits(&[u64::MAX, 0xf], 68));
        assert!(!fits(&[0, 0x10], 68));
        assert!(fits(&[5], 100));
    }

    #[test]
    fn hex_is_most_significant_first() {
        assert_eq!(hex(&[0]), "0x0");
        assert_eq!(hex(&[0x10, 0x1]), "0x10000000000000010");
    }
}
