//! docs/config.md, the configuration reference, must match the keys the program
//! checks (`config::KEYS`): every key documented with its range and default, in
//! the table of its block, and no documented key the program does not know.

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
        assert_eq!(row[1], k.range, "docs/config.md: range of {}", k.key);
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
