// A hand-written probe of the task combiner's registered pick loop (contract R4r;
// docs/fpga-flow.md, task_combiner): 16 entries, the next pick = the oldest eligible entry
// other than the one moving, the entries in the last issued state first, with every input of
// the loop a register (eligible, "state equals the last issued", the older-than matrix). It is
// not part of the generated block; it measures what the loop costs by itself on an otherwise
// empty iCE40 HX8K. The inputs load from a serial chain so that nothing is optimized away:
//   yosys -p 'read_verilog docs/probes/pick_loop.v; synth_ice40 -top pick_loop_probe -json pick_loop.json'
//   nextpnr-ice40 --hx8k --package ct256 --json pick_loop.json --freq 100 --pcf-allow-unconstrained --seed 1
module pick_loop_probe (input clk, input si, input slot_free, input ld, output so);
    reg [15:0] elig_q, eqlast_q, pick_q;
    reg [15:0] older_q [0:15];   // older_q[i][j]: entry i is older than entry j
    reg [255:0] sh;
    integer i, j;
    always @(posedge clk) begin
        sh <= {sh[254:0], si};
        if (ld) begin
            elig_q <= sh[15:0];
            eqlast_q <= sh[31:16];
            for (i = 0; i < 16; i = i + 1) older_q[i] <= sh[16*i +: 16] ^ sh[255 - i -: 16];
        end
    end
    // The registered pick moves when the slot is free; the next pick is among the others.
    wire [15:0] el = elig_q & ~(pick_q & {16{slot_free}});
    wire [15:0] sm = el & eqlast_q;
    reg [15:0] old_e, old_s;
    always @(*) begin
        for (i = 0; i < 16; i = i + 1) begin
            old_e[i] = el[i];
            old_s[i] = sm[i];
            for (j = 0; j < 16; j = j + 1)
                if (j != i) begin
                    if (el[j] && !older_q[i][j]) old_e[i] = 1'b0;
                    if (sm[j] && !older_q[i][j]) old_s[i] = 1'b0;
                end
        end
    end
    always @(posedge clk) pick_q <= (|sm) ? old_s : old_e;
    assign so = ^pick_q ^ sh[255];
endmodule
