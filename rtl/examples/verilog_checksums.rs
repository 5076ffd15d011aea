//! Checksums of the generated Verilog over a broad set of configs: for a restructure that must
//! not change one byte of any block's Verilog, run it before and after and compare the output.
//!
//! ```sh
//! cargo run --release -p warpgen-rtl --example verilog_checksums > before.txt
//! # … restructure …
//! cargo run --release -p warpgen-rtl --example verilog_checksums | diff before.txt -
//! ```
//!
//! The configs: every block at the embedded default config, and for every key whose range
//! (the reference table `KEYS`) lists values (`1 to 64`, `4, 8, 16, 32 or 64`, `true or
//! false`), the default with that key at each listed value (both ends of a `to` range); a value the rest of the
//! default config does not allow is skipped. One line per config: an FNV-1a hash of the
//! Verilog, its length, the block and the override.

use warpgen_rtl::config::{edge_values, BLOCK_NAMES, KEYS};
use warpgen_rtl::{generate, Config};

fn fnv64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn main() {
    for block in BLOCK_NAMES {
        let mut sets = vec![String::new()];
        for k in KEYS.iter().filter(|k| k.key.starts_with(&format!("{block}."))) {
            sets.extend(edge_values(&k.range).into_iter().map(|v| format!("{}={v}", k.key)));
        }
        for set in sets {
            let overrides: Vec<String> = if set.is_empty() { Vec::new() } else { vec![set.clone()] };
            let Ok(config) = Config::embedded(&overrides) else { continue };
            let v = generate(&config, block).unwrap_or_else(|e| panic!("{block} {set}: {e}")).verilog;
            let set = if set.is_empty() { "default" } else { set.as_str() };
            println!("{:016x} {:>9} {block} {set}", fnv64(&v), v.len());
        }
    }
}
