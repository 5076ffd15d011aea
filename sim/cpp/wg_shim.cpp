// warpgen-sim: the C ABI of a simulation shared library, loaded by the Rust harness.
//
// wg_ports.h (generated per design) names the Verilated class (WG_MODEL), says whether
// tracing is compiled in (WG_TRACE) and whether an input `clock` exists (WG_HAS_CLOCK), and
// lists the ports in WG_PORTS(X) as X(member, dir /*0 in, 1 out*/, width). With
// WG_DIRECT_EVAL, WG_EVAL_DIRECT(model) is the model's eval() without Verilator's per-call
// thread bookkeeping, which a single-threaded model does not need (see ports.rs).
//
// Rust reads and writes port values directly through the member pointers returned by
// wg_port_pointers; every call that evaluates the model goes through wg_guard, which turns
// the C++ exception thrown by vl_stop / vl_fatal into a status code plus a message.
#include "wg_ports.h"
#include "wg_hooks.h"

#include "verilated.h"
#if WG_TRACE
#include "verilated_vcd_c.h"
#endif

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <new>
#include <string>

#define WG_EXPORT extern "C" __attribute__((visibility("default")))

// Status codes, mirrored in the Rust crate (ffi.rs).
enum WgStatus : int32_t {
    WG_OK = 0,
    WG_DIED = 1,
    WG_FINISHED = 2,
    WG_NO_CLOCK = 3,
    WG_NO_TRACE = 4,
    WG_IO_ERROR = 5,
};

// Version of this C ABI; checked by Rust when loading a library.
static const uint32_t WG_ABI_VERSION = 1;

struct WgPortDesc {
    const char* name;
    uint32_t dir;
    uint32_t width;
};

static const WgPortDesc k_ports[] = {
#define WG_DESC(member, dir, width) {#member, dir, width},
    WG_PORTS(WG_DESC)
#undef WG_DESC
    {nullptr, 0, 0}};
static const uint32_t k_port_count = sizeof(k_ports) / sizeof(k_ports[0]) - 1;

struct WgInst {
    VerilatedContext context;
    WG_MODEL* model = nullptr;
#if WG_TRACE
    VerilatedVcdC* vcd = nullptr;
#endif
    uint64_t time = 0;
    int64_t last_dump = -1;  // time of the last VCD dump (VerilatedVcdC ignores repeats)
    const void* entered_thread = nullptr;  // see wg_enter
    uint64_t entered_epoch = 0;
    std::string message;
    bool dead = false;
};

// Evaluate an initialised model (wg_create ran the first eval()).
static inline void wg_eval_model(WgInst* inst) {
#if WG_DIRECT_EVAL
    WG_EVAL_DIRECT(inst->model);
#else
    inst->model->eval();
#endif
}

#if WG_TRACE
static inline void wg_dump(WgInst* inst, uint64_t time) {
    if (inst->vcd && static_cast<int64_t>(time) > inst->last_dump) {
        inst->vcd->dump(time);
        inst->last_dump = static_cast<int64_t>(time);
    }
}
#endif

static void wg_trace_close_inst(WgInst* inst) {
#if WG_TRACE
    if (inst->vcd) {
        wg_dump(inst, inst->time);
        inst->vcd->close();
        delete inst->vcd;
        inst->vcd = nullptr;
    }
#else
    (void)inst;
#endif
}

// Verilator's runtime finds "the current context" in a thread-local pointer (used by
// $display's %t, $random, $stop, scope bookkeeping in destructors, ...). With one context per
// instance and instances used from any thread, it must point at this instance's context
// whenever the model runs. Reading that thread-local costs a call into the dynamic loader,
// so the check is skipped while nothing can have changed it: the same thread entered this
// instance last and no context switch, creation, destruction or thread exit (after which a
// new thread may get the same thread pointer) happened since, which g_context_epoch counts.
static std::atomic<uint64_t> g_context_epoch{1};

static void wg_context_changed() { g_context_epoch.fetch_add(1, std::memory_order_relaxed); }

// Bumps the epoch when a thread that entered an instance exits.
struct WgThreadExit {
    ~WgThreadExit() { wg_context_changed(); }
};

// Identifies the calling thread without a call: the thread pointer register.
static inline const void* wg_thread_id() {
#if defined(__has_builtin) && __has_builtin(__builtin_thread_pointer)
    return __builtin_thread_pointer();
#else
    return reinterpret_cast<const void*>(pthread_self());
#endif
}

static void wg_enter_slow(WgInst* inst) {
    static thread_local WgThreadExit t_exit_hook;  // constructed on this thread's first entry
    (void)t_exit_hook;
    if (Verilated::threadContextp() != &inst->context) {
        Verilated::threadContextp(&inst->context);
        wg_context_changed();
    }
    inst->entered_thread = wg_thread_id();
    inst->entered_epoch = g_context_epoch.load(std::memory_order_relaxed);
}

static inline void wg_enter(WgInst* inst) {
    if (VL_UNLIKELY(inst->entered_epoch != g_context_epoch.load(std::memory_order_relaxed)
                    || inst->entered_thread != wg_thread_id())) {
        wg_enter_slow(inst);
    }
}

static int32_t wg_die(WgInst* inst, const std::string& message) {
    inst->message = message;
    inst->dead = true;
    wg_trace_close_inst(inst);
    return WG_DIED;
}

// Run `body` (which evaluates the model); translate a $stop/$fatal into WG_DIED and a
// $finish into WG_FINISHED. After WG_DIED the instance is dead.
template <class Body>
static inline int32_t wg_guard(WgInst* inst, Body&& body) {
    wg_enter(inst);
    try {
        body();
    } catch (const WgStop& stop) {
        return wg_die(inst, stop.message);
    } catch (const std::exception& e) {
        return wg_die(inst, std::string("C++ exception in the simulation: ") + e.what());
    } catch (...) {
        return wg_die(inst, "unknown C++ exception in the simulation");
    }
    if (VL_UNLIKELY(inst->context.gotFinish())) {
        inst->message = wg_finish_message();
        return WG_FINISHED;
    }
    return WG_OK;
}

WG_EXPORT uint32_t wg_abi_version() { return WG_ABI_VERSION; }

WG_EXPORT uint32_t wg_port_count() { return k_port_count; }

// Static description of port `index` (table order); the strings live as long as the library.
WG_EXPORT void wg_port_desc(uint32_t index, const char** name, uint32_t* dir, uint32_t* width) {
    *name = k_ports[index].name;
    *dir = k_ports[index].dir;
    *width = k_ports[index].width;
}

WG_EXPORT uint32_t wg_has_trace() { return WG_TRACE; }

// Create an instance (own VerilatedContext, own model) and settle it once (initial blocks).
// Always returns the instance (null only when out of memory); the status says whether the
// first evaluation died or finished, with wg_message giving the reason.
WG_EXPORT WgInst* wg_create(int32_t* status) {
    WgInst* inst = new (std::nothrow) WgInst;
    if (!inst) return nullptr;
    wg_context_changed();  // the VerilatedContext constructor made it this thread's context
    inst->context.traceEverOn(WG_TRACE != 0);
    *status = wg_guard(inst, [&] {
        inst->model = new WG_MODEL(&inst->context, "TOP");
        inst->model->eval();
    });
    return inst;
}

WG_EXPORT void wg_destroy(WgInst* inst) {
    if (!inst) return;
    wg_enter(inst);
    if (inst->model && !inst->dead) {
        try {
            inst->model->final();
        } catch (...) {
        }
    }
    wg_trace_close_inst(inst);
    delete inst->model;
    delete inst;
    // Leave no pointer to the deleted context behind.
    Verilated::threadContextp(nullptr);
    wg_context_changed();
}

// Fill `out[i]` with the address of port i's data member (CData/SData/IData/QData/VlWide).
WG_EXPORT void wg_port_pointers(WgInst* inst, void** out) {
    uint32_t i = 0;
#define WG_PTR(member, dir, width) out[i++] = static_cast<void*>(&inst->model->member);
    WG_PORTS(WG_PTR)
#undef WG_PTR
    (void)i;
    (void)out;
}

WG_EXPORT const char* wg_message(WgInst* inst) { return inst->message.c_str(); }

WG_EXPORT int32_t wg_eval(WgInst* inst) {
    return wg_guard(inst, [&] { wg_eval_model(inst); });
}

// One rising edge of `clock`: dump the pre-edge state at time t, clock=1 and eval, dump at
// t+1, clock=0 and eval; time advances by 2.
WG_EXPORT int32_t wg_tick(WgInst* inst) {
#if WG_HAS_CLOCK
    return wg_guard(inst, [&] {
        WG_MODEL* model = inst->model;
#if WG_TRACE
        wg_dump(inst, inst->time);
#endif
        model->clock = 1;
        inst->context.time(inst->time + 1);
        wg_eval_model(inst);
#if WG_TRACE
        wg_dump(inst, inst->time + 1);
#endif
        model->clock = 0;
        inst->time += 2;
        inst->context.time(inst->time);
        wg_eval_model(inst);
    });
#else
    (void)inst;
    return WG_NO_CLOCK;
#endif
}

WG_EXPORT uint64_t wg_time(WgInst* inst) { return inst->time; }

// Start a VCD of this instance in `path` (one per instance).
WG_EXPORT int32_t wg_trace_open(WgInst* inst, const char* path) {
#if WG_TRACE
    wg_enter(inst);
    try {
        inst->vcd = new VerilatedVcdC;
        inst->model->trace(inst->vcd, 99);
        inst->vcd->open(path);
        if (!inst->vcd->isOpen()) {
            delete inst->vcd;
            inst->vcd = nullptr;
            inst->message = std::string("cannot open VCD file ") + path;
            return WG_IO_ERROR;
        }
    } catch (const WgStop& stop) {
        inst->message = stop.message;
        return WG_IO_ERROR;
    }
    return WG_OK;
#else
    (void)inst;
    (void)path;
    return WG_NO_TRACE;
#endif
}

WG_EXPORT void wg_trace_close(WgInst* inst) {
    wg_enter(inst);
    wg_trace_close_inst(inst);
}
