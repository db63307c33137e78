// Occupancy probe: asks the CUDA occupancy API how many blocks of a kernel fit on one SM, for a
// grid of (registers per thread, threads per block, dynamic shared memory) cases, and writes the
// answers as JSON. gpuviz's occupancy model is tested against that file
// (tests/data/occupancy_measured.json), so the model's allocation rules are the device's rules.
//
// Each register count is a separate translation unit compiled with -maxrregcount, because the
// register limit is per compilation unit. The kernel keeps far more values live than any limit,
// so the compiler uses (up to) the whole limit; the probe records the count the kernel really got
// (cudaFuncGetAttributes numRegs) and the model is checked with that count.
//
// Build and run (sm_90 shown; the register list must match PROBE_REG_LIST below):
//   src=tools/occupancy_probe.cu; arch=-arch=sm_90
//   for r in 16 24 32 40 48 56 64 65 72 80 96 128 168 200 255; do
//     nvcc $arch -c -DPROBE_REGS=$r -maxrregcount=$r $src -o k$r.o; done
//   nvcc $arch -c -DPROBE_REGS=0 $src -o k0.o        # light kernel, no register limit
//   nvcc $arch -c -DPROBE_STATIC $src -o kstatic.o   # light kernel, 4 KiB static shared memory
//   nvcc $arch -DPROBE_MAIN $src k*.o -o occupancy_probe && ./occupancy_probe out.json

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// The register limits probed; keep in step with the build loop.
#define PROBE_REG_LIST(X) \
    X(16) X(24) X(32) X(40) X(48) X(56) X(64) X(65) X(72) X(80) X(96) X(128) X(168) X(200) X(255)

#define PROBE_STR2(a) #a
#define PROBE_STR(a) PROBE_STR2(a)
#define PROBE_CAT2(a, b) a##b
#define PROBE_CAT(a, b) PROBE_CAT2(a, b)

struct ProbeKernel {
    const void* func;
    const char* name;
    int reg_limit;  // -maxrregcount used to build it, 0 = none
};

#if defined(PROBE_REGS) || defined(PROBE_STATIC)

#if defined(PROBE_STATIC)
#define PROBE_NAME probe_static
#define PROBE_LIMIT 0
#else
#define PROBE_NAME PROBE_CAT(probe_regs_, PROBE_REGS)
#define PROBE_LIMIT PROBE_REGS
#endif

#define LIVE 256

__global__ void PROBE_CAT(PROBE_NAME, _kernel)(const float* in, float* out, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(PROBE_STATIC)
    __shared__ float tile[1024];  // 4 KiB of static shared memory
    tile[threadIdx.x % 1024] = in[tid % n];
    __syncthreads();
    out[tid % n] = tile[(threadIdx.x + 1) % 1024];
#elif PROBE_REGS == 0
    out[tid % n] = in[tid % n] * 2.0f;
#else
    // LIVE values stay live across a dependent mixing loop: far more than any register limit.
    float acc[LIVE];
#pragma unroll
    for (int i = 0; i < LIVE; ++i) acc[i] = in[(tid * LIVE + i) % n];
    for (int round = 0; round < 4; ++round) {
#pragma unroll
        for (int i = 0; i < LIVE; ++i) acc[i] = acc[i] * acc[(i + 7) % LIVE] + 1.0f;
    }
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < LIVE; ++i) sum += acc[i] * (float)(i + 1);
    out[tid % n] = sum;
#endif
}

extern "C" ProbeKernel PROBE_CAT(PROBE_NAME, _info)() {
    ProbeKernel k;
    k.func = (const void*)PROBE_CAT(PROBE_NAME, _kernel);
    k.name = PROBE_STR(PROBE_NAME);
    k.reg_limit = PROBE_LIMIT;
    return k;
}

#endif  // a kernel unit

#if defined(PROBE_MAIN)

#define DECLARE_INFO(r) extern "C" ProbeKernel probe_regs_##r##_info();
PROBE_REG_LIST(DECLARE_INFO)
extern "C" ProbeKernel probe_regs_0_info();
extern "C" ProbeKernel probe_static_info();

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err_ = (call);                                                   \
        if (err_ != cudaSuccess) {                                                   \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,        \
                         cudaGetErrorString(err_));                                  \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "occupancy_measured.json";
    int device = 0;
    CHECK(cudaSetDevice(device));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, device));

    ProbeKernel kernels[64];
    int count = 0;
    kernels[count++] = probe_regs_0_info();
    kernels[count++] = probe_static_info();
#define ADD_INFO(r) kernels[count++] = probe_regs_##r##_info();
    PROBE_REG_LIST(ADD_INFO)

    const int threads[] = {1, 32, 33, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 1024};
    const size_t dynamic[] = {0, 1, 128, 1000, 1024, 4096, 10000, 16384, 32768, 49152,
                              65536, 100000, 116736, 200000, 232448};

    FILE* f = std::fopen(path, "w");
    if (!f) {
        std::perror(path);
        return 1;
    }
    std::fprintf(f, "{\n  \"device\": {\"name\": \"%s\", \"compute_capability\": \"%d.%d\", ", p.name,
                 p.major, p.minor);
    std::fprintf(f,
                 "\"sm_count\": %d, \"warp_size\": %d, \"max_threads_per_sm\": %d, "
                 "\"max_blocks_per_sm\": %d, \"registers_per_sm\": %d, \"registers_per_block\": %d, "
                 "\"shared_memory_per_sm\": %zu, \"shared_memory_per_block\": %zu, "
                 "\"shared_memory_per_block_optin\": %zu, \"reserved_shared_memory_per_block\": %zu, "
                 "\"l2_cache_size\": %d, \"memory_bus_width\": %d, \"total_global_mem\": %zu},\n",
                 p.multiProcessorCount, p.warpSize, p.maxThreadsPerMultiProcessor,
                 p.maxBlocksPerMultiProcessor, p.regsPerMultiprocessor, p.regsPerBlock,
                 p.sharedMemPerMultiprocessor, p.sharedMemPerBlock, p.sharedMemPerBlockOptin,
                 p.reservedSharedMemPerBlock, p.l2CacheSize, p.memoryBusWidth, p.totalGlobalMem);
    std::fprintf(f, "  \"note\": \"cudaOccupancyMaxActiveBlocksPerMultiprocessor with the default "
                    "shared-memory carveout; dynamic shared memory limit raised to the opt-in "
                    "maximum\",\n");
    std::fprintf(f, "  \"kernels\": [\n");
    for (int k = 0; k < count; ++k) {
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, kernels[k].func));
        int optin_dynamic = (int)(p.sharedMemPerBlockOptin - a.sharedSizeBytes);
        CHECK(cudaFuncSetAttribute(kernels[k].func, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin_dynamic));
        CHECK(cudaFuncGetAttributes(&a, kernels[k].func));
        std::fprintf(f,
                     "    {\"name\": \"%s\", \"reg_limit\": %d, \"num_regs\": %d, "
                     "\"static_shared\": %zu, \"local_bytes\": %zu, \"max_threads_per_block\": %d, "
                     "\"max_dynamic_shared\": %d}%s\n",
                     kernels[k].name, kernels[k].reg_limit, a.numRegs, a.sharedSizeBytes,
                     a.localSizeBytes, a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes,
                     k + 1 < count ? "," : "");
    }
    std::fprintf(f, "  ],\n  \"cases\": [\n");
    bool first = true;
    int measured = 0;
    for (int k = 0; k < count; ++k) {
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, kernels[k].func));
        for (int t : threads) {
            for (size_t s : dynamic) {
                int blocks = -1;
                cudaError_t err =
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernels[k].func, t, s);
                cudaGetLastError();
                std::fprintf(f,
                             "%s    {\"kernel\": \"%s\", \"num_regs\": %d, \"static_shared\": %zu, "
                             "\"threads_per_block\": %d, \"dynamic_shared\": %zu, "
                             "\"max_threads_per_block\": %d, \"status\": \"%s\", "
                             "\"active_blocks_per_sm\": %d}",
                             first ? "" : ",\n", kernels[k].name, a.numRegs, a.sharedSizeBytes, t,
                             s, a.maxThreadsPerBlock, cudaGetErrorName(err),
                             err == cudaSuccess ? blocks : -1);
                first = false;
                ++measured;
            }
        }
    }
    std::fprintf(f, "\n  ]\n}\n");
    std::fclose(f);
    std::printf("%s (sm_%d%d): %d kernels, %d cases written to %s\n", p.name, p.major, p.minor,
                count, measured, path);
    for (int k = 0; k < count; ++k) {
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, kernels[k].func));
        std::printf("  %-16s limit %3d -> %3d registers, %zu B local\n", kernels[k].name,
                    kernels[k].reg_limit, a.numRegs, a.localSizeBytes);
    }
    return 0;
}

#endif  // PROBE_MAIN
