//! Synchronous RAM that synthesis maps to block RAM.
//!
//! [`SyncRam`] is a `D`-bit by `2^A`-entry memory with one write port and one
//! registered read port with a read enable, on one clock:
//!
//! * at a rising edge with `write_enable`, `mem[write_address] <= write_data`;
//! * at a rising edge with `read_enable`, `read_data <= mem[read_address]`,
//!   the contents *before* that edge's write (read-first); otherwise
//!   `read_data` holds.
//!
//! Contents are not reset (block RAM has no reset): a user keeps its own valid
//! bits. The read data register is the RAM's output register, so yosys
//! `synth_ice40` infers `SB_RAM40_4K` (and Xilinx/Intel flows their block RAMs).
//!
//! The Verilog body is custom text ([`Verilog::Custom`]); [`sync_ram_module`]
//! writes the same module as a standalone text for a width and depth known only
//! at run time (a core assembled from several designs instantiates it by name).

use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// A synchronous-read RAM of `2^A` words of `D` bits (see the module doc).
#[derive(LogicBlock, Default)]
pub struct SyncRam<const D: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<A>>,
    pub write_data: Signal<In, Bits<D>>,
    pub read_enable: Signal<In, Bit>,
    pub read_address: Signal<In, Bits<A>>,
    pub read_data: Signal<Out, Bits<D>>,
    /// Contents, for rust-hdl's own simulation.
    _sim: Box<BTreeMap<Bits<A>, Bits<D>>>,
}

impl<const D: usize, const A: usize> Logic for SyncRam<D, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.read_enable.val() {
                self.read_data.next = self._sim.get(&self.read_address.val()).copied().unwrap_or_default();
            }
            if self.write_enable.val() {
                self._sim.insert(self.write_address.val(), self.write_data.val());
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(body(D, A))
    }

    fn timing(&self) -> Vec<rust_hdl::core::timing::TimingInfo> {
        vec![rust_hdl::core::timing::TimingInfo {
            name: "sync_ram".into(),
            clock: "clock".into(),
            inputs: vec![
                "write_enable".into(),
                "write_address".into(),
                "write_data".into(),
                "read_enable".into(),
                "read_address".into(),
            ],
            outputs: vec!["read_data".into()],
        }]
    }
}

/// The body of the RAM module: the memory and its one clocked process.
fn body(d: usize, a: usize) -> String {
    format!(
        "reg [{dm}:0] mem[0:{am}];

always @(posedge clock) begin
    if (write_enable) begin
        mem[write_address] <= write_data;
    end
    if (read_enable) begin
        read_data <= mem[read_address];
    end
end
",
        dm = d - 1,
        am = (1usize << a) - 1
    )
}

/// The [`SyncRam`] module for `d` data bits and `a` address bits as standalone
/// Verilog named `name`: the ports of rust-hdl's module for `SyncRam<d, a>`, in
/// the same order, and the same body.
pub fn sync_ram_module(name: &str, d: usize, a: usize) -> String {
    assert!(d >= 1 && a >= 1, "a RAM has at least one data and one address bit");
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    format!(
        "module {name}(clock,write_enable,write_address,write_data,read_enable,read_address,read_data);
    input wire clock;
    input wire write_enable;
    input wire {ra}write_address;
    input wire {rd}write_data;
    input wire read_enable;
    input wire {ra}read_address;
    output reg {rd}read_data;
{body}endmodule // {name}
",
        ra = range(a),
        rd = range(d),
        body = body(d, a)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standalone_module_matches_the_rust_hdl_block() {
        let mut ram = SyncRam::<17, 7>::default();
        ram.connect_all();
        let v = generate_verilog(&ram);
        // rust-hdl declares the same ports in the same order, and holds the same body.
        assert!(v.contains("module top(clock,write_enable,write_address,write_data,read_enable,read_address,read_data);"), "{v}");
        assert!(v.contains("input wire  [6:0] write_address;"), "{v}");
        assert!(v.contains("output reg  [16:0] read_data;"), "{v}");
        // (rust-hdl indents custom code: compare with whitespace collapsed.)
        let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat(&v).contains(&flat(&body(17, 7))), "{v}");
        assert!(flat(&sync_ram_module("ram", 17, 7)).contains(&flat(&body(17, 7))));
        let t = sync_ram_module("ram", 17, 7);
        assert!(t.contains("reg [16:0] mem[0:127];"), "{t}");
        assert!(t.contains("output reg [16:0] read_data;"), "{t}");
        assert!(t.starts_with("module ram(clock,write_enable,write_address,write_data,read_enable,read_address,read_data);"));
        assert!(sync_ram_module("r", 1, 1).contains("input wire write_address;"));
    }

    #[test]
    fn reads_are_registered_and_read_first() {
        let mut ram = SyncRam::<8, 2>::default();
        ram.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<SyncRam<8, 2>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<SyncRam<8, 2>>| {
            let mut x = sim.init()?;
            // Write 0x5a to word 1 while reading word 1: the read sees the old (0) word.
            x.write_enable.next = true;
            x.write_address.next = 1.into();
            x.write_data.next = 0x5a.into();
            x.read_enable.next = true;
            x.read_address.next = 1.into();
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.read_data.val(), 0, x);
            x.write_enable.next = false;
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.read_data.val(), 0x5a, x);
            // Without read_enable the output holds.
            x.read_enable.next = false;
            x.read_address.next = 0.into();
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.read_data.val(), 0x5a, x);
            sim.done(x)
        });
        sim.run(Box::new(ram), 200).unwrap();
    }
}
