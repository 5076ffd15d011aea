//! Failures: build errors, $fatal / $stop / $finish, assertions, combinational loops, and
//! the messages for missing tools.

mod common;

use common::{build, get, set, verilator};
use warpgen_sim::{BuildSpec, SimError};

#[test]
fn build_error_carries_verilators_message() {
    let spec = BuildSpec::new("broken").source(
        "broken.v",
        "module broken(input a, output b);\n  assign b = a +;\nendmodule\n",
    );
    let err = verilator().build(&spec).unwrap_err();
    assert!(matches!(err, SimError::CommandFailed { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("verilator"), "{msg}");
    assert!(
        msg.contains("broken.v:2"),
        "Verilator's location is missing: {msg}"
    );
    assert!(
        msg.contains("syntax error"),
        "Verilator's message is missing: {msg}"
    );
}

#[test]
fn missing_top_module_is_a_build_error() {
    let spec = BuildSpec::new("absent").source(
        "present.v",
        "module present(input a, output b);\n  assign b = a;\nendmodule\n",
    );
    let msg = verilator().build(&spec).unwrap_err().to_string();
    assert!(msg.contains("absent"), "{msg}");
}

#[test]
fn invalid_specs_are_rejected_before_building() {
    let v = verilator();
    let ok = "module m(input a, output b); assign b = a; endmodule\n";
    let cases = [
        BuildSpec::new("1m").source("m.v", ok),
        BuildSpec::new("m"),
        BuildSpec::new("m").source("../m.v", ok),
        BuildSpec::new("m").source("m.v", ok).source("m.v", ok),
        BuildSpec::new("m").source("-Wall", ok),
    ];
    for spec in &cases {
        let err = v.build(spec).unwrap_err();
        assert!(matches!(err, SimError::InvalidSpec(_)), "{spec:?}: {err}");
    }
}

const STOPPER: &str = r#"
module stopper(input clock, input fatal, input stop, input finish, input check, output reg [7:0] count);
    initial count = 8'd0;
    always @(posedge clock) begin
        count <= count + 8'd1;
        if (fatal) $fatal(1, "fatal requested at count %0d", count);
        if (stop) $stop;
        if (finish) $finish;
    end
    always @(posedge clock) if (check) assert (count != 8'd3) else $error("count reached three");
endmodule
"#;

fn stopper() -> &'static warpgen_sim::Model {
    static MODEL: std::sync::OnceLock<warpgen_sim::Model> = std::sync::OnceLock::new();
    MODEL.get_or_init(|| build("stopper", STOPPER))
}

fn assert_dead(sim: &mut warpgen_sim::Sim, expect: &str) {
    let err = sim.tick().unwrap_err();
    let SimError::Died { message } = &err else {
        panic!("expected Died, got {err:?}")
    };
    assert!(message.contains(expect), "{message}");
    // Dead for good: every later call fails the same way.
    assert!(matches!(sim.eval(), Err(SimError::Died { .. })));
    assert!(matches!(sim.tick(), Err(SimError::Died { .. })));
    let clock = sim.port("count").unwrap();
    assert!(matches!(
        sim.set(sim.port("fatal").unwrap(), 0),
        Err(SimError::Died { .. })
    ));
    let _ = sim.get(clock); // reading the last values still works
}

#[test]
fn fatal_kills_the_sim_not_the_process() {
    let mut sim = stopper().instantiate().unwrap();
    sim.tick().unwrap();
    sim.tick().unwrap();
    set(&mut sim, "fatal", 1);
    assert_dead(&mut sim, "fatal requested at count 2");
    // Other instances of the same model are unaffected.
    let mut other = stopper().instantiate().unwrap();
    other.tick().unwrap();
    assert_eq!(get(&other, "count"), 1);
}

#[test]
fn stop_kills_the_sim() {
    let mut sim = stopper().instantiate().unwrap();
    set(&mut sim, "stop", 1);
    assert_dead(&mut sim, "$stop");
}

#[test]
fn failed_assertion_kills_the_sim() {
    let mut sim = stopper().instantiate().unwrap();
    set(&mut sim, "check", 1);
    for _ in 0..3 {
        sim.tick().unwrap();
    }
    assert_dead(&mut sim, "count reached three");
}

#[test]
fn finish_completes_the_evaluation_then_reports() {
    let mut sim = stopper().instantiate().unwrap();
    sim.tick().unwrap();
    set(&mut sim, "finish", 1);
    let err = sim.tick().unwrap_err();
    assert!(matches!(err, SimError::Finished { .. }), "{err:?}");
    assert!(err.to_string().contains("$finish"), "{err}");
    assert_eq!(get(&sim, "count"), 2, "the edge that ran $finish completed");
    assert_eq!(sim.cycle(), 2);
    assert!(matches!(sim.eval(), Err(SimError::Finished { .. })));
    assert!(matches!(sim.tick(), Err(SimError::Finished { .. })));
}

#[test]
fn combinational_loop_is_an_error_not_a_hang() {
    let model = build(
        "comb_loop",
        "module comb_loop(input x, output y);\n  wire a;\n  assign a = x ? ~a : 1'b0;\n  assign y = a;\nendmodule\n",
    );
    let mut sim = model.instantiate().unwrap();
    sim.eval().unwrap();
    set(&mut sim, "x", 1);
    let err = sim.eval().unwrap_err();
    let SimError::Died { message } = &err else {
        panic!("expected Died, got {err:?}")
    };
    assert!(message.contains("converge"), "{message}");
}

#[test]
fn missing_tools_say_how_to_install_them() {
    let verilator = SimError::ToolNotFound {
        tool: "verilator",
        env_override: None,
    };
    assert_eq!(
        verilator.to_string(),
        "verilator not found on PATH: install it with `apt-get install verilator` (or `make deps`)"
    );
    let yosys = SimError::ToolNotFound {
        tool: "yosys",
        env_override: None,
    };
    assert_eq!(
        yosys.to_string(),
        "yosys not found on PATH: install it with `apt-get install yosys` (or `make deps`)"
    );
    let overridden = SimError::ToolNotFound {
        tool: "verilator",
        env_override: Some(("VERILATOR", "/nowhere/v".into())),
    };
    assert!(overridden.to_string().contains("VERILATOR=\"/nowhere/v\""));
}
