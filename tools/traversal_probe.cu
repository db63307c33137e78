// Traversal probe: a persistent tiled kernel (bf16 A·B, 128 × 128 output tiles, K in steps of
// BK = 64, or 32 with -DBK=32) that visits output tiles in a given order, so Nsight Compute's DRAM bytes read show how
// much operand reuse the L2 gives each order. gpuviz's traversal model is checked against these
// bytes (resources/measurements/).
//
// Case file: one case per line, "ID N TILES t0 t1 …": an N × N problem whose (N/128)² output
// tiles are visited in the listed order (linear tile number row·(N/128) + col). The grid has one
// block per SM; block b runs order positions b, b + P, b + 2P, … (P blocks), so at any time the
// P tiles of one step are in flight together, as in the model's in_flight.
//
// Build:   nvcc -arch=sm_90 -O3 -o traversal_probe tools/traversal_probe.cu   (-DBK=32 for K
//          steps of 32: 8 KiB A and B tiles)
// Run:     ncu --clock-control none --cache-control all --csv --page raw \
//              --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum \
//              ./traversal_probe traversal_cases.txt
// Lockstep: --lockstep puts a grid-wide barrier between steps, so the P tiles of a step run
//          together exactly as the model's steps do (one block per SM: all are resident).
// Schedule: ./traversal_probe traversal_cases.txt TRACE.txt also writes, per case, when each
//          order position started and ended (%globaltimer, ns) and on which SM it ran: the real
//          schedule of the resident blocks, which the model idealises as steps of P tiles.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
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

constexpr int TILE = 128;  // output tile edge (elements)
#ifndef BK
#define BK 64  // K step (elements)
#endif
constexpr int THREADS = 256;

// One output tile (row i, column j of the tile grid) at a time: for each K step, the A tile
// (i, kk) and the B tile (kk, j) go through shared memory; every element of both is used.
__global__ void __launch_bounds__(THREADS)
traverse(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int n,
         const int* order, int tiles, unsigned long long* trace, unsigned* barrier) {
    __shared__ __align__(16) __nv_bfloat16 As[TILE * BK];  // A tile, row-major: 16 KiB at BK 64
    __shared__ __align__(16) __nv_bfloat16 Bs[BK * TILE];  // B tile, row-major
    const int grid_cols = n / TILE;
    const int t = threadIdx.x;
    const int row = t / 2;            // this thread's output row within the tile
    const int half = (t % 2) * 64;    // and which 64 of its 128 columns
    const int steps = (tiles + gridDim.x - 1) / gridDim.x;
    for (int step = 0; step < steps; ++step) {
        const int pos = step * gridDim.x + blockIdx.x;
        if (barrier && step) {  // lockstep: step s starts when every block has ended step s - 1
            __syncthreads();
            if (t == 0) {
                __threadfence();
                atomicAdd(barrier, 1u);
                const unsigned want = step * gridDim.x;
                while (atomicAdd(barrier, 0u) < want) {
                }
            }
            __syncthreads();
        }
        if (pos >= tiles) continue;
        const int tile = order[pos];
        const int ti = tile / grid_cols, tj = tile % grid_cols;
        if (trace && t == 0) {
            unsigned long long now;
            unsigned sm;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            trace[3 * pos] = now;
            trace[3 * pos + 2] = sm;
        }
        float acc = 0.0f;
        for (int kk = 0; kk < n / BK; ++kk) {
            // A tile: 128 rows × BK bf16 in 16-byte pieces, coalesced.
            for (int p = t; p < TILE * BK / 8; p += THREADS) {
                const int r = p / (BK / 8), c = (p % (BK / 8)) * 8;
                *reinterpret_cast<uint4*>(&As[r * BK + c]) = *reinterpret_cast<const uint4*>(
                    &A[(size_t)(ti * TILE + r) * n + kk * BK + c]);
            }
            // B tile: BK rows × 128 bf16.
            for (int p = t; p < BK * TILE / 8; p += THREADS) {
                const int r = p / (TILE / 8), c = (p % (TILE / 8)) * 8;
                *reinterpret_cast<uint4*>(&Bs[r * TILE + c]) = *reinterpret_cast<const uint4*>(
                    &B[(size_t)(kk * BK + r) * n + tj * TILE + c]);
            }
            __syncthreads();
            // A thin slice of the product, enough that every loaded byte is used.
            for (int k = 0; k < BK; ++k)
                acc += __bfloat162float(As[row * BK + k]) *
                       __bfloat162float(Bs[k * TILE + half + (k % 64)]);
            __syncthreads();
        }
        // C tile: this thread writes its 64 elements of row `row`.
        for (int c = 0; c < 64; ++c)
            C[(size_t)(ti * TILE + row) * n + tj * TILE + half + c] = __float2bfloat16(acc + c);
        if (trace) {
            __syncthreads();
            if (t == 0) {
                unsigned long long now;
                asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
                trace[3 * pos + 1] = now;
            }
        }
    }
}

__global__ void fill(__nv_bfloat16* x, size_t count, unsigned seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        x[i] = __float2bfloat16((float)(h % 1024) / 1024.0f - 0.5f);
    }
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CASES.txt [TRACE.txt] [--lockstep]\n", argv[0]);
        return 2;
    }
    FILE* f = std::fopen(argv[1], "r");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    bool lockstep = false;
    const char* trace_path = nullptr;
    for (int i = 2; i < argc; ++i) {
        if (std::string(argv[i]) == "--lockstep")
            lockstep = true;
        else
            trace_path = argv[i];
    }
    FILE* trace_file = trace_path ? std::fopen(trace_path, "w") : nullptr;
    if (trace_path && !trace_file) {
        std::perror(trace_path);
        return 2;
    }
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    char id[256];
    int n = 0, tiles = 0, count = 0;
    while (std::fscanf(f, "%255s %d %d", id, &n, &tiles) == 3) {
        std::vector<int> order(tiles);
        for (int i = 0; i < tiles; ++i)
            if (std::fscanf(f, "%d", &order[i]) != 1) {
                std::fprintf(stderr, "case %s: short order\n", id);
                return 2;
            }
        if (n % TILE || tiles != (n / TILE) * (n / TILE)) {
            std::fprintf(stderr, "case %s: N must be a multiple of %d and the order complete\n",
                         id, TILE);
            return 2;
        }
        const size_t elems = (size_t)n * n;
        __nv_bfloat16 *A, *B, *C;
        int* d_order;
        CHECK(cudaMalloc(&A, elems * 2));
        CHECK(cudaMalloc(&B, elems * 2));
        CHECK(cudaMalloc(&C, elems * 2));
        CHECK(cudaMalloc(&d_order, tiles * sizeof(int)));
        CHECK(cudaMemcpy(d_order, order.data(), tiles * sizeof(int), cudaMemcpyHostToDevice));
        unsigned long long* d_trace = nullptr;
        if (trace_file) CHECK(cudaMalloc(&d_trace, 3 * sizeof(unsigned long long) * tiles));
        unsigned* d_barrier = nullptr;
        if (lockstep) {
            CHECK(cudaMalloc(&d_barrier, sizeof(unsigned)));
            CHECK(cudaMemset(d_barrier, 0, sizeof(unsigned)));
        }
        fill<<<1024, 256>>>(A, elems, 1u);
        CHECK(cudaGetLastError());
        fill<<<1024, 256>>>(B, elems, 2u);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        cudaEvent_t t0, t1;
        CHECK(cudaEventCreate(&t0));
        CHECK(cudaEventCreate(&t1));
        CHECK(cudaEventRecord(t0));
        traverse<<<sms, THREADS>>>(A, B, C, n, d_order, tiles, d_trace, d_barrier);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaDeviceSynchronize());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        std::printf("case %d %s n=%d tiles=%d blocks=%d bk=%d lockstep=%d ms=%.3f\n", count, id, n,
                    tiles, sms, BK, (int)lockstep, ms);
        if (d_barrier) CHECK(cudaFree(d_barrier));
        if (trace_file) {  // "case ID", then per order position: start end sm
            std::vector<unsigned long long> host(3 * (size_t)tiles);
            CHECK(cudaMemcpy(host.data(), d_trace, host.size() * sizeof(host[0]),
                             cudaMemcpyDeviceToHost));
            std::fprintf(trace_file, "case %s\n", id);
            for (int i = 0; i < tiles; ++i)
                std::fprintf(trace_file, "%llu %llu %llu\n", host[3 * i], host[3 * i + 1],
                             host[3 * i + 2]);
            CHECK(cudaFree(d_trace));
        }
        CHECK(cudaEventDestroy(t0));
        CHECK(cudaEventDestroy(t1));
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(C));
        CHECK(cudaFree(d_order));
        ++count;
    }
    std::fclose(f);
    if (trace_file) std::fclose(trace_file);
    return 0;
}
