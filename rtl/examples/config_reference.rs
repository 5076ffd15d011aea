//! Rewrites the key tables of docs/config.md from `config::KEYS`, the table the validator
//! reads its ranges from: `cargo run -p warpgen-rtl --example config_reference`.
//! `rtl/tests/config_doc.rs` fails while the committed page differs from what this writes.

use std::path::Path;
use warpgen_rtl::config::rewrite_tables;

fn main() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/config.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let new = rewrite_tables(&text);
    if new == text {
        println!("{}: up to date", path.display());
    } else {
        std::fs::write(&path, new).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("{}: key tables rewritten from config::KEYS", path.display());
    }
}
