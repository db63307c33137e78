"""Kernel export for the traversal panel: a tiled bf16 kernel visiting output tiles in order.

C = A · B with 128 × 128 output tiles and K in steps of 64: output tile (i, j) reads the A tiles
(i, kk) and B tiles (kk, j), kk = 0 … k_tiles − 1, each 16 KiB (8 KiB with K steps of 32), through shared memory. The grid
has ``in_flight`` persistent blocks; block b runs order positions b, b + P, b + 2P, …, so the P
tiles of one step run together, as in the model. Nsight Compute's ``dram__bytes_read`` (with the
caches flushed first) is the traffic the L2 did not absorb; the model counts tiles loaded by an
LRU of ``capacity`` tiles, or of the L2 (``cache``). The measured L2 behaves like an LRU of one
of its two partitions, half its size (``cache = "l2-partition"``, docs/hardware-notes.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuviz.kernels.emit import KernelSource, c_array
from gpuviz.models import traversal as model
from gpuviz.registry import Measure, Reading

TILE = 128
BK = 64
TILE_BYTES = TILE * BK * 2
DRAM_READ = "dram__bytes_read.sum"


def k_step(p: model.TraversalParams) -> int:
    """The K step in elements of the section's tiles: ``tile_bytes`` over 128 bf16 rows (16 KiB:
    64; 8 KiB: 32, the real K depth of gpuviz's real-size lectures); 64 for any other size."""
    bk = p.tile_bytes // (TILE * 2)
    return bk if bk in (16, 32, 64) and bk * TILE * 2 == p.tile_bytes else BK


def render(p: model.TraversalParams, name: str, title: str) -> KernelSource:
    r = model.compute(model.without_sweep(p))
    bk = k_step(p)
    tile_bytes = TILE * bk * 2
    order = [int(i) * p.cols + int(j) for i, j in r.order]
    m, n, k = p.rows * TILE, p.cols * TILE, p.k_tiles * bk
    operand = (m * k + k * n) * 2
    summary = [
        f"{p.rows} × {p.cols} output tiles of 128 × 128 visited in {r.order_name} order, K = "
        f"{p.k_tiles} × {bk}, {p.in_flight} tile(s) in flight (persistent blocks).",
        f"gpuviz's traversal model ({model.cache_label(p)}, one tile = "
        f"{tile_bytes // 1024} KiB): {r.a_loads} A and {r.b_loads} B tile loads = {(r.a_loads + r.b_loads) * tile_bytes} bytes, "
        f"{(r.a_loads + r.b_loads) * tile_bytes / operand:.3f} × the bytes of A and B.",
        "Measured by Nsight Compute: dram__bytes_read.sum with the caches flushed "
        "(--cache-control all); divide by the bytes of A and B.",
    ]
    body = f"""
#include <cuda_bf16.h>

constexpr int TILE = {TILE};          // output tile edge, elements
constexpr int BK = {bk};              // K step, elements
constexpr int THREADS = 256;
constexpr int kRows = {p.rows}, kCols = {p.cols};  // output tiles
constexpr int kM = {m}, kN = {n}, kK = {k};
constexpr int kInFlight = {p.in_flight};  // persistent blocks: tiles processed at once
constexpr int kTiles = kRows * kCols;

// The visiting order: position s holds tile row·kCols + col.
static const int kOrder[kTiles] = {{
    {c_array(order, 16)}}};

// Block b runs positions b, b + kInFlight, …; for each output tile it walks K, loading the A tile
// (row, kk) and the B tile (kk, col) into shared memory and using every element.
__global__ void __launch_bounds__(THREADS)
traverse(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, const int* order) {{
    __shared__ __align__(16) __nv_bfloat16 As[TILE * BK];  // A tile: 128 × {bk}
    __shared__ __align__(16) __nv_bfloat16 Bs[BK * TILE];  // B tile: {bk} × 128
    const int t = threadIdx.x, row = t / 2, half = (t % 2) * 64;
    for (int pos = blockIdx.x; pos < kTiles; pos += gridDim.x) {{
        const int ti = order[pos] / kCols, tj = order[pos] % kCols;
        float acc = 0.0f;
        for (int kk = 0; kk < kK / BK; ++kk) {{
            for (int q = t; q < TILE * BK / 8; q += THREADS) {{  // 16-byte pieces of the A tile
                const int r = q / (BK / 8), c = (q % (BK / 8)) * 8;
                *reinterpret_cast<uint4*>(&As[r * BK + c]) = *reinterpret_cast<const uint4*>(
                    &A[(size_t)(ti * TILE + r) * kK + kk * BK + c]);
            }}
            for (int q = t; q < BK * TILE / 8; q += THREADS) {{  // and of the B tile
                const int r = q / (TILE / 8), c = (q % (TILE / 8)) * 8;
                *reinterpret_cast<uint4*>(&Bs[r * TILE + c]) = *reinterpret_cast<const uint4*>(
                    &B[(size_t)(kk * BK + r) * kN + tj * TILE + c]);
            }}
            __syncthreads();
            for (int q = 0; q < BK; ++q)  // a slice of the product: every loaded byte is used
                acc += __bfloat162float(As[row * BK + q]) * __bfloat162float(Bs[q * TILE + half + q]);
            __syncthreads();
        }}
        for (int c = 0; c < 64; ++c)  // this thread's 64 elements of the C tile
            C[(size_t)(ti * TILE + row) * kN + tj * TILE + half + c] = __float2bfloat16(acc + c);
    }}
}}

__global__ void fill(__nv_bfloat16* x, size_t count, unsigned seed) {{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = __float2bfloat16((float)(((unsigned)i * 2654435761u ^ seed) % 1024) / 1024.0f - 0.5f);
}}

int main() {{
    __nv_bfloat16 *A, *B, *C;
    int* order;
    CHECK(cudaMalloc(&A, (size_t)kM * kK * 2));
    CHECK(cudaMalloc(&B, (size_t)kK * kN * 2));
    CHECK(cudaMalloc(&C, (size_t)kM * kN * 2));
    CHECK(cudaMalloc(&order, sizeof kOrder));
    CHECK(cudaMemcpy(order, kOrder, sizeof kOrder, cudaMemcpyHostToDevice));
    fill<<<1024, 256>>>(A, (size_t)kM * kK, 1u);
    CHECK(cudaGetLastError());
    fill<<<1024, 256>>>(B, (size_t)kK * kN, 2u);
    CHECK(cudaGetLastError());
    traverse<<<kInFlight, THREADS>>>(A, B, C, order);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("A and B: %zu bytes; model: {(r.a_loads + r.b_loads) * tile_bytes} bytes loaded\\n",
                (size_t)(kM * kK + kK * kN) * 2);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    CHECK(cudaFree(order));
    return 0;
}}
"""
    section_note = {"tile_bytes": tile_bytes, "operand_bytes": operand}
    return KernelSource(
        name=name, title=title, summary=summary, body=body,
        metrics=(DRAM_READ, "lts__t_sectors_srcunit_tex_op_read.sum"),
        sass=(r"LDG\.E\.128",), ncu_flags=("--cache-control", "all"), kernel_filter="traverse",
        case={"id": name, "panel": "traversal", "op": "traverse", "source": title,
              **section_note})


def operand_traffic(p: model.TraversalParams, case: Mapping[str, Any]) -> float:
    """The model's operand traffic for a measured case: tiles loaded × the kernel's tile bytes
    ÷ the bytes of A and B."""
    r = model.compute(model.without_sweep(p))
    return (r.a_loads + r.b_loads) * case["tile_bytes"] / case["operand_bytes"]


def _read(case: Mapping[str, Any], row: Mapping[str, str], metric: str) -> Reading:
    from gpuviz.kernels.measure import counter

    bytes_read = counter(case, row, metric)
    return Reading(metric + " ÷ bytes of A and B",
                   bytes_read.measured / case["operand_bytes"], bytes_read.raw)


#: Compared on tiles loaded (times the tile's bytes) against the DRAM bytes read, both over the
#: bytes of A and B (the measurement file's tolerance says how close agrees).
MEASURE = Measure(metric=lambda op: DRAM_READ, read=_read, value=operand_traffic,
                  case_numbers=("operand_bytes", "tile_bytes"))
