// warpgen-sim: replay benchmark, the "plain C++ loop" baseline for the Rust harness.
//
// Usage: wgbench <stimulus file> <cycles> <repeat>
// The stimulus file holds, for each cycle, the value of every input port except `clock`
// (WG_STIM_INPUTS order) as little-endian 64-bit words, ceil(width/64) words per port.
// Per cycle the loop does what the harness does: write the inputs into the model, eval,
// read every output (folded into a checksum), then clock=1 eval, clock=0 eval.
// Prints "cycles N", "seconds S" and "checksum C" on stdout.
#include "wg_ports.h"
#include "wg_hooks.h"

#include "verilated.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

template <class T>
inline void put(T& member, const uint64_t*& words) {
    member = static_cast<T>(*words++);
}

template <std::size_t N>
inline void put(VlWide<N>& member, const uint64_t*& words) {
    for (std::size_t i = 0; i < N; ++i) member[i] = static_cast<uint32_t>(words[i / 2] >> (32 * (i % 2)));
    words += (N + 1) / 2;
}

template <class T>
inline uint64_t fold(uint64_t h, const T& member) {
    return wg_fold(h, static_cast<uint64_t>(member));
}

template <std::size_t N>
inline uint64_t fold(uint64_t h, const VlWide<N>& member) {
    for (std::size_t i = 0; i < N; i += 2) {
        uint64_t word = member[i];
        if (i + 1 < N) word |= static_cast<uint64_t>(member[i + 1]) << 32;
        h = wg_fold(h, word);
    }
    return h;
}

std::vector<uint64_t> read_words(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "wgbench: cannot read %s\n", path);
        std::exit(2);
    }
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint64_t> words(bytes.size() / 8);
    for (std::size_t i = 0; i < words.size(); ++i) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; --b) w = (w << 8) | static_cast<unsigned char>(bytes[i * 8 + b]);
        words[i] = w;
    }
    return words;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s <stimulus file> <cycles> <repeat>\n", argv[0]);
        return 2;
    }
    const std::vector<uint64_t> stimulus = read_words(argv[1]);
    const uint64_t cycles = std::strtoull(argv[2], nullptr, 10);
    const uint64_t repeat = std::strtoull(argv[3], nullptr, 10);
    if (stimulus.size() != cycles * WG_STIM_WORDS) {
        std::fprintf(stderr, "wgbench: %s holds %zu words, expected %llu cycles x %d words\n", argv[1],
                     stimulus.size(), static_cast<unsigned long long>(cycles), WG_STIM_WORDS);
        return 2;
    }

    VerilatedContext context;
    WG_MODEL* model = new WG_MODEL(&context, "TOP");
    uint64_t h = WG_FOLD_INIT;
    double seconds = 0.0;
    try {
        model->eval();
        const auto start = std::chrono::steady_clock::now();
        for (uint64_t r = 0; r < repeat; ++r) {
            const uint64_t* words = stimulus.data();
            for (uint64_t c = 0; c < cycles; ++c) {
#define WG_PUT(member, dir, width) put(model->member, words);
                WG_STIM_INPUTS(WG_PUT)
#undef WG_PUT
                model->eval();
#define WG_FOLD(member, dir, width) h = fold(h, model->member);
                WG_OUTPUTS(WG_FOLD)
#undef WG_FOLD
#if WG_HAS_CLOCK
                model->clock = 1;
                model->eval();
                model->clock = 0;
                model->eval();
#endif
            }
        }
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        model->final();
    } catch (const WgStop& stop) {
        std::fprintf(stderr, "wgbench: simulation died: %s\n", stop.message.c_str());
        return 3;
    }
    delete model;
    std::printf("cycles %llu\nseconds %.9f\nchecksum %llu\n",
                static_cast<unsigned long long>(cycles * repeat), seconds,
                static_cast<unsigned long long>(h));
    return 0;
}
