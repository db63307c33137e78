// L2 scan probe: every block reads the same buffer of W bytes, front to back, PASSES times, so
// each byte is read by every SM (as a GEMM's operand tiles are). Nsight Compute's DRAM bytes read
// ÷ W says how much of a cyclic working set the L2 keeps: an LRU of capacity C keeps all of it
// when W ≤ C and none of it when W > C (each pass evicts what the next one needs first), so it
// reads W once below C and PASSES × W above; a cache that keeps part of a working set larger
// than itself reads between the two. gpuviz's traversal notes use it to say why an LRU of one L2
// partition misses the H200's traffic where A and B are about its size (docs/hardware-notes.md).
//
// Build:   nvcc -arch=sm_90a -O3 -o l2_scan_probe tools/l2_scan_probe.cu
// Run:     ncu --clock-control none --cache-control all --csv --page raw \
//              --metrics dram__bytes_read.sum -k scan ./l2_scan_probe MIB...

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

constexpr int PASSES = 4;
constexpr int THREADS = 1024;

// Every block walks the whole buffer PASSES times; loads go to L2 only (ld.global.cg), so the
// L1 keeps nothing between passes.
__global__ void __launch_bounds__(THREADS) scan(const uint4* buf, size_t count, unsigned* sink) {
    unsigned acc = 0;
    for (int p = 0; p < PASSES; ++p)
        for (size_t i = threadIdx.x; i < count; i += THREADS) {
            const uint4 v = __ldcg(buf + i);
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    if (acc == 0x9e3779b9u) sink[blockIdx.x] = acc;  // keeps the loads; never true for the data
}

__global__ void fill(uint4* x, size_t count) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = make_uint4((unsigned)i, (unsigned)(i * 3), (unsigned)(i * 5), (unsigned)(i * 7));
}

int main(int argc, char** argv) {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned* sink;
    CHECK(cudaMalloc(&sink, sms * sizeof(unsigned)));
    for (int a = 1; a < argc; ++a) {
        const size_t mib = std::strtoul(argv[a], nullptr, 10);
        const size_t count = (mib << 20) / sizeof(uint4);
        uint4* buf;
        CHECK(cudaMalloc(&buf, count * sizeof(uint4)));
        fill<<<1024, 256>>>(buf, count);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        scan<<<sms, THREADS>>>(buf, count, sink);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::printf("scan %zu MiB passes=%d blocks=%d\n", mib, PASSES, sms);
        CHECK(cudaFree(buf));
    }
    CHECK(cudaFree(sink));
    return 0;
}
