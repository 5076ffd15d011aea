// warpgen-sim: run-time hooks shared by the shim (the shared library loaded by Rust) and
// the replay benchmark executable. The simulation build defines VL_USER_FINISH,
// VL_USER_STOP and VL_USER_FATAL, so Verilator's runtime calls the vl_finish / vl_stop /
// vl_fatal defined in wg_hooks.cpp instead of exiting or aborting the process.
//
// The hot path uses no thread-local variable of its own: in a dlopen'ed library every
// thread_local access is a call into the dynamic loader.
#pragma once
#include <cstdint>
#include <string>

// Thrown by vl_stop / vl_fatal ($stop, $fatal, failed assertions, "did not converge"),
// caught by the caller of eval(). The model is unusable afterwards.
struct WgStop {
    std::string message;
};

// vl_finish ($finish) marks the current context finished (VerilatedContext::gotFinish) and
// lets the evaluation complete; this says where the last $finish on this thread was.
std::string wg_finish_message();

// Output checksum shared with the Rust side (`warpgen_sim::fold_checksum`): FNV-1a style
// fold of each 64-bit output word.
static const uint64_t WG_FOLD_INIT = 0xcbf29ce484222325ULL;
static inline uint64_t wg_fold(uint64_t h, uint64_t word) {
    return (h ^ word) * 0x100000001b3ULL;
}
