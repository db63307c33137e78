// Carveout-choice probe: which shared-memory carveout the driver really configures for a launch,
// across carveout preferences (cudaFuncAttributePreferredSharedMemoryCarveout: none, 0, 10, 25,
// 50, 100 %), block sizes and dynamic shared-memory sizes, and whether the configuration left by
// the previous launch matters. The preference is a hint: the CUDA C++ Programming Guide says the
// driver may choose a different configuration.
//
// Each case runs after a "prior" launch of another kernel that sets a known configuration:
//   small: carveout 0 %, 32 threads, 1 KiB dynamic (the 8 KiB configuration),
//   large: carveout 100 %, 32 threads, 100 KiB dynamic (at least the 132 KiB configuration),
// then three launches of the case (rep 0 straight after the prior, reps 1 and 2 after itself).
// Each block counts itself in on its SM (%smid, atomicAdd on a per-SM counter), records the
// largest count it saw, stays for a while (bounded spin on %globaltimer) and counts itself out;
// the grid is 64 blocks per SM, so every SM is kept full. Prints one JSON object per case with
// cudaFuncGetAttributes' view, the occupancy API's blocks per SM, and the blocks resident on the
// fullest and the emptiest SM for every rep.
//
// Build:   nvcc -arch=sm_90a -O3 -o carveout_choice_probe tools/carveout_choice_probe.cu
// Run:     ./carveout_choice_probe > choice.jsonl

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                         \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__device__ __forceinline__ void stay(unsigned* now, unsigned* most, unsigned long long ns,
                                     int bytes) {
    extern __shared__ unsigned char dyn[];
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        const unsigned in = atomicAdd(&now[sm], 1u) + 1;
        atomicMax(&most[sm], in);
        unsigned long long t0, t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        do {  // bounded: ends after ns nanoseconds whatever happens
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            atomicMax(&most[sm], atomicAdd(&now[sm], 0u));
        } while (t - t0 < ns);
        if (bytes) dyn[0] = (unsigned char)in;  // the dynamic shared memory is in the launch
        atomicSub(&now[sm], 1u);
    }
    __syncthreads();
}

__global__ void resident(unsigned* now, unsigned* most, unsigned long long ns, int bytes) {
    stay(now, most, ns, bytes);
}
__global__ void prior(unsigned* now, unsigned* most, unsigned long long ns, int bytes) {
    stay(now, most, ns, bytes);
}

static int sms = 0;
static unsigned *now_d, *most_d;

// Launches kernel k and returns {fullest SM, emptiest SM} in blocks resident at once.
static void launch(const void* k, int t, int s, unsigned out[2]) {
    CHECK(cudaMemset(now_d, 0, 1024 * sizeof(unsigned)));
    CHECK(cudaMemset(most_d, 0, 1024 * sizeof(unsigned)));
    unsigned long long ns = 50000;
    void* args[] = {&now_d, &most_d, &ns, &s};
    CHECK(cudaLaunchKernel(k, dim3(sms * 64), dim3(t), args, (size_t)s, 0));
    CHECK(cudaDeviceSynchronize());
    unsigned host[1024];
    CHECK(cudaMemcpy(host, most_d, sizeof host, cudaMemcpyDeviceToHost));
    out[0] = 0;
    out[1] = 1u << 30;
    for (int i = 0; i < sms; ++i) {
        if (host[i] > out[0]) out[0] = host[i];
        if (host[i] < out[1]) out[1] = host[i];
    }
}

int main() {
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    std::printf("{\"device\": \"%s\", \"driver_api\": %d, \"runtime\": %d, \"sm_count\": %d, "
                "\"shared_per_sm\": %zu, \"reserved_per_block\": %zu}\n",
                prop.name, driver, runtime, sms, prop.sharedMemPerMultiprocessor,
                prop.reservedSharedMemPerBlock);
    CHECK(cudaMalloc(&now_d, 1024 * sizeof(unsigned)));
    CHECK(cudaMalloc(&most_d, 1024 * sizeof(unsigned)));
    const void* k = (const void*)resident;
    const void* p = (const void*)prior;
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    CHECK(cudaFuncSetAttribute(p, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    const int carveouts[] = {-1, 0, 10, 25, 50, 100};
    const int threads[] = {32, 64, 128, 256, 512, 1024};
    const int shared[] = {0, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    const char* priors[] = {"small", "large"};
    for (int c : carveouts)
        for (int t : threads)
            for (int s : shared)
                for (int pr = 0; pr < 2; ++pr) {
                    CHECK(cudaFuncSetAttribute(p, cudaFuncAttributePreferredSharedMemoryCarveout,
                                               pr ? 100 : 0));
                    unsigned warm[2];
                    launch(p, 32, pr ? 100 * 1024 : 1024, warm);
                    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                               c));
                    cudaFuncAttributes attr;
                    CHECK(cudaFuncGetAttributes(&attr, k));
                    int api = 0;
                    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, k, t, s));
                    unsigned r[3][2];
                    for (int rep = 0; rep < 3; ++rep) launch(k, t, s, r[rep]);
                    std::printf("{\"carveout\": %d, \"threads\": %d, \"dynamic_shared\": %d, "
                                "\"prior\": \"%s\", \"prior_resident\": %u, \"registers\": %d, "
                                "\"static_shared\": %zu, \"attr_carveout\": %d, \"api\": %d, "
                                "\"resident\": [%u, %u, %u], \"resident_min_sm\": [%u, %u, %u]}\n",
                                c, t, s, priors[pr], warm[0], attr.numRegs, attr.sharedSizeBytes,
                                attr.preferredShmemCarveout, api, r[0][0], r[1][0], r[2][0],
                                r[0][1], r[1][1], r[2][1]);
                }
    return 0;
}
