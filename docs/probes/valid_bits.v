// A hand-written probe of the global spreader's valid bits (docs/blocks/global_spreader.md#cost):
// D valid bits with R releases per cycle, one set, one clear (a last pixel), two lookups and the
// err_release check, in the form a designer would write by hand (predecoded one-hot masks,
// an AND-OR per bit). It is not part of the generated block; it measures what the multi-port
// update costs by itself, whatever the generator does:
//   yosys -p 'read_verilog docs/probes/valid_bits.v; chparam -set R 5 valid_bits_probe; synth_ice40 -top valid_bits_probe; stat'
// (R = releases per cycle; ERR = 0 drops the err_release check, LOOK = 0 the lookups.)
module valid_bits_probe #(parameter D = 256, A = 8, R = 5, ERR = 1, LOOK = 1) (
  input clock, input reset,
  input [R-1:0] rel_valid, input [R*A-1:0] rel_addr,
  input set_one, input [A-1:0] set_addr,
  input clr, input [A-1:0] clr_addr,
  input [A-1:0] la0, input [A-1:0] la1,
  output l0, output l1, output [D-1:0] valid, output err_release);
  reg [D-1:0] v;
  assign valid = v;
  wire [15:0] hi [0:R+1];
  wire [15:0] lo [0:R+1];
  genvar e, b;
  generate for (e = 0; e < R; e = e + 1) begin : dec
    assign hi[e] = rel_valid[e] ? (16'd1 << rel_addr[e*A+4 +: 4]) : 16'd0;
    assign lo[e] = 16'd1 << rel_addr[e*A +: 4];
  end endgenerate
  assign hi[R] = set_one ? (16'd1 << set_addr[7:4]) : 16'd0;
  assign lo[R] = 16'd1 << set_addr[3:0];
  assign hi[R+1] = clr ? (16'd1 << clr_addr[7:4]) : 16'd0;
  assign lo[R+1] = 16'd1 << clr_addr[3:0];
  wire [D-1:0] rel, s, c;
  generate for (b = 0; b < D; b = b + 1) begin : bits
    wire [R-1:0] m;
    for (e = 0; e < R; e = e + 1) begin : r
      assign m[e] = hi[e][b/16] & lo[e][b%16];
    end
    assign rel[b] = |m;
    assign s[b] = hi[R][b/16] & lo[R][b%16];
    assign c[b] = hi[R+1][b/16] & lo[R+1][b%16];
  end endgenerate
  assign err_release = ERR ? |(rel & ~v) : 1'b0;
  always @(posedge clock) if (reset) v <= 0; else v <= (v & ~rel & ~c) | s;
  assign l0 = LOOK ? v[la0] : 1'b0;
  assign l1 = LOOK ? v[la1] : 1'b0;
endmodule
