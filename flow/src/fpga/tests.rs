//! Unit tests of the flow's targets, wrapper, constraints and runs (the reports' parsing is
//! tested in `report.rs`).

use super::*;

fn port(name: &str, dir: Dir, width: usize) -> PortInfo {
    PortInfo { name: name.into(), dir, width }
}

#[test]
fn targets_round_trip_by_name() {
    for t in Target::ALL {
        assert_eq!(Target::parse(t.name()), Some(t));
    }
    assert_eq!(Target::parse("ice40-hx9k"), None);
}

#[test]
fn clock_constraints_carry_the_frequency() {
    assert_eq!(mhz_text(100.0), "100");
    assert_eq!(mhz_text(62.5), "62.5");
    assert!(clock_constraint(Target::Ice40Hx8k, 62.5).contains("ctx.addClock(\"clock\", 62.5)"));
    assert!(sdc_constraint(80.0).contains("-period 12.500 [get_ports clock]"));
}

/// The wrapper of a block with a 1-bit, a 3-bit and a 5-bit port.
fn small_wrapper() -> String {
    let ports = [
        port("clock", Dir::In, 1),
        port("reset", Dir::In, 1),
        port("a", Dir::In, 3),
        port("y", Dir::Out, 5),
        port("z", Dir::Out, 1),
    ];
    ooc_wrapper("blk", &ports).unwrap()
}

#[test]
fn wrapper_chains_every_input_and_folds_every_output() {
    let v = small_wrapper();
    // The input chain: pin -> reset -> a[0] -> a[1] -> a[2].
    assert!(v.contains("always @(posedge clock) ooc_in_reset <= ooc_si;"), "{v}");
    assert!(v.contains("always @(posedge clock) ooc_in_a <= {ooc_in_a[1:0], ooc_in_reset};"), "{v}");
    // Every output registered, and all six bits folded into two stages of three.
    assert!(v.contains("always @(posedge clock) ooc_out_y <= ooc_w_y;"), "{v}");
    assert!(v.contains("always @(posedge clock) ooc_out_z <= ooc_w_z;"), "{v}");
    assert!(v.contains("ooc_sig[0] <= ooc_out_y[0] ^ ooc_out_y[1] ^ ooc_out_y[2];"), "{v}");
    assert!(v.contains("ooc_sig[1] <= ooc_sig[0] ^ ooc_out_y[3] ^ ooc_out_y[4] ^ ooc_out_z;"), "{v}");
    assert!(v.contains("assign ooc_so = ooc_sig[1];"), "{v}");
    // The block: kept as a module, clock straight from the pin, every port connected once.
    assert!(v.contains("(* keep_hierarchy *)"), "{v}");
    for conn in [".clock(clock)", ".reset(ooc_in_reset)", ".a(ooc_in_a)", ".y(ooc_w_y)", ".z(ooc_w_z)"] {
        assert_eq!(v.matches(conn).count(), 1, "{conn} in {v}");
    }
    assert!(v.starts_with("// Out-of-context wrapper of blk"));
    assert!(v.contains("module warpgen_ooc (\n    input  wire clock,\n    input  wire ooc_si,\n    output wire ooc_so\n);"), "{v}");
}

#[test]
fn wrapper_needs_a_clock_and_plain_names() {
    let no_clock = [port("a", Dir::In, 1), port("y", Dir::Out, 1)];
    let e = ooc_wrapper("blk", &no_clock).unwrap_err().to_string();
    assert!(e.contains("no 1-bit input `clock`"), "{e}");
    let bad = [port("clock", Dir::In, 1), port("a b", Dir::In, 1)];
    assert!(ooc_wrapper("blk", &bad).is_err());
    assert!(ooc_wrapper("1blk", &no_clock).is_err());
    // A block with one output bit: a one-stage signature.
    let one = [port("clock", Dir::In, 1), port("y", Dir::Out, 1)];
    let v = ooc_wrapper("blk", &one).unwrap();
    assert!(v.contains("ooc_sig <= ooc_out_y;") && v.contains("assign ooc_so = ooc_sig;"), "{v}");
}

#[test]
fn gowin_over_capacity_is_known_before_placement() {
    let r = |lut4, bram| Resources { lut4, bram, ..Resources::default() };
    assert_eq!(over_capacity(Target::Gw1nr9, &r(8640, 26)), None);
    assert_eq!(
        over_capacity(Target::Gw1nr9, &r(14467, 7)),
        Some(Placement::DoesNotFit { logic_cells: Some(14467), reason: "needs LUT4 14467 of 8640 (Yosys's count; not placed)".into() })
    );
    assert_eq!(
        over_capacity(Target::Gw1nr9, &r(8000, 32)),
        Some(Placement::DoesNotFit { logic_cells: Some(8000), reason: "needs BSRAM 32 of 26 (Yosys's count; not placed)".into() })
    );
    // The other families' nextpnr decides.
    assert_eq!(over_capacity(Target::Ice40Hx8k, &r(20000, 99)), None);
}

fn fits(fmax: f64, cells: u64) -> Placement {
    Placement::Fits {
        fmax_mhz: fmax,
        fmax_min_mhz: fmax,
        fmax_max_mhz: fmax,
        seeds: Vec::new(),
        constraint_mhz: 100.0,
        logic_cells: cells,
        critical_path: None,
    }
}

#[test]
fn fmax_is_the_median_of_the_seeds_with_the_median_run_s_cells() {
    let p = median_placement(vec![(1, fits(103.0, 10)), (2, fits(97.0, 11)), (3, fits(99.5, 12))]);
    let Placement::Fits { fmax_mhz, fmax_min_mhz, fmax_max_mhz, seeds, logic_cells, .. } = p else { panic!("fits") };
    assert_eq!((fmax_mhz, fmax_min_mhz, fmax_max_mhz, logic_cells), (99.5, 97.0, 103.0, 12));
    assert_eq!(seeds.iter().map(|s| (s.seed, s.fmax_mhz)).collect::<Vec<_>>(), [(1, 103.0), (2, 97.0), (3, 99.5)]);
    // An even count: the mean of the two middle runs; cells of the lower one.
    let p = median_placement(vec![(5, fits(90.0, 1)), (6, fits(100.0, 2)), (7, fits(80.0, 3)), (8, fits(110.0, 4))]);
    let Placement::Fits { fmax_mhz, logic_cells, .. } = p else { panic!("fits") };
    assert_eq!((fmax_mhz, logic_cells), (95.0, 1));
    // One seed is its own median; a run that does not fit is the answer.
    let Placement::Fits { fmax_mhz, seeds, .. } = median_placement(vec![(1, fits(50.0, 9))]) else { panic!("fits") };
    assert_eq!((fmax_mhz, seeds), (50.0, vec![SeedRun { seed: 1, fmax_mhz: 50.0 }]));
    let big = Placement::DoesNotFit { logic_cells: Some(9000), reason: "too big".into() };
    assert_eq!(median_placement(vec![(1, fits(50.0, 9)), (2, big.clone())]), big);
}

#[test]
fn seed_lists_are_checked() {
    assert_eq!(parse_seeds("1,2,3"), Ok(vec![1, 2, 3]));
    assert_eq!(parse_seeds(" 7 "), Ok(vec![7]));
    assert!(parse_seeds("1,x").unwrap_err().contains("`x` is not a seed: allowed 0 to 2147483647"));
    assert!(parse_seeds("").unwrap_err().contains("`` is not a seed"));
    assert!(parse_seeds("1,1").unwrap_err().contains("seed 1 is given twice"));
    assert!(parse_seeds("4294967296").is_err());
}
