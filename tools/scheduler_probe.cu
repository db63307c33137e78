// Scheduler probe: warps that loop over one global load and C dependent FFMAs, for the
// scheduler panel's latency-hiding model (resources/measurements/h200-scheduler.json).
//
// Each loop iteration: one LDG (4 bytes a lane, one 128-byte line a warp), then C FFMAs, each
// depending on the one before, the first on the loaded value; the next iteration's address
// depends on the last FFMA (through an AND with a zero the host passes), so a warp's iterations
// never overlap, as in the model. FORM 0: FFMA R, R, imm, R (immediate operand); FORM 1: FFMA R,
// R, R, R. CACHE 0: ld.global.cg (bypasses L1: DRAM or L2); CACHE 1: ld.global.ca (L1).
// Levels: dram streams (each iteration a fresh line, all warps of the GPU march through a 2 GiB
// buffer), l2 and l1 reuse 4 lines per warp (.cg: L2 hits; .ca: L1 hits).
// W warps per SM: one block of W warps per SM for W <= 32, two blocks of W/2 otherwise (the
// kernel is built for two 1,024-thread blocks per SM, so 32 registers a thread at most); every
// block counts itself on its SM (%smid) so the host checks that each SM holds exactly W warps.
//
// Build:  nvcc -arch=sm_90a -O3 -o sched_probe tools/scheduler_probe.cu
// Modes: ./sched_probe loops PART   one launch per loop case of PART (a, b), for ncu
//        ./sched_probe tails        JSON on stdout: per loop case, the iterations per cycle while
//                                   all of an SM's warps run against the whole run (chunk clocks)
//        ./sched_probe info         JSON on stdout: loop times by events, residency, pointer-chase
//                                   latencies, the dependent-FFMA latency, DRAM and L2 bandwidth.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <random>
#include <climits>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                         \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

constexpr size_t kStreamBytes = size_t(2) << 30;  // the DRAM-streaming buffer
constexpr int kMaxSms = 256;

__device__ unsigned g_blocks_on_sm[kMaxSms];

template <int FORM>
__device__ __forceinline__ float ffma_first(float v, float acc, float a) {
    if (FORM == 0) asm volatile("fma.rn.f32 %0, %1, 0f3F7FF972, %0;" : "+f"(acc) : "f"(v));
    else asm volatile("fma.rn.f32 %0, %1, %2, %0;" : "+f"(acc) : "f"(v), "f"(a));
    return acc;
}

template <int FORM>
__device__ __forceinline__ float ffma_next(float acc, float a, float b) {
    if (FORM == 0) asm volatile("fma.rn.f32 %0, %0, 0f3F7FF972, %1;" : "+f"(acc) : "f"(b));
    else asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(acc) : "f"(a), "f"(b));
    return acc;
}

// One loop iteration: the load, C dependent FFMAs, the next address from the last FFMA.
template <int C, int FORM, int CACHE>
__device__ __forceinline__ void iteration(const char* base, unsigned& off, float& acc,
                                          unsigned step, unsigned wrap, unsigned zero, float a,
                                          float b) {
    float v;
    const char* p = base + off;
    if (CACHE == 0) asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    acc = ffma_first<FORM>(v, acc, a);
#pragma unroll
    for (int j = 1; j < C; ++j) acc = ffma_next<FORM>(acc, a, b);
    off = ((off + step) & wrap) | (__float_as_uint(acc) & zero);
}

__device__ __forceinline__ void count_block() {
    if (threadIdx.x == 0) {
        unsigned smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        atomicAdd(&g_blocks_on_sm[smid % kMaxSms], 1u);
    }
}

template <int C, int FORM, int CACHE>
__global__ void __launch_bounds__(1024, 2)
sched_loop(const char* __restrict__ buf, float* __restrict__ out, int iters, unsigned step,
           unsigned wrap, unsigned warp_span, unsigned zero, float a, float b) {
    count_block();
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const char* base = buf + size_t(warp) * warp_span + lane * 4;
    unsigned off = 0;
    float acc = 1.0f;
#pragma unroll 1
    for (int i = 0; i < iters; ++i) iteration<C, FORM, CACHE>(base, off, acc, step, wrap, zero, a, b);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same loop in kChunks equal chunks, each warp's lane 0 reading clock64 before every chunk
// and after the last (the loop itself unchanged): when each warp ran, on which SM.
constexpr int kChunks = 32;

template <int C, int FORM, int CACHE>
__global__ void __launch_bounds__(1024, 2)
sched_loop_clocked(const char* __restrict__ buf, float* __restrict__ out, int iters,
                   unsigned step, unsigned wrap, unsigned warp_span, unsigned zero, float a,
                   float b, long long* __restrict__ clocks) {
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const char* base = buf + size_t(warp) * warp_span + lane * 4;
    long long* mine = clocks + size_t(warp) * (kChunks + 2);
    unsigned off = 0;
    float acc = 1.0f;
#pragma unroll 1
    for (int c = 0; c < kChunks; ++c) {
        const long long t = clock64();
        if (lane == 0) mine[c] = t;
#pragma unroll 1
        for (int i = 0; i < iters / kChunks; ++i)
            iteration<C, FORM, CACHE>(base, off, acc, step, wrap, zero, a, b);
    }
    const long long t = clock64();
    if (lane == 0) {
        unsigned smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        mine[kChunks] = t;
        mine[kChunks + 1] = smid;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

struct Case { int c, form, level, warps; };  // level 0 dram, 1 l2, 2 l1
static const char* kLevel[] = {"dram", "l2", "l1"};
static const int kWarps[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64};

static std::vector<Case> cases(const char* part) {
    // part a: the immediate form, every C, level and warp count; part b: the register form.
    std::vector<Case> v;
    const int form = part[0] == 'a' ? 0 : 1;
    for (int level : {0, 2, 1})
        for (int c : {16, 64, 4})
            for (int w : kWarps)
                if (form == 0 || w == 1 || w == 4 || w == 8 || w == 16 || w == 32 || w == 64)
                    v.push_back({c, form, level, w});
    return v;
}

using Kernel = void (*)(const char*, float*, int, unsigned, unsigned, unsigned, unsigned, float,
                        float);

static Kernel kernel_for(int c, int form, int cache) {
#define K(C_)                                                                             \
    if (c == C_) return form == 0 ? (cache == 0 ? sched_loop<C_, 0, 0> : sched_loop<C_, 0, 1>) \
                                  : (cache == 0 ? sched_loop<C_, 1, 0> : sched_loop<C_, 1, 1>);
    K(4) K(16) K(64)
#undef K
    std::fprintf(stderr, "no kernel for C=%d\n", c);
    std::exit(1);
}

using ClockedKernel = void (*)(const char*, float*, int, unsigned, unsigned, unsigned, unsigned,
                               float, float, long long*);

static ClockedKernel clocked_for(int c, int form, int cache) {
#define K(C_)                                                                                 \
    if (c == C_) return form == 0 ? (cache == 0 ? sched_loop_clocked<C_, 0, 0> : sched_loop_clocked<C_, 0, 1>) \
                                  : (cache == 0 ? sched_loop_clocked<C_, 1, 0> : sched_loop_clocked<C_, 1, 1>);
    K(4) K(16) K(64)
#undef K
    std::fprintf(stderr, "no kernel for C=%d\n", c);
    std::exit(1);
}

static int iterations(const Case& k) {
    const int latency = k.level == 0 ? 900 : (k.level == 1 ? 300 : 40);
    const int per = latency + 4 * k.c + 12;
    return std::min(4096, std::max(256, 400000 / per));
}

struct Launch { int grid, block, iters; unsigned step, wrap, span; };

static Launch launch_for(const Case& k, int sms) {
    Launch l;
    const int blocks_per_sm = k.warps > 32 ? 2 : 1;
    l.block = 32 * k.warps / blocks_per_sm;
    l.grid = sms * blocks_per_sm;
    l.iters = iterations(k);
    const unsigned total_warps = unsigned(sms) * k.warps;
    if (k.level == 0) {  // each warp a fresh line each iteration, all warps side by side
        l.span = 128;
        l.step = total_warps * 128;
        l.wrap = unsigned(kStreamBytes - 1);
    } else {  // four lines a warp, reused
        l.span = 4 * 128;
        l.step = 128;
        l.wrap = 4 * 128 - 1;
    }
    return l;
}


static void zero_counts() {
    static unsigned zeros[kMaxSms] = {};
    CHECK(cudaMemcpyToSymbol(g_blocks_on_sm, zeros, sizeof(zeros)));
}

// Launches one case; returns the fewest and most blocks found on any of the first `sms` SMs.
static void launch(const Case& k, int sms, const char* buf, float* out, int* lo, int* hi) {
    const Launch l = launch_for(k, sms);
    zero_counts();
    kernel_for(k.c, k.form, k.level == 2 ? 1 : 0)<<<l.grid, l.block>>>(
        buf, out, l.iters, l.step, l.wrap, l.span, 0u, 0.99990f, 0.5f);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned counts[kMaxSms];
    CHECK(cudaMemcpyFromSymbol(counts, g_blocks_on_sm, sizeof(counts)));
    *lo = 1 << 30;
    *hi = 0;
    for (int s = 0; s < sms; ++s) {
        *lo = std::min(*lo, int(counts[s]));
        *hi = std::max(*hi, int(counts[s]));
    }
}

// ---- dependent loads (one thread) ------------------------------------------------------------
template <int CACHE>
__global__ void chase(const unsigned long long* start, int warm, int steps,
                      unsigned long long* result) {
    const unsigned long long* p = start;
    for (int i = 0; i < warm; ++i) {
        unsigned long long n;
        if (CACHE == 0) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(n) : "l"(p));
        else asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(n) : "l"(p));
        p = reinterpret_cast<const unsigned long long*>(n);
    }
    const long long t0 = clock64();
    for (int i = 0; i < steps; ++i) {
        unsigned long long n;
        if (CACHE == 0) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(n) : "l"(p));
        else asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(n) : "l"(p));
        p = reinterpret_cast<const unsigned long long*>(n);
    }
    const long long t1 = clock64();
    result[0] = (unsigned long long)(t1 - t0);
    result[1] = reinterpret_cast<unsigned long long>(p);
}

// A chain through `count` lines of `span` bytes chosen at random (stride 0) or every `stride`
// bytes, in random order (stride 0) or in address order.
static double chase_cycles(int cache, size_t span, size_t count, size_t stride, int warm,
                           int steps, char* dev, char* flush, size_t flush_bytes) {
    std::mt19937_64 rng(12345);
    std::vector<size_t> line;
    if (stride == 0) {
        const size_t lines = span / 128;
        std::vector<size_t> all(lines);
        for (size_t i = 0; i < lines; ++i) all[i] = i;
        std::shuffle(all.begin(), all.end(), rng);
        line.assign(all.begin(), all.begin() + std::min(count, lines));
    } else {
        for (size_t i = 0; i < count && i * stride + 8 <= span; ++i) line.push_back(i * stride / 128);
    }
    std::vector<unsigned long long> host(span / 8, 0);
    const unsigned long long base = reinterpret_cast<unsigned long long>(dev);
    for (size_t i = 0; i < line.size(); ++i)
        host[line[i] * 16] = base + line[(i + 1) % line.size()] * 128;
    CHECK(cudaMemcpy(dev, host.data(), span, cudaMemcpyHostToDevice));
    if (flush) CHECK(cudaMemset(flush, 1, flush_bytes));  // evict the chain from L2
    CHECK(cudaDeviceSynchronize());
    unsigned long long* result;
    CHECK(cudaMalloc(&result, 16));
    const auto* start = reinterpret_cast<const unsigned long long*>(dev + line[0] * 128);
    if (cache == 0) chase<0><<<1, 1>>>(start, warm, steps, result);
    else chase<1><<<1, 1>>>(start, warm, steps, result);
    CHECK(cudaGetLastError());
    unsigned long long r[2];
    CHECK(cudaMemcpy(r, result, 16, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(result));
    return double(r[0]) / steps;
}

// ---- dependent FFMA latency (one thread) -----------------------------------------------------
template <int FORM>
__global__ void ffma_chain(int n, float a, float b, float* out, unsigned long long* cycles) {
    float acc = 1.0f;
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < n; ++i) {
#pragma unroll
        for (int j = 0; j < 64; ++j) acc = ffma_next<FORM>(acc, a, b);
    }
    const long long t1 = clock64();
    out[0] = acc;
    cycles[0] = (unsigned long long)(t1 - t0);
}

static double ffma_latency(int form) {
    float* out;
    unsigned long long* cycles;
    CHECK(cudaMalloc(&out, 4));
    CHECK(cudaMalloc(&cycles, 8));
    const int n = 4096;
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        if (form == 0) ffma_chain<0><<<1, 1>>>(n, 0.9999f, 0.5f, out, cycles);
        else ffma_chain<1><<<1, 1>>>(n, 0.9999f, 0.5f, out, cycles);
        CHECK(cudaGetLastError());
        unsigned long long c;
        CHECK(cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost));
        best = std::min(best, double(c) / (64.0 * n));
    }
    CHECK(cudaFree(out));
    CHECK(cudaFree(cycles));
    return best;
}

// ---- bandwidth and clock ---------------------------------------------------------------------
__global__ void read_stream(const float4* __restrict__ in, size_t n, int rounds, float* out) {
    float s = 0.0f;
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (int r = 0; r < rounds; ++r)
        for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
            float4 v;
            asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                         : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(in + i));
            s += v.x + v.y + v.z + v.w;
        }
    if (s == 12345.0f) out[0] = s;
}

__global__ void read_l1(const float4* __restrict__ in, int rounds, float* out) {
    // each block re-reads its own 16 KiB
    const float4* p = in + blockIdx.x * 1024;
    float s = 0.0f;
    for (int r = 0; r < rounds; ++r) {
        float4 v;
        asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p + ((threadIdx.x + r * 32) & 1023)));
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 12345.0f) out[0] = s;
}

__global__ void spin(long long cycles, unsigned long long* out) {
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    out[0] = clock64() - t0;
}

template <typename F>
static float median_ms(F launch_once, int reps) {
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    launch_once();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        CHECK(cudaEventRecord(e0));
        launch_once();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaGetLastError());
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    return t[t.size() / 2];
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s loops a|b | tails | info\n", argv[0]);
        return 2;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    char* buf;
    float* out;
    CHECK(cudaMalloc(&buf, kStreamBytes));
    CHECK(cudaMalloc(&out, sizeof(float) * 2048 * 2 * sms));
    {  // 1.0f everywhere: never time on zeros
        std::vector<float> ones(1 << 20, 1.0f);
        for (size_t o = 0; o < kStreamBytes; o += ones.size() * 4)
            CHECK(cudaMemcpy(buf + o, ones.data(), ones.size() * 4, cudaMemcpyHostToDevice));
    }
    if (std::strcmp(argv[1], "loops") == 0) {
        for (const Case& k : cases(argc > 2 ? argv[2] : "a")) {
            int lo, hi;
            launch(k, sms, buf, out, &lo, &hi);
            if (lo != hi || lo != (k.warps > 32 ? 2 : 1))
                std::fprintf(stderr, "residency off: C=%d form=%d %s W=%d: %d..%d blocks/SM\n",
                             k.c, k.form, kLevel[k.level], k.warps, lo, hi);
        }
        return 0;
    }
    if (std::strcmp(argv[1], "tails") == 0) {
        // Per case: on each SM, the window in which all its warps run (the latest start to the
        // earliest finish) and the loop iterations done in it (each warp's count interpolated
        // between its chunk clocks), against the whole run on that SM (earliest start to latest
        // finish). ratio = iterations per cycle in the window / over the whole run.
        std::printf("{\"device\": \"%s\", \"sms\": %d, \"chunks\": %d, \"cases\": [\n", prop.name,
                    sms, kChunks);
        long long* clocks;
        CHECK(cudaMalloc(&clocks, sizeof(long long) * (kChunks + 2) * 64 * sms));
        bool first = true;
        for (const char* part : {"a", "b"})
            for (const Case& k : cases(part)) {
                const Launch l = launch_for(k, sms);
                const int per = l.iters / kChunks, n = per * kChunks;
                const int warps = sms * k.warps;
                CHECK(cudaMemset(clocks, 0, sizeof(long long) * (kChunks + 2) * warps));
                clocked_for(k.c, k.form, k.level == 2 ? 1 : 0)<<<l.grid, l.block>>>(
                    buf, out, l.iters, l.step, l.wrap, l.span, 0u, 0.99990f, 0.5f, clocks);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                std::vector<long long> h(size_t(kChunks + 2) * warps);
                CHECK(cudaMemcpy(h.data(), clocks, h.size() * 8, cudaMemcpyDeviceToHost));
                std::vector<std::vector<int>> on(sms);
                for (int w = 0; w < warps; ++w) {
                    const long long sm = h[size_t(w) * (kChunks + 2) + kChunks + 1];
                    if (sm >= 0 && sm < sms) on[sm].push_back(w);
                }
                double rsum = 0, rmin = 1e30, rmax = 0, wshare = 0, spread = 0, whole_mean = 0, lo_sum = 0, hi_sum = 0;
                int measured = 0, empty = 0;
                for (int sm = 0; sm < sms; ++sm) {
                    if (on[sm].empty()) continue;
                    long long s0 = LLONG_MAX, s1 = LLONG_MIN, e0 = LLONG_MAX, e1 = LLONG_MIN;
                    for (int w : on[sm]) {
                        const long long* t = &h[size_t(w) * (kChunks + 2)];
                        s0 = std::min(s0, t[0]); s1 = std::max(s1, t[0]);
                        e0 = std::min(e0, t[kChunks]); e1 = std::max(e1, t[kChunks]);
                    }
                    const double whole = double(e1 - s0);
                    if (e0 <= s1 || whole <= 0) { ++empty; continue; }
                    auto done_at = [&](const long long* t, long long x) {
                        if (x <= t[0]) return 0.0;
                        for (int c = 0; c < kChunks; ++c)
                            if (x <= t[c + 1])
                                return per * (c + double(x - t[c]) / double(std::max(1ll, t[c + 1] - t[c])));
                        return double(n);
                    };
                    double in_window = 0, lo_w = 0, hi_w = 0;
                    for (int w : on[sm]) {
                        const long long* t = &h[size_t(w) * (kChunks + 2)];
                        in_window += done_at(t, e0) - done_at(t, s1);
                        for (int c = 0; c < kChunks; ++c) {  // chunks wholly inside, or touching
                            if (t[c] >= s1 && t[c + 1] <= e0) lo_w += per;
                            if (t[c + 1] > s1 && t[c] < e0) hi_w += per;
                        }
                    }
                    lo_sum += lo_w / double(e0 - s1) / (double(n) * on[sm].size() / whole);
                    hi_sum += hi_w / double(e0 - s1) / (double(n) * on[sm].size() / whole);
                    const double steady = in_window / double(e0 - s1);
                    const double overall = double(n) * on[sm].size() / whole;
                    const double r = steady / overall;
                    rsum += r; rmin = std::min(rmin, r); rmax = std::max(rmax, r);
                    wshare += double(e0 - s1) / whole;
                    spread += double(e1 - e0) / whole;
                    whole_mean += whole;
                    ++measured;
                }
                const int m = std::max(1, measured);
                std::printf("%s{\"c\": %d, \"form\": \"%s\", \"level\": \"%s\", \"warps_per_sm\": %d, "
                            "\"iterations\": %d, \"sms_measured\": %d, \"sms_without_window\": %d, "
                            "\"ratio_mean\": %.4f, \"ratio_min\": %.4f, \"ratio_max\": %.4f, "
                            "\"ratio_low\": %.4f, \"ratio_high\": %.4f, "
                            "\"window_share\": %.4f, \"finish_spread\": %.4f, \"cycles\": %.0f}",
                            first ? "" : ",\n", k.c, k.form ? "register" : "immediate",
                            kLevel[k.level], k.warps, n, measured, empty, rsum / m,
                            measured ? rmin : 0.0, rmax, lo_sum / m, hi_sum / m, wshare / m, spread / m, whole_mean / m);
                first = false;
            }
        std::printf("\n]}\n");
        return 0;
    }
    // info
    std::printf("{\n\"device\": \"%s\", \"sms\": %d, \"l2_bytes\": %d,\n", prop.name, sms,
                prop.l2CacheSize);
    unsigned long long* spin_out;
    CHECK(cudaMalloc(&spin_out, 8));
    const long long spin_cycles = 20000000;
    const float spin_ms = median_ms([&] { spin<<<1, 1>>>(spin_cycles, spin_out); }, 5);
    std::printf("\"sm_clock_mhz\": %.1f,\n", spin_cycles / (spin_ms * 1e3));
    std::printf("\"ffma_latency_cycles\": {\"immediate\": %.3f, \"register\": %.3f},\n",
                ffma_latency(0), ffma_latency(1));
    char* chain;
    const size_t chain_bytes = size_t(512) << 20;
    CHECK(cudaMalloc(&chain, chain_bytes));
    char* flush = buf;  // 2 GiB written: nothing of the chain stays in L2
    std::printf("\"chase_cycles\": {\"l1\": %.2f, \"l2\": %.2f, \"dram_random_512MiB\": %.2f, "
                "\"dram_stride_2080B\": %.2f},\n",
                chase_cycles(1, 4096, 32, 0, 2048, 4096, chain, nullptr, 0),
                chase_cycles(0, size_t(8) << 20, 65536, 0, 65536, 8192, chain, nullptr, 0),
                chase_cycles(0, chain_bytes, 4096, 0, 0, 4096, chain, flush, size_t(256) << 20),
                chase_cycles(0, chain_bytes, 4096, 2080, 0, 4096, chain, flush, size_t(256) << 20));
    {  // restore the ones in the part of the buffer the flush overwrote
        std::vector<float> ones(1 << 20, 1.0f);
        for (size_t o = 0; o < (size_t(256) << 20); o += ones.size() * 4)
            CHECK(cudaMemcpy(buf + o, ones.data(), ones.size() * 4, cudaMemcpyHostToDevice));
    }
    const size_t n4 = kStreamBytes / 16;
    const float dram_ms = median_ms([&] {
        read_stream<<<sms * 8, 512>>>(reinterpret_cast<const float4*>(buf), n4, 1, out);
    }, 7);
    const size_t l2_n4 = (size_t(16) << 20) / 16;
    const float l2_ms = median_ms([&] {
        read_stream<<<sms * 8, 512>>>(reinterpret_cast<const float4*>(buf), l2_n4, 64, out);
    }, 7);
    const int l1_rounds = 4096;
    const float l1_ms = median_ms([&] {
        read_l1<<<sms * 4, 512>>>(reinterpret_cast<const float4*>(buf), l1_rounds, out);
    }, 7);
    std::printf("\"bandwidth_bytes_per_s\": {\"dram\": %.4e, \"l2\": %.4e, \"l1\": %.4e},\n",
                kStreamBytes / (dram_ms * 1e-3), (size_t(16) << 20) * 64.0 / (l2_ms * 1e-3),
                double(sms) * 4 * 512 * 16.0 * l1_rounds / (l1_ms * 1e-3));
    std::printf("\"loops\": [\n");
    bool first = true;
    for (const char* part : {"a", "b"})
        for (const Case& k : cases(part)) {
            int lo = 0, hi = 0;
            launch(k, sms, buf, out, &lo, &hi);
            const Launch l = launch_for(k, sms);
            const float ms = median_ms([&] {
                kernel_for(k.c, k.form, k.level == 2 ? 1 : 0)<<<l.grid, l.block>>>(
                    buf, out, l.iters, l.step, l.wrap, l.span, 0u, 0.99990f, 0.5f);
            }, 3);
            std::printf("%s{\"c\": %d, \"form\": \"%s\", \"level\": \"%s\", \"warps_per_sm\": %d, "
                        "\"iterations\": %d, \"grid\": %d, \"block\": %d, \"ms\": %.5f, "
                        "\"blocks_per_sm\": [%d, %d]}",
                        first ? "" : ",\n", k.c, k.form ? "register" : "immediate",
                        kLevel[k.level], k.warps, l.iters, l.grid, l.block, ms, lo, hi);
            first = false;
        }
    std::printf("\n]\n}\n");
    std::vector<float> host(32);
    CHECK(cudaMemcpy(host.data(), out, 32 * 4, cudaMemcpyDeviceToHost));
    std::fprintf(stderr, "out[0] = %g\n", host[0]);
    return 0;
}
