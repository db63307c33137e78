// The tma panel's H200 checks in one program (tools/tma_sweep.py writes its case file and reads
// what it prints; tools/device/tma.sh runs it).
//
// Reads case lines from stdin, prints one JSON object per line:
//   E id eb rank d0.. s1.. offset b0.. e0.. interleave swizzle
//       cuTensorMapEncodeTiled of that map (the driver's answer: CUresult, 0 = accepted)
//   L id eb d0 d1 stride1 offset b0 b1 swizzle c0 c1 smem_offset
//       encodes the 2-D map, fills global memory so that element (x, y) holds y * d0 + x + 1
//       (1-byte elements: two passes, low byte then high byte), fills shared memory with 0xFF,
//       runs cp.async.bulk.tensor.2d into a buffer smem_offset bytes past a 1024-byte-aligned base
//       completing on an mbarrier (bounded wait), and prints each element-sized slot of the
//       buffer: the value read (0 = zero fill, -1 = still 0xFF: not written)
//   M id eb d0 d1 d2 s1 s2 offset b0 b1 b2 interleave swizzle c0 c1 c2 smem_offset
//       the same for a rank-3 box (cp.async.bulk.tensor.3d; interleaved maps need rank 3)
//   X id (M's fields)
//       the M load four times, the transaction bytes its copy signals, and the expect-tx
//       values (multiples of 16) under which its phase completes
//   B id count n op v op v ...   (ops: 0 arrive n, 1 expect_tx n, 2 arrive_expect_tx n,
//       3 copy n bytes (cp.async.bulk, complete-tx), 4 complete_tx n, 5 test_wait p)
//       one thread scripts the events on one mbarrier; after each: test_wait.parity 0 and 1,
//       the barrier word and its mbarrier.pending_count, the state an arrive returned
//   C   cudaOccupancyMaxActiveClusters for cluster sizes 1..16 (non-portable sizes allowed)
//       × block sizes × dynamic shared memory, and %cluster_ctarank / %smid of one launch
// Every wait is bounded. Build: nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -o tma_probe tma_probe.cu
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::printf("{\"fatal\":\"%s\",\"line\":%d}\n", cudaGetErrorString(e_), __LINE__); std::exit(1); } } while (0)

static PFN_cuTensorMapEncodeTiled_v12000 encode_fn = nullptr;
static unsigned char* g_base = nullptr;          // 256-byte-aligned global allocation
static const size_t kGlobalBytes = 8u << 20;
static CUtensorMap* g_map = nullptr;             // the map's copy in global memory
static bool g_map_mode = false;                  // argv[1] == "global": loads read that copy

static CUtensorMapDataType dtype_of(int eb) {
    switch (eb) {
        case 1: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
        case 2: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
        case 4: return CU_TENSOR_MAP_DATA_TYPE_INT32;
        default: return CU_TENSOR_MAP_DATA_TYPE_INT64;
    }
}
static CUtensorMapSwizzle swizzle_of(int s) {
    switch (s) {
        case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
        case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
        case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
        default: return CU_TENSOR_MAP_SWIZZLE_NONE;
    }
}
static CUtensorMapInterleave interleave_of(int i) {
    return i == 16 ? CU_TENSOR_MAP_INTERLEAVE_16B
         : i == 32 ? CU_TENSOR_MAP_INTERLEAVE_32B : CU_TENSOR_MAP_INTERLEAVE_NONE;
}

static int encode(CUtensorMap* m, int eb, int rank, const cuuint64_t* dims, const cuuint64_t* strides,
                  unsigned long long offset, const cuuint32_t* box, const cuuint32_t* estr, int il, int sw) {
    return (int)encode_fn(m, dtype_of(eb), (cuuint32_t)rank, g_base + offset, dims, strides, box, estr,
                          interleave_of(il), swizzle_of(sw), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ unsigned test_wait(unsigned bar, unsigned parity) {
    unsigned r;
    asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}" : "=r"(r) : "r"(bar), "r"(parity) : "memory");
    return r;
}
// Waits for phase `parity` to complete, at most `limit` polls: 1 if it did.
__device__ unsigned bounded_wait(unsigned bar, unsigned parity, int limit) {
    for (int i = 0; i < limit; ++i) {
        if (test_wait(bar, parity)) return 1;
        __nanosleep(100);
    }
    return 0;
}

// The map is read from the kernel's parameter (`tmap`) or, when `gmap` is not null, from a copy in
// global memory. A rank-3 box (interleaved maps need rank 3) copies with cp.async.bulk.tensor.3d.
__global__ void load_kernel(const __grid_constant__ CUtensorMap tmap, const CUtensorMap* gmap, int rank,
                            int c0, int c1, int c2, int smem_off, int box_bytes, int dump,
                            unsigned char* out, int* status, int limit = 200000) {
    extern __shared__ unsigned char smem_raw[];
    __shared__ alignas(8) unsigned long long bar;
    const unsigned raw = smem_addr(smem_raw);
    unsigned char* buf = smem_raw + (((raw + 1023u) & ~1023u) - raw);
    for (int i = threadIdx.x; i < smem_off + dump; i += blockDim.x) buf[i] = 0xFF;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const unsigned b = smem_addr(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(b), "r"(box_bytes) : "memory");
        const CUtensorMap* m = gmap ? gmap : &tmap;
        if (rank == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];"
                         :: "r"(smem_addr(buf + smem_off)), "l"(m), "r"(c0), "r"(c1), "r"(c2),
                            "r"(b) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(smem_addr(buf + smem_off)), "l"(m), "r"(c0), "r"(c1), "r"(b)
                         : "memory");
        *status = (int)bounded_wait(b, 0, limit);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < dump; i += blockDim.x) out[i] = buf[smem_off + i];
}

// The transaction bytes a rank-3 copy signals: the barrier expects `big` bytes before the copy,
// the copy's complete-tx lands, then one thread completes one byte at a time until the phase
// completes: the copy counted big - steps. -1: the phase completed before the first step (the
// copy counted big or more), -2: no completion within big steps.
__global__ void tx_kernel(const __grid_constant__ CUtensorMap tmap, int c0, int c1, int c2,
                          int big, int* tx) {
    extern __shared__ unsigned char smem_raw[];
    __shared__ alignas(8) unsigned long long bar;
    const unsigned raw = smem_addr(smem_raw);
    unsigned char* buf = smem_raw + (((raw + 1023u) & ~1023u) - raw);
    const unsigned b = smem_addr(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(b), "r"(big) : "memory");
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];"
                     :: "r"(smem_addr(buf)), "l"(&tmap), "r"(c0), "r"(c1), "r"(c2), "r"(b)
                     : "memory");
        for (int i = 0; i < 4000; ++i) __nanosleep(1000);  // the copy lands (microseconds)
        int r = test_wait(b, 0) ? -1 : -2;
        for (int k = 1; r == -2 && k <= big; ++k) {
            asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
                         :: "r"(b), "r"(1) : "memory");
            if (test_wait(b, 0)) r = big - k;
        }
        *tx = r;
    }
}

static void json_str(const char* key, const std::string& v, bool comma = true);
static void do_load3x(const std::string& id, FILE* in);

// M id eb d0 d1 d2 s1 s2 offset b0 b1 b2 interleave swizzle c0 c1 c2 smem_offset: a rank-3 box
// load; element (x, y, z) holds (z * d1 + y) * d0 + x + 1 (eb >= 2); the expect-tx is the box's
// bytes; every slot of 4 × the box's bytes + 256 is printed, and whether the phase completed.
static void do_load3(const std::string& id, FILE* in) {
    int eb, il, sw, c0, c1, c2, smem_off;
    unsigned long long d0, d1, d2, s1, s2, off;
    unsigned b0, b1, b2;
    std::fscanf(in, "%d %llu %llu %llu %llu %llu %llu %u %u %u %d %d %d %d %d %d", &eb, &d0, &d1,
                &d2, &s1, &s2, &off, &b0, &b1, &b2, &il, &sw, &c0, &c1, &c2, &smem_off);
    cuuint64_t dims[3] = {d0, d1, d2}, strides[2] = {s1, s2};
    cuuint32_t box[3] = {b0, b1, b2}, estr[3] = {1, 1, 1};
    CUtensorMap m;
    const int r = encode(&m, eb, 3, dims, strides, off, box, estr, il, sw);
    std::printf("{\"kind\":\"load3\",");
    json_str("id", id);
    std::printf("\"encode\":%d", r);
    if (r != 0) { std::printf("}\n"); return; }
    const int box_bytes = (int)(b0 * b1 * b2 * eb);
    const int dump = 4 * box_bytes + 256;
    std::vector<unsigned char> host(off + s2 * d2, 0xEE), got(dump);
    for (unsigned long long z = 0; z < d2; ++z)
        for (unsigned long long y = 0; y < d1; ++y)
            for (unsigned long long x = 0; x < d0; ++x) {
                const unsigned long long v = (z * d1 + y) * d0 + x + 1;
                std::memcpy(host.data() + off + z * s2 + y * s1 + x * eb, &v, eb);
            }
    CHECK(cudaMemcpy(g_base, host.data(), host.size(), cudaMemcpyHostToDevice));
    unsigned char* dout;
    int* dstat;
    CHECK(cudaMalloc(&dout, dump));
    CHECK(cudaMalloc(&dstat, sizeof(int)));
    CHECK(cudaMemset(dstat, 0, sizeof(int)));
    const int smem = 1024 + smem_off + dump;
    CHECK(cudaFuncSetAttribute(load_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    load_kernel<<<1, 128, smem>>>(m, nullptr, 3, c0, c1, c2, smem_off, box_bytes, dump, dout, dstat);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int status = 0;
    CHECK(cudaMemcpy(got.data(), dout, dump, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&status, dstat, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dstat));
    std::printf(",\"completed\":%d,\"box_bytes\":%d,\"slots\":[", status, box_bytes);
    for (int k = 0; k < dump / eb; ++k) {
        long long v = 0;
        bool untouched = true;
        const int w = eb < 4 ? eb : 4;
        for (int j = 0; j < eb; ++j) untouched = untouched && got[k * eb + j] == 0xFF;
        for (int j = 0; j < w; ++j) v |= (long long)got[k * eb + j] << (8 * j);
        std::printf("%s%lld", k ? "," : "", untouched ? -1LL : v);
    }
    std::printf("]}\n");
}

// X id (the fields of M): the M load `repeats` times (whether each completed, whether every
// run left the same slots), the transaction bytes the copy signals (tx_kernel), and every
// expect-tx E = 16, 32, … up to the signalled bytes + 64 under which the phase completed
// (expect E, then the copy, a short bounded wait): the partial sums the copy's complete-tx
// passes through.
static void do_load3x(const std::string& id, FILE* in) {
    int eb, il, sw, c0, c1, c2, smem_off;
    unsigned long long d0, d1, d2, s1, s2, off;
    unsigned b0, b1, b2;
    std::fscanf(in, "%d %llu %llu %llu %llu %llu %llu %u %u %u %d %d %d %d %d %d", &eb, &d0, &d1,
                &d2, &s1, &s2, &off, &b0, &b1, &b2, &il, &sw, &c0, &c1, &c2, &smem_off);
    cuuint64_t dims[3] = {d0, d1, d2}, strides[2] = {s1, s2};
    cuuint32_t box[3] = {b0, b1, b2}, estr[3] = {1, 1, 1};
    CUtensorMap m;
    const int r = encode(&m, eb, 3, dims, strides, off, box, estr, il, sw);
    std::printf("{\"kind\":\"load3x\",");
    json_str("id", id);
    std::printf("\"encode\":%d", r);
    if (r != 0) { std::printf("}\n"); return; }
    const int box_bytes = (int)(b0 * b1 * b2 * eb);
    const int dump = 4 * box_bytes + 256;
    std::vector<unsigned char> host(off + s2 * d2, 0xEE), got(dump), first(dump);
    for (unsigned long long z = 0; z < d2; ++z)
        for (unsigned long long y = 0; y < d1; ++y)
            for (unsigned long long x = 0; x < d0; ++x) {
                const unsigned long long v = (z * d1 + y) * d0 + x + 1;
                std::memcpy(host.data() + off + z * s2 + y * s1 + x * eb, &v, eb);
            }
    CHECK(cudaMemcpy(g_base, host.data(), host.size(), cudaMemcpyHostToDevice));
    unsigned char* dout;
    int* dstat;
    CHECK(cudaMalloc(&dout, dump));
    CHECK(cudaMalloc(&dstat, sizeof(int)));
    const int smem = 1024 + smem_off + dump;
    CHECK(cudaFuncSetAttribute(load_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const int repeats = 4;
    int done[repeats];
    bool same = true;
    for (int k = 0; k < repeats; ++k) {
        CHECK(cudaMemset(dstat, 0, sizeof(int)));
        load_kernel<<<1, 128, smem>>>(m, nullptr, 3, c0, c1, c2, smem_off, box_bytes, dump, dout, dstat);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(got.data(), dout, dump, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&done[k], dstat, sizeof(int), cudaMemcpyDeviceToHost));
        if (k == 0) first = got;
        else same = same && got == first;
    }
    int* dtx;
    CHECK(cudaMalloc(&dtx, sizeof(int)));
    const int big = 1 << 16;
    CHECK(cudaFuncSetAttribute(tx_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024 + 8192));
    tx_kernel<<<1, 32, 1024 + 8192>>>(m, c0, c1, c2, big, dtx);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int tx = 0;
    CHECK(cudaMemcpy(&tx, dtx, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dtx));
    const int top = (tx > 0 ? tx : 4 * box_bytes) + 64;
    std::vector<int> at;
    for (int e = 16; e <= top; e += 16) {
        CHECK(cudaMemset(dstat, 0, sizeof(int)));
        load_kernel<<<1, 128, smem>>>(m, nullptr, 3, c0, c1, c2, smem_off, e, dump, dout, dstat, 20000);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        int st = 0;
        CHECK(cudaMemcpy(&st, dstat, sizeof(int), cudaMemcpyDeviceToHost));
        if (st) at.push_back(e);
    }
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dstat));
    std::printf(",\"box_bytes\":%d,\"completed\":[", box_bytes);
    for (int k = 0; k < repeats; ++k) std::printf("%s%d", k ? "," : "", done[k]);
    std::printf("],\"same_slots\":%d,\"tx_bytes\":%d,\"completes_at\":[", same ? 1 : 0, tx);
    for (size_t k = 0; k < at.size(); ++k) std::printf("%s%d", k ? "," : "", at[k]);
    std::printf("],\"slots\":[");
    for (int k = 0; k < dump / eb; ++k) {
        long long v = 0;
        bool untouched = true;
        const int w = eb < 4 ? eb : 4;
        for (int j = 0; j < eb; ++j) untouched = untouched && first[k * eb + j] == 0xFF;
        for (int j = 0; j < w; ++j) v |= (long long)first[k * eb + j] << (8 * j);
        std::printf("%s%lld", k ? "," : "", untouched ? -1LL : v);
    }
    std::printf("]}\n");
}

static void json_str(const char* key, const std::string& v, bool comma) {
    std::printf("\"%s\":\"%s\"%s", key, v.c_str(), comma ? "," : "");
}

static void do_encode(const std::string& id, FILE* in) {
    int eb, rank;
    std::fscanf(in, "%d %d", &eb, &rank);
    cuuint64_t dims[5] = {}, strides[5] = {};
    cuuint32_t box[5] = {}, estr[5] = {};
    unsigned long long off;
    for (int i = 0; i < rank; ++i) std::fscanf(in, "%llu", (unsigned long long*)&dims[i]);
    for (int i = 0; i + 1 < rank; ++i) std::fscanf(in, "%llu", (unsigned long long*)&strides[i]);
    std::fscanf(in, "%llu", &off);
    for (int i = 0; i < rank; ++i) std::fscanf(in, "%u", &box[i]);
    for (int i = 0; i < rank; ++i) std::fscanf(in, "%u", &estr[i]);
    int il, sw;
    std::fscanf(in, "%d %d", &il, &sw);
    CUtensorMap m;
    const int r = encode(&m, eb, rank, dims, strides, off, box, estr, il, sw);
    std::printf("{\"kind\":\"encode\",");
    json_str("id", id);
    std::printf("\"result\":%d}\n", r);
}

static void do_load(const std::string& id, FILE* in) {
    int eb, sw, c0, c1, smem_off;
    unsigned long long d0, d1, s1, off;
    unsigned b0, b1;
    std::fscanf(in, "%d %llu %llu %llu %llu %u %u %d %d %d %d", &eb, &d0, &d1, &s1, &off, &b0, &b1,
                &sw, &c0, &c1, &smem_off);
    cuuint64_t dims[2] = {d0, d1}, strides[1] = {s1};
    cuuint32_t box[2] = {b0, b1}, estr[2] = {1, 1};
    CUtensorMap m;
    const int r = encode(&m, eb, 2, dims, strides, off, box, estr, 0, sw);
    if (r == 0 && g_map_mode) CHECK(cudaMemcpy(g_map, &m, sizeof m, cudaMemcpyHostToDevice));
    std::printf("{\"kind\":\"load\",");
    json_str("id", id);
    std::printf("\"encode\":%d", r);
    if (r != 0) { std::printf("}\n"); return; }
    const int box_bytes = (int)(b0 * b1 * eb);
    const int dump = 2 * box_bytes + 256;
    const int passes = eb == 1 ? 2 : 1;
    std::vector<unsigned char> host(off + s1 * d1), got[2];
    unsigned char* dout;
    int* dstat;
    CHECK(cudaMalloc(&dout, dump));
    CHECK(cudaMalloc(&dstat, sizeof(int)));
    const int smem = 1024 + smem_off + dump;
    CHECK(cudaFuncSetAttribute(load_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int status[2] = {0, 0};
    for (int p = 0; p < passes; ++p) {
        std::memset(host.data(), 0xEE, host.size());
        for (unsigned long long y = 0; y < d1; ++y)
            for (unsigned long long x = 0; x < d0; ++x) {
                const unsigned long long v = y * d0 + x + 1;
                unsigned char* e = host.data() + off + y * s1 + x * eb;
                if (eb == 1) e[0] = (unsigned char)(v >> (8 * p));
                else std::memcpy(e, &v, eb);  // little endian: the low eb bytes
            }
        CHECK(cudaMemcpy(g_base, host.data(), host.size(), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(dstat, 0, sizeof(int)));
        load_kernel<<<1, 128, smem>>>(m, g_map_mode ? g_map : nullptr, 2, c0, c1, 0, smem_off, box_bytes,
                                      dump, dout, dstat);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        got[p].resize(dump);
        CHECK(cudaMemcpy(got[p].data(), dout, dump, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&status[p], dstat, sizeof(int), cudaMemcpyDeviceToHost));
    }
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dstat));
    std::printf(",\"completed\":%d,\"box_bytes\":%d,\"slots\":[", status[0] && (passes == 1 || status[1]),
                box_bytes);
    const int n = dump / eb;
    for (int k = 0; k < n; ++k) {
        long long v = 0;
        bool untouched = true;
        if (eb == 1) {
            v = got[0][k] | (got[1][k] << 8);
            untouched = got[0][k] == 0xFF && got[1][k] == 0xFF;
        } else {
            const int w = eb < 4 ? eb : 4;
            for (int j = 0; j < eb; ++j) untouched = untouched && got[0][k * eb + j] == 0xFF;
            for (int j = 0; j < w; ++j) v |= (long long)got[0][k * eb + j] << (8 * j);
        }
        std::printf("%s%lld", k ? "," : "", untouched ? -1LL : v);
    }
    std::printf("]}\n");
}

struct Event { int op; int v; };
struct Record { unsigned w0, w1; unsigned long long word, state; unsigned pending, state_pending; };

__global__ void barrier_kernel(int count, const Event* ev, int n, Record* rec, const unsigned char* src) {
    __shared__ alignas(8) unsigned long long bar;
    __shared__ alignas(128) unsigned char dst[8192];
    const unsigned b = smem_addr(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int i = 0; i < n; ++i) {
        unsigned long long st = 0;
        const int v = ev[i].v;
        switch (ev[i].op) {
            case 0: asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;"
                                 : "=l"(st) : "r"(b), "r"(v) : "memory"); break;
            case 1: asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
                                 :: "r"(b), "r"(v) : "memory"); break;
            case 2: asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                                 : "=l"(st) : "r"(b), "r"(v) : "memory"); break;
            case 3:
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                             :: "r"(smem_addr(dst)), "l"(src), "r"(v), "r"(b) : "memory");
                for (int t = 0; t < 200; ++t) __nanosleep(100);  // let the bytes land
                break;
            case 4: asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
                                 :: "r"(b), "r"(v) : "memory"); break;
            default: break;  // 5: test_wait, recorded below like every event
        }
        Record r;
        r.w0 = test_wait(b, 0);
        r.w1 = test_wait(b, 1);
        r.word = *(volatile unsigned long long*)&bar;
        r.state = st;
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r.pending) : "l"(r.word));
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r.state_pending) : "l"(st));
        rec[i] = r;
    }
}

static void do_barrier(const std::string& id, FILE* in, const unsigned char* src) {
    int count, n;
    std::fscanf(in, "%d %d", &count, &n);
    std::vector<Event> ev(n);
    for (auto& e : ev) std::fscanf(in, "%d %d", &e.op, &e.v);
    Event* dev;
    Record* drec;
    CHECK(cudaMalloc(&dev, n * sizeof(Event) + 8));
    CHECK(cudaMalloc(&drec, n * sizeof(Record) + 8));
    CHECK(cudaMemcpy(dev, ev.data(), n * sizeof(Event), cudaMemcpyHostToDevice));
    barrier_kernel<<<1, 1>>>(count, dev, n, drec, src);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<Record> rec(n);
    CHECK(cudaMemcpy(rec.data(), drec, n * sizeof(Record), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dev));
    CHECK(cudaFree(drec));
    std::printf("{\"kind\":\"barrier\",");
    json_str("id", id);
    std::printf("\"trace\":[");
    for (int i = 0; i < n; ++i)
        std::printf("%s{\"wait0\":%u,\"wait1\":%u,\"word\":\"%016llx\",\"pending\":%u,"
                    "\"state\":\"%016llx\",\"state_pending\":%u}", i ? "," : "", rec[i].w0, rec[i].w1,
                    rec[i].word, rec[i].pending, rec[i].state, rec[i].state_pending);
    std::printf("]}\n");
}

__global__ void cluster_kernel(int* out) {
    unsigned rank, smid, cid;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = (int)rank;
        out[3 * blockIdx.x + 1] = (int)smid;
        out[3 * blockIdx.x + 2] = (int)cid;
    }
}

static void do_clusters() {
    CHECK(cudaFuncSetAttribute(cluster_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CHECK(cudaFuncSetAttribute(cluster_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    const int threads[] = {128, 256, 1024};
    const int shared[] = {0, 48 * 1024, 100 * 1024, 227 * 1024};
    std::printf("{\"kind\":\"clusters\",\"occupancy\":[");
    bool first = true;
    for (int t : threads)
        for (int s : shared)
            for (int cs = 1; cs <= 16; ++cs) {
                cudaLaunchConfig_t cfg = {};
                cfg.gridDim = dim3(cs * 16);
                cfg.blockDim = dim3(t);
                cfg.dynamicSmemBytes = s;
                cudaLaunchAttribute a[1];
                a[0].id = cudaLaunchAttributeClusterDimension;
                a[0].val.clusterDim.x = cs;
                a[0].val.clusterDim.y = 1;
                a[0].val.clusterDim.z = 1;
                cfg.attrs = a;
                cfg.numAttrs = 1;
                int n = -1;
                cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (void*)cluster_kernel, &cfg);
                if (e != cudaSuccess) { n = -1; cudaGetLastError(); }
                std::printf("%s{\"threads\":%d,\"shared\":%d,\"cluster\":%d,\"max_active_clusters\":%d,"
                            "\"error\":\"%s\"}", first ? "" : ",", t, s, cs, n,
                            e == cudaSuccess ? "" : cudaGetErrorName(e));
                first = false;
            }
    std::printf("],\"placement\":[");
    const int sizes[] = {2, 4, 16};
    for (int k = 0; k < 3; ++k) {
        const int cs = sizes[k], grid = 32;
        int* dout;
        CHECK(cudaMalloc(&dout, 3 * grid * sizeof(int)));
        CHECK(cudaMemset(dout, 0xFF, 3 * grid * sizeof(int)));
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(grid);
        cfg.blockDim = dim3(128);
        cudaLaunchAttribute a[1];
        a[0].id = cudaLaunchAttributeClusterDimension;
        a[0].val.clusterDim.x = cs;
        a[0].val.clusterDim.y = 1;
        a[0].val.clusterDim.z = 1;
        cfg.attrs = a;
        cfg.numAttrs = 1;
        cudaError_t e = cudaLaunchKernelEx(&cfg, cluster_kernel, dout);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        std::vector<int> h(3 * grid, -1);
        if (e == cudaSuccess) CHECK(cudaMemcpy(h.data(), dout, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
        else cudaGetLastError();
        CHECK(cudaFree(dout));
        std::printf("%s{\"cluster\":%d,\"grid\":%d,\"error\":\"%s\",\"blocks\":[", k ? "," : "", cs, grid,
                    e == cudaSuccess ? "" : cudaGetErrorName(e));
        for (int i = 0; i < grid; ++i)
            std::printf("%s[%d,%d,%d]", i ? "," : "", h[3 * i], h[3 * i + 1], h[3 * i + 2]);
        std::printf("]}");
    }
    std::printf("]}\n");
}

int main(int argc, char** argv) {
    g_map_mode = argc > 1 && std::strcmp(argv[1], "global") == 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    std::printf("{\"kind\":\"device\",\"name\":\"%s\",\"cc\":\"%d.%d\",\"sms\":%d,\"driver_api\":%d,"
                "\"runtime\":%d}\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount, drv, rt);
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&encode_fn, 12000,
                                           cudaEnableDefault, &q));
    if (!encode_fn || q != cudaDriverEntryPointSuccess) { std::printf("{\"fatal\":\"no encode\"}\n"); return 1; }
    CHECK(cudaMalloc(&g_base, kGlobalBytes));
    CHECK(cudaMalloc(&g_map, sizeof(CUtensorMap)));
    char kind[4], idbuf[128];
    while (std::fscanf(stdin, "%3s", kind) == 1) {
        if (kind[0] == 'C') { do_clusters(); std::fflush(stdout); continue; }
        std::fscanf(stdin, "%127s", idbuf);
        const std::string id(idbuf);
        if (kind[0] == 'E') do_encode(id, stdin);
        else if (kind[0] == 'L') do_load(id, stdin);
        else if (kind[0] == 'M') do_load3(id, stdin);
        else if (kind[0] == 'X') do_load3x(id, stdin);
        else if (kind[0] == 'B') do_barrier(id, stdin, g_base);
        std::fflush(stdout);
    }
    return 0;
}
