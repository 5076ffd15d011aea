// warpgen-sim: Verilator user hooks (see wg_hooks.h).
#include "wg_hooks.h"

#include "verilated.h"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace {
// The last few kilobytes printed by the simulation on this thread, quoted in the message
// of a $fatal / $stop (whose own text is printed with $display-like output first).
thread_local std::string t_recent_output;
thread_local std::string t_finish_message;
const size_t k_recent_limit = 2048;

std::string where(const char* filename, int linenum) {
    if (!filename || !filename[0]) return std::string();
    return std::string(filename) + ":" + std::to_string(linenum) + ": ";
}

[[noreturn]] void stop_with(const std::string& what) {
    std::string message = what;
    if (!t_recent_output.empty()) {
        message += "\nrecent simulation output:\n" + t_recent_output;
        t_recent_output.clear();
    }
    throw WgStop{message};
}
}  // namespace

int warpgen_vl_printf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list aq;
    va_copy(aq, ap);
    const int len = std::vsnprintf(nullptr, 0, fmt, aq);
    va_end(aq);
    if (len <= 0) {
        va_end(ap);
        return len;
    }
    std::vector<char> buf(static_cast<size_t>(len) + 1);
    std::vsnprintf(buf.data(), buf.size(), fmt, ap);
    va_end(ap);
    std::fwrite(buf.data(), 1, static_cast<size_t>(len), stdout);
    std::fflush(stdout);
    t_recent_output.append(buf.data(), static_cast<size_t>(len));
    if (t_recent_output.size() > k_recent_limit) {
        t_recent_output.erase(0, t_recent_output.size() - k_recent_limit);
    }
    return len;
}

std::string wg_finish_message() { return t_finish_message; }

void vl_finish(const char* filename, int linenum, const char* /*hier*/) {
    Verilated::threadContextp()->gotFinish(true);
    t_finish_message = where(filename, linenum) + "Verilog $finish";
}

void vl_stop(const char* filename, int linenum, const char* /*hier*/) {
    stop_with(where(filename, linenum) + "$stop, $fatal, $error or failed assertion");
}

void vl_fatal(const char* filename, int linenum, const char* /*hier*/, const char* msg) {
    stop_with(where(filename, linenum) + msg);
}
