//! VCD waveforms.

mod common;

use common::{counter, set, traced_counter};
use warpgen_sim::SimError;

/// The VCD identifier code of top-level signal `name`.
fn var_id<'a>(vcd: &'a str, name: &str) -> &'a str {
    vcd.lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            (fields.len() >= 5 && fields[0] == "$var" && fields[4] == name).then(|| fields[3])
        })
        .unwrap_or_else(|| panic!("no $var {name} in\n{vcd}"))
}

/// `(time, value)` of every change of the 1-bit signal with identifier `id`.
fn changes(vcd: &str, id: &str) -> Vec<(u64, char)> {
    let mut time = 0;
    let mut out = Vec::new();
    for line in vcd.lines() {
        if let Some(t) = line.strip_prefix('#') {
            time = t.parse().unwrap();
        } else if line.len() == id.len() + 1
            && line.ends_with(id)
            && (line.starts_with('0') || line.starts_with('1'))
        {
            out.push((time, line.chars().next().unwrap()));
        }
    }
    out
}

#[test]
fn vcd_shows_the_clock_toggling_and_the_registers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("counter.vcd");
    let mut sim = traced_counter().instantiate().unwrap();
    sim.open_vcd(&path).unwrap();
    set(&mut sim, "enable", 1);
    set(&mut sim, "step", 1);
    for _ in 0..4 {
        sim.tick().unwrap();
    }
    drop(sim); // flushes and closes
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.contains("$enddefinitions"), "{vcd}");
    let clock = changes(&vcd, var_id(&vcd, "clock"));
    let expected: Vec<(u64, char)> = (0..=8)
        .map(|t| (t, if t % 2 == 1 { '1' } else { '0' }))
        .collect();
    assert_eq!(clock, expected, "clock low at even times, high at odd ones");
    let odd = changes(&vcd, var_id(&vcd, "odd"));
    assert_eq!(
        odd,
        [(0, '0'), (1, '1'), (3, '0'), (5, '1'), (7, '0')],
        "registers change at the rising edges"
    );
}

#[test]
fn vcd_needs_a_traced_model_and_one_file_per_instance() {
    let dir = tempfile::tempdir().unwrap();
    let mut plain = counter().instantiate().unwrap();
    let err = plain.open_vcd(&dir.path().join("x.vcd")).unwrap_err();
    assert!(matches!(err, SimError::TraceNotBuilt), "{err}");
    assert!(err.to_string().contains("trace: true"), "{err}");

    let mut sim = traced_counter().instantiate().unwrap();
    sim.open_vcd(&dir.path().join("a.vcd")).unwrap();
    let err = sim.open_vcd(&dir.path().join("b.vcd")).unwrap_err();
    assert!(matches!(err, SimError::Trace { .. }), "{err}");
    sim.close_vcd();
    let err = traced_counter()
        .instantiate()
        .unwrap()
        .open_vcd(&dir.path().join("no/such/dir/c.vcd"))
        .unwrap_err();
    assert!(matches!(err, SimError::Trace { .. }), "{err}");
}
