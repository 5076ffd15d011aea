# warpgen: the verbs people type. See README.md.
#   make rtl    Verilog of the embedded default config into build/rtl/
#   make test   install missing tools (Verilator, Yosys, nextpnr-ice40, icestorm), then run every test
#               and the QoR gate of the blocks that synthesize quickly (QOR_QUICK)
#   make lint   verilator --lint-only -Wall on build/rtl (with its waiver file)
#   make synth  every block at the default config through warpgen synth (Yosys + nextpnr-ice40,
#               iCE40 HX8K): one table of LUT4, FF, carry, BRAM, Fmax (median of seeds 1-3); files in build/synth/
#   make qor    the QoR gate on every block: warpgen synth --check $(QOR_BASELINE) (LUT4 +5% or
#               median Fmax -5% against the checked-in baseline fails)
#   make qor-baseline  measure every block and write $(QOR_BASELINE) (after a deliberate change;
#               it is written even when a block does not fit, and then the exit status is 1)
#   make bench  harness throughput, emission time, lockstep rates, and the blocks' utilization
#               and dispatch tables; BENCH="thread_merge --seed 7" picks sections and seed
#   make deps   install Verilator, Yosys, nextpnr-ice40 and icestorm from Debian packages if missing
#   make clean  remove build/ and cargo's target/

CARGO   ?= cargo
RTL_DIR ?= build/rtl
WARPGEN := $(CARGO) run --release --quiet --bin warpgen --
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SYNTH_DIR ?= build/synth
QOR_BASELINE ?= docs/qor/ice40-hx8k.json
# Blocks whose synthesis takes seconds: gated by make test (CI); make qor gates every block.
QOR_QUICK ?= scoreboard branch_stack thread_merge
# Programs the tests and the flow need, and the Debian package of each.
TOOLS   := verilator yosys nextpnr-ice40 icepack
package  = $(if $(filter icepack,$(1)),fpga-icestorm,$(1))

.PHONY: rtl test lint synth qor qor-baseline bench deps clean

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
	$(WARPGEN) synth $(QOR_QUICK) --check $(QOR_BASELINE) --out build/qor

lint: deps rtl
	verilator --lint-only -Wall $(RTL_DIR)/warpgen.vlt -F $(RTL_DIR)/files.f
	@echo "lint: clean"

synth: deps
	$(WARPGEN) synth --out $(SYNTH_DIR) --json $(SYNTH_DIR)/synth.json

qor: deps
	$(WARPGEN) synth --check $(QOR_BASELINE) --out build/qor

qor-baseline: deps
	$(WARPGEN) synth --json $(QOR_BASELINE) --out build/qor

bench: deps
	$(CARGO) run --release --quiet -p warpgen-testbench --bin warpgen-bench -- $(BENCH)

clean:
	rm -rf build
	$(CARGO) clean
