// warpgen-sim: force-included (`-include`) into every C++ file of a simulation build, so
// that Verilator's own output macro `VL_PRINTF` (redefined to `warpgen_vl_printf` on the
// command line) has a declaration even inside the Verilator runtime sources.
#pragma once
int warpgen_vl_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
