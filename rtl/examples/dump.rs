//! Prints a block's Verilog: `cargo run -p warpgen-rtl --example dump -- [BLOCK] [block.key=value ...]`
//! (BLOCK defaults to scoreboard; the embedded default config with the overrides).
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let block = match args.first() {
        Some(a) if !a.contains('=') => args.remove(0),
        _ => "scoreboard".to_string(),
    };
    let c = warpgen_rtl::Config::embedded(&args).unwrap();
    print!("{}", warpgen_rtl::generate(&c, &block).unwrap().verilog);
}
