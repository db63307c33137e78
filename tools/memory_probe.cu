// Memory probe: one warp performs exactly one memory instruction whose per-lane byte offsets come
// from a case file, so Nsight Compute can count what that single instruction cost (shared-memory
// wavefronts and bank conflicts, global sectors). gpuviz's banks and sectors models are checked
// against these counts (resources/measurements/).
//
// Case file: one case per line,
//     ID OP BYTES o0 o1 … o31
// OP is lds / sts (shared load / store), ldg / stg (global load / store), or ldsm.x1, ldsm.x2,
// ldsm.x4, ldsm.x1.trans, … (ldmatrix); BYTES is the access width per lane (1, 2, 4, 8, 16; 16
// for ldmatrix rows); oN is lane N's byte offset from the start of the buffer, −1 for a lane that
// takes no part (masked). Each case is one kernel launch, in file order, so the profiler's launch
// ID k is case k. The offsets live in __constant__ memory, so the only shared or global access in
// a kernel is the measured one (plus, for loads, a store of the loaded value to global memory,
// which keeps the load alive and is counted under a different metric: op_st).
//
// Build:   nvcc -arch=sm_90 -O3 -o memory_probe tools/memory_probe.cu
// Run:     ncu --clock-control none --cache-control none --csv --page raw \
//              --metrics <see gpuviz/kernels/metrics.py> ./memory_probe cases.txt
// Check:   cuobjdump -sass memory_probe | grep -E 'LDS|STS|LDSM|LDG|STG'

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                         \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

constexpr int kLanes = 32;
constexpr int kSharedBytes = 200 * 1024;   // dynamic shared memory of every shared-memory case
constexpr size_t kGlobalBytes = 64u << 20;  // global buffer of every global-memory case

__constant__ int c_offset[kLanes];  // byte offset of each lane; −1: the lane is masked

// ---- shared-memory loads: one LDS of BYTES per active lane ----------------------------------
template <int BYTES>
__global__ void lds_probe(unsigned* out) {
    extern __shared__ __align__(16) unsigned char smem[];
    const int lane = threadIdx.x;
    const int off = c_offset[lane];
    if (off < 0) return;
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + off;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (BYTES == 1) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(a) : "r"(addr) : "memory");
    if (BYTES == 2) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(a) : "r"(addr) : "memory");
    if (BYTES == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(addr) : "memory");
    if (BYTES == 8)
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr) : "memory");
    if (BYTES == 16)
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr) : "memory");
    out[lane] = a ^ b ^ c ^ d;  // a dependent global store keeps the load alive
}

// ---- shared-memory stores: one STS of BYTES per active lane ---------------------------------
template <int BYTES>
__global__ void sts_probe(unsigned* out) {
    extern __shared__ __align__(16) unsigned char smem[];
    const int lane = threadIdx.x;
    const int off = c_offset[lane];
    if (off < 0) return;
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + off;
    const unsigned v = 0x01010101u * (lane + 1);
    if (BYTES == 1) asm volatile("st.volatile.shared.u8 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
    if (BYTES == 2) asm volatile("st.volatile.shared.u16 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
    if (BYTES == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
    if (BYTES == 8)
        asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" :: "r"(addr), "r"(v), "r"(v + 1)
                     : "memory");
    if (BYTES == 16)
        asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};"
                     :: "r"(addr), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
    (void)out;
}

// ---- ldmatrix: lanes 0…8·N−1 each give the address of one 16-byte row -------------------------
template <int N, bool TRANS>
__global__ void ldsm_probe(unsigned* out) {
    extern __shared__ __align__(16) unsigned char smem[];
    const int lane = threadIdx.x;
    const int off = c_offset[lane] < 0 ? 0 : c_offset[lane];  // lanes past 8·N give no row
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + off;
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (N == 1 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr));
    if (N == 1 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                     : "=r"(r0) : "r"(addr));
    if (N == 2 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r0), "=r"(r1) : "r"(addr));
    if (N == 2 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r0), "=r"(r1) : "r"(addr));
    if (N == 4 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    if (N == 4 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    out[lane] = r0 ^ r1 ^ r2 ^ r3;
}

// ---- global loads and stores: one LDG / STG of BYTES per active lane ------------------------
template <int BYTES>
__global__ void ldg_probe(const unsigned char* buf, unsigned* out) {
    const int lane = threadIdx.x;
    const int off = c_offset[lane];
    if (off < 0) return;
    const unsigned char* p = buf + off;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (BYTES == 1) asm volatile("ld.global.u8 %0, [%1];" : "=r"(a) : "l"(p) : "memory");
    if (BYTES == 2) asm volatile("ld.global.u16 %0, [%1];" : "=r"(a) : "l"(p) : "memory");
    if (BYTES == 4) asm volatile("ld.global.u32 %0, [%1];" : "=r"(a) : "l"(p) : "memory");
    if (BYTES == 8)
        asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p) : "memory");
    if (BYTES == 16)
        asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p) : "memory");
    out[lane] = a ^ b ^ c ^ d;
}

template <int BYTES>
__global__ void stg_probe(unsigned char* buf) {
    const int lane = threadIdx.x;
    const int off = c_offset[lane];
    if (off < 0) return;
    unsigned char* p = buf + off;
    const unsigned v = 0x01010101u * (lane + 1);
    if (BYTES == 1) asm volatile("st.global.u8 [%0], %1;" :: "l"(p), "r"(v) : "memory");
    if (BYTES == 2) asm volatile("st.global.u16 [%0], %1;" :: "l"(p), "r"(v) : "memory");
    if (BYTES == 4) asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
    if (BYTES == 8)
        asm volatile("st.global.v2.u32 [%0], {%1, %2};" :: "l"(p), "r"(v), "r"(v + 1) : "memory");
    if (BYTES == 16)
        asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
                     :: "l"(p), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
}

typedef void (*SharedKernel)(unsigned*);

static SharedKernel shared_kernel(const std::string& op, int bytes) {
    if (op == "lds") {
        switch (bytes) {
            case 1: return lds_probe<1>;
            case 2: return lds_probe<2>;
            case 4: return lds_probe<4>;
            case 8: return lds_probe<8>;
            case 16: return lds_probe<16>;
        }
    } else if (op == "sts") {
        switch (bytes) {
            case 1: return sts_probe<1>;
            case 2: return sts_probe<2>;
            case 4: return sts_probe<4>;
            case 8: return sts_probe<8>;
            case 16: return sts_probe<16>;
        }
    }
    if (op == "ldsm.x1") return ldsm_probe<1, false>;
    if (op == "ldsm.x2") return ldsm_probe<2, false>;
    if (op == "ldsm.x4") return ldsm_probe<4, false>;
    if (op == "ldsm.x1.trans") return ldsm_probe<1, true>;
    if (op == "ldsm.x2.trans") return ldsm_probe<2, true>;
    if (op == "ldsm.x4.trans") return ldsm_probe<4, true>;
    return nullptr;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CASES.txt\n", argv[0]);
        return 2;
    }
    FILE* f = std::fopen(argv[1], "r");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    unsigned* out = nullptr;
    unsigned char* buf = nullptr;
    CHECK(cudaMalloc(&out, kLanes * sizeof(unsigned)));
    CHECK(cudaMalloc(&buf, kGlobalBytes));
    CHECK(cudaMemset(buf, 0x5a, kGlobalBytes));
    const SharedKernel all[] = {lds_probe<1>, lds_probe<2>, lds_probe<4>, lds_probe<8>,
                                lds_probe<16>, sts_probe<1>, sts_probe<2>, sts_probe<4>,
                                sts_probe<8>, sts_probe<16>, ldsm_probe<1, false>,
                                ldsm_probe<2, false>, ldsm_probe<4, false>, ldsm_probe<1, true>,
                                ldsm_probe<2, true>, ldsm_probe<4, true>};
    for (SharedKernel k : all)
        CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));

    char id[256], op[64];
    int bytes = 0, n = 0;
    while (std::fscanf(f, "%255s %63s %d", id, op, &bytes) == 3) {
        int offset[kLanes];
        for (int i = 0; i < kLanes; ++i) {
            if (std::fscanf(f, "%d", &offset[i]) != 1) {
                std::fprintf(stderr, "case %s: needs 32 offsets\n", id);
                return 2;
            }
        }
        CHECK(cudaMemcpyToSymbol(c_offset, offset, sizeof offset));
        const std::string o(op);
        if (o == "ldg" || o == "stg") {
            for (int i = 0; i < kLanes; ++i)
                if (offset[i] >= 0 && (size_t)offset[i] + bytes > kGlobalBytes) {
                    std::fprintf(stderr, "case %s: offset past the buffer\n", id);
                    return 2;
                }
            if (o == "ldg") {
                switch (bytes) {
                    case 1: ldg_probe<1><<<1, kLanes>>>(buf, out); break;
                    case 2: ldg_probe<2><<<1, kLanes>>>(buf, out); break;
                    case 4: ldg_probe<4><<<1, kLanes>>>(buf, out); break;
                    case 8: ldg_probe<8><<<1, kLanes>>>(buf, out); break;
                    case 16: ldg_probe<16><<<1, kLanes>>>(buf, out); break;
                    default: std::fprintf(stderr, "case %s: bad width\n", id); return 2;
                }
            } else {
                switch (bytes) {
                    case 1: stg_probe<1><<<1, kLanes>>>(buf); break;
                    case 2: stg_probe<2><<<1, kLanes>>>(buf); break;
                    case 4: stg_probe<4><<<1, kLanes>>>(buf); break;
                    case 8: stg_probe<8><<<1, kLanes>>>(buf); break;
                    case 16: stg_probe<16><<<1, kLanes>>>(buf); break;
                    default: std::fprintf(stderr, "case %s: bad width\n", id); return 2;
                }
            }
        } else {
            SharedKernel k = shared_kernel(o, bytes);
            if (!k) {
                std::fprintf(stderr, "case %s: unknown op %s/%d\n", id, op, bytes);
                return 2;
            }
            for (int i = 0; i < kLanes; ++i)
                if (offset[i] >= 0 && offset[i] + bytes > kSharedBytes) {
                    std::fprintf(stderr, "case %s: offset past shared memory\n", id);
                    return 2;
                }
            k<<<1, kLanes, kSharedBytes>>>(out);
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::printf("case %d %s\n", n, id);
        ++n;
    }
    std::fclose(f);
    CHECK(cudaFree(out));
    CHECK(cudaFree(buf));
    std::printf("cases %d\n", n);
    return 0;
}
