//! Designs and helpers shared by the integration tests.
#![allow(dead_code)] // each test file uses a different subset

use std::sync::OnceLock;

use warpgen_sim::{BuildSpec, Model, Sim, Verilator};

/// A counter with ports of every storage size: 1 bit (CData), 16 bits (SData), 32 bits
/// (IData), 33 bits (QData) and 100 bits (VlWide).
pub const COUNTER: &str = r#"
module counter(
    input              clock,
    input              reset,
    input              enable,
    input      [15:0]  step,
    input              load,
    input      [32:0]  load_value,
    input      [99:0]  wide_in,
    output reg [32:0]  count,
    output     [31:0]  count_low,
    output     [15:0]  step_echo,
    output             odd,
    output     [99:0]  wide_not,
    output reg [99:0]  wide_q
);
    initial begin
        count = 33'd0;
        wide_q = 100'd0;
    end
    always @(posedge clock) begin
        if (reset) count <= 33'd0;
        else if (load) count <= load_value;
        else if (enable) count <= count + {17'd0, step};
        wide_q <= wide_in + 100'd1;
    end
    assign count_low = count[31:0];
    assign step_echo = step;
    assign odd = count[0];
    assign wide_not = ~wide_in;
endmodule
"#;

pub fn verilator() -> Verilator {
    Verilator::find().unwrap_or_else(|e| panic!("{e}"))
}

pub fn counter_spec() -> BuildSpec {
    BuildSpec::new("counter").source("counter.v", COUNTER)
}

/// The counter, built once per test binary (into the default cache).
pub fn counter() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        verilator()
            .build(&counter_spec())
            .unwrap_or_else(|e| panic!("{e}"))
    })
}

/// The counter built with tracing.
pub fn traced_counter() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        verilator()
            .build(&counter_spec().trace(true))
            .unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Builds `verilog` (top module `top`) or panics with the error.
pub fn build(top: &str, verilog: &str) -> Model {
    verilator()
        .build(&BuildSpec::new(top).source(format!("{top}.v"), verilog))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Sets input `name`.
pub fn set(sim: &mut Sim, name: &str, value: u64) {
    let p = sim.port(name).unwrap();
    sim.set(p, value).unwrap_or_else(|e| panic!("{e}"));
}

/// Reads port `name` (low 64 bits).
pub fn get(sim: &Sim, name: &str) -> u64 {
    sim.get(sim.port(name).unwrap())
}
