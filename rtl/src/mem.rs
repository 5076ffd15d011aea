//! Memories shared by the blocks.
//!
//! rust-hdl's `RAM` widget reads every cycle (no read enable) and is sized by
//! const generics. [`SyncRam`] is sized at run time, like everything a config
//! counts, and holds its read data until the next enabled read, which is what a
//! block needs when a registered output must stay stable under back-pressure
//! while the row it came from is rewritten. [`sync_ram_module`] writes the same
//! memory as a standalone module with vector ports, for designs assembled as text.

use crate::hdl::signals;
use rust_hdl::prelude::*;

/// A simple dual-port synchronous RAM: `depth` words of `width` bits, one write
/// port and one read port with read enable, one clock.
///
/// * Write: at a rising edge with `write_enable`, `mem[write_address] <= write_data`.
/// * Read: at a rising edge with `read_enable`, `read_data <= mem[read_address]`;
///   without it `read_data` keeps its value. A read and a write of the same
///   address at one edge return the old word (read-before-write).
/// * `read_data` is 0 until the first enabled read; the words are undefined
///   until written (no reset: a RAM has none).
///
/// Ports are vectors of bits, so that no width is a const generic: address bit
/// `i` is `write_address[i]` / `read_address[i]` (exactly ceil(log2 depth) of
/// them, none for a one-word memory), data bit `i` is `write_data[i]` /
/// `read_data[i]`.
///
/// The Verilog is the style yosys infers as block RAM (a `reg` array written in
/// one clocked block and read into a register in another; with
/// `synth_ice40` an `SB_RAM40_4K` per 256 x 16 bits, read enable on `RE`). The
/// array carries `ram_style = "block"` so that small tables, which yosys would
/// otherwise build from flip-flops, use block RAM too; Verilator ignores the
/// attribute.
#[derive(LogicBlock)]
pub struct SyncRam {
    pub clock: Signal<In, Clock>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Vec<Signal<In, Bit>>,
    pub write_data: Vec<Signal<In, Bit>>,
    pub read_enable: Signal<In, Bit>,
    pub read_address: Vec<Signal<In, Bit>>,
    pub read_data: Vec<Signal<Out, Bit>>,
    /// Words, and the contents for rust-hdl's own simulator.
    _depth: usize,
    _words: Vec<Vec<bool>>,
    _read: Vec<bool>,
}

/// Bits of an address of `depth` words: ceil(log2 depth), 0 for one word.
pub fn address_bits(depth: usize) -> usize {
    let mut b = 0;
    while (1usize << b) < depth {
        b += 1;
    }
    b
}

impl SyncRam {
    /// A RAM of `depth` (at least 1) words of `width` (at least 1) bits.
    pub fn new(depth: usize, width: usize) -> Self {
        assert!(depth >= 1 && width >= 1, "SyncRam needs at least one word of one bit");
        let aw = address_bits(depth);
        SyncRam {
            clock: Signal::default(),
            write_enable: Signal::default(),
            write_address: signals(aw),
            write_data: signals(width),
            read_enable: Signal::default(),
            read_address: signals(aw),
            read_data: signals(width),
            _depth: depth,
            _words: vec![vec![false; width]; depth],
            _read: vec![false; width],
        }
    }

    /// `{name[n-1], …, name[0]}` in rust-hdl's port names (`name$i`).
    fn concat(name: &str, n: usize) -> String {
        let bits: Vec<String> = (0..n).rev().map(|i| format!("{name}${i}")).collect();
        format!("{{{}}}", bits.join(", "))
    }

    fn address_of(bits: &[Signal<In, Bit>]) -> usize {
        bits.iter().enumerate().fold(0, |a, (i, b)| a | ((b.val() as usize) << i))
    }
}

impl Logic for SyncRam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let ra = Self::address_of(&self.read_address);
            if self.read_enable.val() {
                self._read = self._words.get(ra).cloned().unwrap_or_else(|| vec![false; self.read_data.len()]);
            }
            let wa = Self::address_of(&self.write_address);
            if self.write_enable.val() && wa < self._depth {
                self._words[wa] = self.write_data.iter().map(|b| b.val()).collect();
            }
        }
        for (q, v) in self.read_data.iter_mut().zip(&self._read) {
            q.next = *v;
        }
    }

    fn connect(&mut self) {
        for q in &mut self.read_data {
            q.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let width = self.write_data.len();
        let aw = self.write_address.len();
        let (word, wa, ra) = if aw == 0 {
            ("[0]".to_string(), String::new(), String::new())
        } else {
            (
                "[addr]".to_string(),
                format!("    wire [{}:0] wa = {};\n", aw - 1, Self::concat("write_address", aw)),
                format!("    wire [{}:0] ra = {};\n", aw - 1, Self::concat("read_address", aw)),
            )
        };
        let wr = word.replace("addr", "wa");
        let rd = word.replace("addr", "ra");
        let unpack: String = (0..width).map(|i| format!("        read_data${i} = rd[{i}];\n")).collect();
        let processes = processes(width, self._depth, &wr, &rd, "wd", "rd");
        Verilog::Custom(format!(
            "    reg [{msb}:0] rd;\n{wa}{ra}    wire [{msb}:0] wd = {wd};\n\n{processes}\n    always @(*) begin\n{unpack}    end\n",
            msb = width - 1,
            wd = Self::concat("write_data", width),
        ))
    }
}

/// The memory array and its processes, shared by [`SyncRam`] and [`sync_ram_module`]:
/// `width` x `depth` words with the block-RAM attributes, `rd` (already declared as a
/// `width`-bit reg) zero at start, written at `mem[wr_index] <= wd` with `write_enable`
/// and read into `rd` from `mem[rd_index]` with `read_enable` (read-before-write).
fn processes(width: usize, depth: usize, wr_index: &str, rd_index: &str, wd: &str, rd: &str) -> String {
    format!(
        "\
    (* ram_style = \"block\", no_rw_check, nomem2reg *)
    reg [{msb}:0] mem [0:{last}];

    initial begin
        {rd} = {width}'h0;
    end

    always @(posedge clock) begin
        if (write_enable) begin
            mem{wr_index} <= {wd};
        end
    end

    always @(posedge clock) begin
        if (read_enable) begin
            {rd} <= mem{rd_index};
        end
    end
",
        msb = width - 1,
        last = depth - 1,
    )
}

/// The same RAM as standalone Verilog named `name`, with vector ports, for a design
/// assembled as text whose widths are known only at run time (global_spreader's
/// netlist): `2^a` words of `d` bits, ports `clock, write_enable, write_address[a],
/// write_data[d], read_enable, read_address[a], read_data[d]` in that order.
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
        body = processes(d, 1 << a, "[write_address]", "[read_address]", "write_data", "read_data"),
    )
}
