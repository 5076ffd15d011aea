use warpgen_sim::*;
fn main() {
    let v = Verilator::find().unwrap();
    let e = v.build(&BuildSpec::new("broken").source("broken.v", "module broken(input a, output b);\n  assign b = a +;\nendmodule\n")).unwrap_err();
    println!("=== build error:\n{e}\n");
    let m = v.build(&BuildSpec::new("stopper").source("stopper.v", r#"
module stopper(input clock, input fatal, output reg [7:0] count);
    initial count = 8'd0;
    always @(posedge clock) begin
        count <= count + 8'd1;
        if (fatal) $fatal(1, "fatal requested at count %0d", count);
    end
endmodule
"#)).unwrap();
    let mut s = m.instantiate().unwrap();
    let f = s.port("fatal").unwrap();
    s.set(f, 1).unwrap();
    println!("=== died:\n{}\n", s.tick().unwrap_err());
    println!("=== unknown:\n{}\n", s.port("x").unwrap_err());
    let m2 = v.build(&BuildSpec::new("comb_loop").source("comb_loop.v", "module comb_loop(input x, output y);\n  wire a;\n  assign a = x ? ~a : 1'b0;\n  assign y = a;\nendmodule\n")).unwrap();
    let mut s2 = m2.instantiate().unwrap();
    let x = s2.port("x").unwrap(); s2.set(x,1).unwrap();
    println!("=== loop:\n{}\n", s2.eval().unwrap_err());
    println!("{}", std::fs::read_to_string(m2.build_dir().join("wg_ports.h")).unwrap());
    std::fs::write("/tmp/latchy.v", "module latchy(input en, input [3:0] d, output reg [3:0] q);\n    always @* if (en) q = d;\nendmodule\n").unwrap();
    println!("=== latch:\n{}\n", yosys_check(&["/tmp/latchy.v".into()], "latchy").unwrap_err());
    std::fs::write("/tmp/flop.v", "module flop(input wire clock, input wire [3:0] d, output reg [3:0] q);\n  wire [3:0] spare = d;\n  always @(posedge clock) q <= d;\nendmodule\n").unwrap();
    println!("=== lint:\n{}\n", verilator_lint(&v, &["/tmp/flop.v".into()], &[]).unwrap_err());
}
