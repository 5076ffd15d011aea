fn main() {
    let sets: Vec<String> = std::env::args().skip(1).collect();
    let c = warpgen_rtl::Config::embedded(&sets).unwrap();
    print!("{}", warpgen_rtl::generate(&c, "scoreboard").unwrap().verilog);
}
