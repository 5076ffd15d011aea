//! docs/config.md, the configuration reference, must match the keys the program
//! checks (`config::KEYS`): every key documented with its range and default, in
//! the table of its block, and no documented key the program does not know; the
//! tables are exactly what `config::rewrite_tables` generates from KEYS.

use warpgen_rtl::config::KEYS;

const CONFIG_DOC: &str = include_str!("../../docs/config.md");

/// The rows `| `key` | range | default | meaning |` of the table under `### `[block]``.
fn rows(block: &str) -> Vec<Vec<String>> {
    let heading = format!("### `[{block}]`");
    let Some(start) = CONFIG_DOC.find(&heading) else { return Vec::new() };
    CONFIG_DOC[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // header and separator
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn every_key_is_documented_with_its_range_and_default() {
    for k in KEYS {
        let (block, key) = k.key.split_once('.').unwrap();
        let rows = rows(block);
        let row = rows
            .iter()
            .find(|r| r[0] == format!("`{key}`"))
            .unwrap_or_else(|| panic!("docs/config.md has no row for `{}` under ### `[{block}]`", k.key));
        assert_eq!(row[1], k.range.to_string(), "docs/config.md: range of {}", k.key);
        assert_eq!(row[2], k.default, "docs/config.md: default of {}", k.key);
    }
}

#[test]
fn every_documented_key_exists() {
    let blocks: std::collections::BTreeSet<&str> = KEYS.iter().map(|k| k.key.split_once('.').unwrap().0).collect();
    for block in blocks {
        for row in rows(block) {
            let key = format!("{block}.{}", row[0].trim_matches('`'));
            assert!(KEYS.iter().any(|k| k.key == key), "docs/config.md documents `{key}`, which the program does not know");
        }
    }
}

#[test]
fn the_key_tables_are_the_ones_generated_from_keys() {
    let generated = warpgen_rtl::config::rewrite_tables(CONFIG_DOC);
    if generated != CONFIG_DOC {
        let first = generated.lines().zip(CONFIG_DOC.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "docs/config.md differs from config::KEYS at line {} (run `cargo run -p warpgen-rtl --example config_reference`):\n  doc: {}\n  gen: {}",
            first + 1,
            CONFIG_DOC.lines().nth(first).unwrap_or(""),
            generated.lines().nth(first).unwrap_or("")
        );
    }
}

#[test]
fn every_simple_range_is_the_validators() {
    // The validator reads Range::Between from KEYS: one past each end must be refused.
    use warpgen_rtl::config::Range;
    use warpgen_rtl::Config;
    for k in KEYS {
        let Range::Between(lo, hi) = k.range else { continue };
        for v in [lo - 1, hi + 1] {
            let err = Config::embedded(&[format!("{}={v}", k.key)]).expect_err(&format!("{} = {v} accepted", k.key));
            assert!(err.to_string().contains(&format!("allowed {lo} to {hi}")), "{}: {err}", k.key);
        }
        for v in [lo, hi] {
            // Both ends are allowed unless another key's rule forbids the combination.
            if let Err(e) = Config::embedded(&[format!("{}={v}", k.key)]) {
                assert!(!e.to_string().contains(&format!("allowed {lo} to {hi}")), "{} = {v}: {e}", k.key);
            }
        }
    }
}
