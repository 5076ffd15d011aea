# warpgen: the verbs people type. See README.md.
#   make rtl    Verilog of the embedded default config into build/rtl/
#   make test   install missing tools (Verilator, Yosys), then run every test
#   make lint   verilator --lint-only -Wall on build/rtl (with its waiver file)
#   make synth  yosys synth_ice40 area report of build/rtl
#   make bench  harness throughput, emission time, lockstep rates, and the blocks'
#               utilization tables; BENCH="thread_merge --seed 7" picks sections and seed
#   make deps   install Verilator and Yosys from Debian packages if missing
#   make clean  remove build/ and cargo's target/

CARGO   ?= cargo
RTL_DIR ?= build/rtl
WARPGEN := $(CARGO) run --release --quiet --bin warpgen --
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TOOLS   := verilator yosys

.PHONY: rtl test lint synth bench deps clean

rtl:
	$(WARPGEN) generate --out $(RTL_DIR)

deps:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing with apt-get"; \
	  command -v apt-get >/dev/null 2>&1 || { echo "make deps: no apt-get here; install$$missing yourself (Debian/Ubuntu: apt-get install$$missing)" >&2; exit 1; }; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends$$missing >/dev/null || \
	  { echo "make deps: apt-get install$$missing failed" >&2; exit 1; }; \
	fi; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || { echo "make deps: $$t still missing" >&2; exit 1; }; done; \
	verilator --version; yosys -V

test: deps
	$(CARGO) test --workspace --release

lint: deps rtl
	verilator --lint-only -Wall $(RTL_DIR)/warpgen.vlt -F $(RTL_DIR)/files.f
	@echo "lint: clean"

synth: deps rtl
	@for f in $$(cat $(RTL_DIR)/files.f); do \
	  top=$${f%.v}; echo "== $$top (yosys synth_ice40)"; \
	  yosys -q -p "read_verilog $(RTL_DIR)/$$f; synth_ice40 -top $$top; tee -o $(RTL_DIR)/$$top.stat stat" >/dev/null || exit 1; \
	  grep -E "SB_LUT4|SB_DFF|SB_CARRY|SB_RAM|Number of cells" $(RTL_DIR)/$$top.stat; \
	done

bench: deps
	$(CARGO) run --release --quiet -p warpgen-testbench --bin warpgen-bench -- $(BENCH)

clean:
	rm -rf build
	$(CARGO) clean
