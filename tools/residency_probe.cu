// Residency probe: how many blocks the H200 actually keeps resident on one SM under a
// shared-memory carveout preference, beside what the occupancy API reports for the same launch.
// The preference (cudaFuncAttributePreferredSharedMemoryCarveout) is a hint: the CUDA C++
// Programming Guide says the driver may choose a different configuration. Each block counts
// itself in on its SM (atomicAdd on a per-SM counter), records the largest count it saw, stays
// for a while, and counts itself out; the grid is 64 blocks per SM, so every SM is kept full.
// Prints one JSON object per case: carveout (-1 = none), threads, dynamic shared bytes, the
// API's blocks per SM, and the largest number of blocks seen on any SM at once.
//
// Build:   nvcc -arch=sm_90a -O3 -o residency_probe tools/residency_probe.cu
// Run:     ./residency_probe > residency.jsonl

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

__global__ void resident(unsigned* now, unsigned* most, unsigned long long stay_ns, int bytes) {
    extern __shared__ unsigned char dyn[];
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        const unsigned in = atomicAdd(&now[sm], 1u) + 1;
        atomicMax(&most[sm], in);
        unsigned long long t0, t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        do {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            atomicMax(&most[sm], atomicAdd(&now[sm], 0u));
        } while (t - t0 < stay_ns);
        if (bytes) dyn[0] = (unsigned char)in;  // the dynamic shared memory is in the launch
        atomicSub(&now[sm], 1u);
    }
    __syncthreads();
}

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned *now, *most;
    CHECK(cudaMalloc(&now, 1024 * sizeof(unsigned)));
    CHECK(cudaMalloc(&most, 1024 * sizeof(unsigned)));
    const int carveouts[] = {-1, 0, 10, 25, 50, 100};
    const int threads[] = {32, 128, 256, 1024};
    const int shared[] = {0, 1024, 8192, 32768};
    CHECK(cudaFuncSetAttribute(resident, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    for (int c : carveouts)
        for (int t : threads)
            for (int s : shared) {
                CHECK(cudaFuncSetAttribute(resident,
                                           cudaFuncAttributePreferredSharedMemoryCarveout, c));
                int api = 0;
                CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, resident, t, s));
                unsigned best = 0;
                for (int rep = 0; rep < 3; ++rep) {
                    CHECK(cudaMemset(now, 0, 1024 * sizeof(unsigned)));
                    CHECK(cudaMemset(most, 0, 1024 * sizeof(unsigned)));
                    resident<<<sms * 64, t, s>>>(now, most, 20000, s);
                    CHECK(cudaGetLastError());
                    CHECK(cudaDeviceSynchronize());
                    unsigned host[1024];
                    CHECK(cudaMemcpy(host, most, sizeof host, cudaMemcpyDeviceToHost));
                    for (int i = 0; i < 1024; ++i)
                        if (host[i] > best) best = host[i];
                }
                std::printf("{\"carveout\": %d, \"threads\": %d, \"dynamic_shared\": %d, "
                            "\"api\": %d, \"resident\": %u}\n", c, t, s, api, best);
            }
    return 0;
}
