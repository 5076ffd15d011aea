# warpgen: the verbs people type. See README.md.
#   make rtl    Verilog of the embedded default config into build/rtl/
#   make test   install missing tools (Verilator, Yosys, nextpnr-ice40, icestorm), then run every test
#   make lint   verilator --lint-only -Wall on build/rtl (with its waiver file)
#   make synth  every block at the default config through warpgen synth (Yosys + nextpnr-ice40,
#               iCE40 HX8K): one table of LUT4, FF, carry, BRAM, Fmax; files in build/synth/
#   make bench  harness throughput, emission time, lockstep rates, and the blocks' utilization
#               and dispatch tables; BENCH="thread_merge --seed 7" picks sections and seed
#   make deps   install Verilator, Yosys, nextpnr-ice40 and icestorm from Debian packages if missing
#   make clean  remove build/ and cargo's target/

CARGO   ?= cargo
RTL_DIR ?= build/rtl
WARPGEN := $(CARGO) run --release --quiet --bin warpgen --
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SYNTH_DIR ?= build/synth
# Programs the tests and the flow need, and the Debian package of each.
TOOLS   := verilator yosys nextpnr-ice40 icepack
package  = $(if $(filter icepack,$(1)),fpga-icestorm,$(1))

.PHONY: rtl test lint synth bench deps clean

rtl:
	$(WARPGEN) generate --out $(RTL_DIR)

deps:
	@missing=""; $(foreach t,$(TOOLS),command -v $(t) >/dev/null 2>&1 || missing="$$missing $(call package,$(t))";) \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing with apt-get"; \
	  command -v apt-get >/dev/null 2>&1 || { echo "make deps: no apt-get here; install$$missing yourself (Debian/Ubuntu: apt-get install$$missing)" >&2; exit 1; }; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends$$missing >/dev/null || \
	  { echo "make deps: apt-get install$$missing failed" >&2; exit 1; }; \
	fi; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || { echo "make deps: $$t still missing" >&2; exit 1; }; done; \
	verilator --version; yosys -V; nextpnr-ice40 --version 2>&1 | tail -1

test: deps
	$(CARGO) test --workspace --release

lint: deps rtl
	verilator --lint-only -Wall $(RTL_DIR)/warpgen.vlt -F $(RTL_DIR)/files.f
	@echo "lint: clean"

synth: deps
	$(WARPGEN) synth --out $(SYNTH_DIR) --json $(SYNTH_DIR)/synth.json

bench: deps
	$(CARGO) run --release --quiet -p warpgen-testbench --bin warpgen-bench -- $(BENCH)

clean:
	rm -rf build
	$(CARGO) clean
