// Traversal probe: a persistent tiled kernel (bf16 A·B, 128 × 128 output tiles, K in steps of
// 64) that visits output tiles in a given order, so Nsight Compute's DRAM bytes read show how
// much operand reuse the L2 gives each order. gpuviz's traversal model is checked against these
// bytes (resources/measurements/).
//
// Case file: one case per line, "ID N TILES t0 t1 …": an N × N problem whose (N/128)² output
// tiles are visited in the listed order (linear tile number row·(N/128) + col). The grid has one
// block per SM; block b runs order positions b, b + P, b + 2P, … (P blocks), so at any time the
// P tiles of one step are in flight together, as in the model's in_flight.
//
// Build:   nvcc -arch=sm_90 -O3 -o traversal_probe tools/traversal_probe.cu
// Run:     ncu --clock-control none --cache-control all --csv --page raw \
//              --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum \
//              ./traversal_probe traversal_cases.txt

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
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
constexpr int BK = 64;     // K step (elements)
constexpr int THREADS = 256;

// One output tile (row i, column j of the tile grid) at a time: for each K step, the A tile
// (i, kk) and the B tile (kk, j) go through shared memory; every element of both is used.
__global__ void __launch_bounds__(THREADS)
traverse(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int n,
         const int* order, int tiles) {
    __shared__ __align__(16) __nv_bfloat16 As[TILE * BK];  // 16 KiB: A tile, row-major
    __shared__ __align__(16) __nv_bfloat16 Bs[BK * TILE];  // 16 KiB: B tile, row-major
    const int grid_cols = n / TILE;
    const int t = threadIdx.x;
    const int row = t / 2;            // this thread's output row within the tile
    const int half = (t % 2) * 64;    // and which 64 of its 128 columns
    for (int pos = blockIdx.x; pos < tiles; pos += gridDim.x) {
        const int tile = order[pos];
        const int ti = tile / grid_cols, tj = tile % grid_cols;
        float acc = 0.0f;
        for (int kk = 0; kk < n / BK; ++kk) {
            // A tile: 128 rows × 64 bf16 = 1024 16-byte pieces; 4 per thread, coalesced.
            for (int p = t; p < TILE * BK / 8; p += THREADS) {
                const int r = p / (BK / 8), c = (p % (BK / 8)) * 8;
                *reinterpret_cast<uint4*>(&As[r * BK + c]) = *reinterpret_cast<const uint4*>(
                    &A[(size_t)(ti * TILE + r) * n + kk * BK + c]);
            }
            // B tile: 64 rows × 128 bf16.
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
        std::fprintf(stderr, "usage: %s CASES.txt\n", argv[0]);
        return 2;
    }
    FILE* f = std::fopen(argv[1], "r");
    if (!f) {
        std::perror(argv[1]);
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
        fill<<<1024, 256>>>(A, elems, 1u);
        CHECK(cudaGetLastError());
        fill<<<1024, 256>>>(B, elems, 2u);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        cudaEvent_t t0, t1;
        CHECK(cudaEventCreate(&t0));
        CHECK(cudaEventCreate(&t1));
        CHECK(cudaEventRecord(t0));
        traverse<<<sms, THREADS>>>(A, B, C, n, d_order, tiles);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaDeviceSynchronize());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        std::printf("case %d %s n=%d tiles=%d blocks=%d ms=%.3f\n", count, id, n, tiles, sms, ms);
        CHECK(cudaEventDestroy(t0));
        CHECK(cudaEventDestroy(t1));
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(C));
        CHECK(cudaFree(d_order));
        ++count;
    }
    std::fclose(f);
    return 0;
}
