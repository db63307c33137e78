"""Kernel export for the tma panel: the scenario's tensor map, box load and mbarrier script, run.

One program checks the model case by case on the GPU and prints each comparison:

- the tensor map encoded by the driver (``cuTensorMapEncodeTiled``, fetched with
  ``cudaGetDriverEntryPointByVersion``): accepted or refused, beside the model's answer;
- a 2-D map the driver accepts: the box loaded by ``cp.async.bulk.tensor.2d`` into a buffer
  ``smem_offset`` bytes past a 1024-byte-aligned shared base, completing on an mbarrier (the wait
  bounded); global element (x, y) holds y·d0 + x + 1 (1-byte elements: low byte, then high byte in a
  second launch), shared memory starts as 0xFF, and every element-sized slot read back is compared
  with the model's placement and zero fill (a slot the model leaves alone must stay 0xFF);
- the barrier's events scripted by one thread (``mbarrier.init``, ``arrive``, ``expect_tx``,
  ``arrive.expect_tx``, ``complete_tx``, the copy's complete-tx by ``cp.async.bulk``,
  ``test_wait.parity``): after each, both parity waits beside the model's phase and wait;
- ``cudaOccupancyMaxActiveClusters`` for the cluster's size (non-portable sizes allowed) beside
  the model's ``max_active_clusters``.

Compared with the H100/H200 sweep in ``resources/measurements/tma/h100-tma.json``
(tests/kernels/test_tma_hardware.py).
"""

from __future__ import annotations

import importlib
from typing import Any

from gpuviz.kernels.emit import KernelSource, c_array
from gpuviz.models.jsonable import to_jsonable

SWIZZLE = {"none": "CU_TENSOR_MAP_SWIZZLE_NONE", "32B": "CU_TENSOR_MAP_SWIZZLE_32B",
           "64B": "CU_TENSOR_MAP_SWIZZLE_64B", "128B": "CU_TENSOR_MAP_SWIZZLE_128B"}
INTERLEAVE = {"none": "CU_TENSOR_MAP_INTERLEAVE_NONE", "16B": "CU_TENSOR_MAP_INTERLEAVE_16B",
              "32B": "CU_TENSOR_MAP_INTERLEAVE_32B"}
DTYPE = {1: "CU_TENSOR_MAP_DATA_TYPE_UINT8", 2: "CU_TENSOR_MAP_DATA_TYPE_UINT16",
         4: "CU_TENSOR_MAP_DATA_TYPE_INT32", 8: "CU_TENSOR_MAP_DATA_TYPE_INT64"}
OPS = {"arrive": 0, "expect_tx": 1, "arrive_expect_tx": 2, "copy": 3, "complete_tx": 4,
       "test_wait": 5}
#: The global tensor the program allocates at most; a larger one is encoded but not loaded.
MAX_GLOBAL_BYTES = 64 << 20


def _strides(s: dict[str, Any]) -> list[int]:
    given = s.get("global_strides")
    if given:
        return [int(v) for v in given]
    out, acc = [], int(s["element_bytes"]) * int(s["global_dims"][0])
    for d in s["global_dims"][1:]:
        out.append(acc)
        acc *= int(d)
    return out


def _slots(s: dict[str, Any], r: Any, count: int) -> list[int]:
    """The value the model says each slot of the buffer holds (-1: not written)."""
    eb, d0 = int(s["element_bytes"]), int(s["global_dims"][0])
    x0, y0 = [*(s.get("box_start") or []), 0, 0][:2]
    out = [-1] * count
    for row, (offsets, zeros) in enumerate(zip(r.placement, r.zero_filled, strict=True)):
        for e, (offset, zero) in enumerate(zip(offsets, zeros, strict=True)):
            k = int(offset) // eb
            if 0 <= k < count:
                out[k] = 0 if zero else ((y0 + row) * d0 + x0 + e + 1) & 0xFFFF_FFFF
    return out


def _events(s: dict[str, Any], box_bytes: int) -> list[tuple[int, int]]:
    b = s.get("barrier") or {}
    out = []
    for e in b.get("events") or []:
        op = e["op"]
        v = box_bytes if op == "copy" else e.get("count", e.get("bytes", e.get("parity", 1)))
        out.append((OPS[op], int(v if v is not None else 1)))
    return out


def render(p: Any, name: str, title: str) -> KernelSource:
    model = importlib.import_module("gpuviz.models.tma")  # the panel's model, beside this file's
    r = model.compute(p)
    s = to_jsonable(p)
    eb, dims, box = int(s["element_bytes"]), [int(d) for d in s["global_dims"]], \
        [int(b) for b in s["box_dims"]]
    rank = len(dims)
    strides = _strides(s)
    estr = [int(v) for v in (s.get("element_strides") or [1] * rank)]
    off = int(s.get("global_offset") or 0)
    start = [int(v) for v in (s.get("box_start") or [0] * rank)]
    smem_off = int(s.get("smem_offset") or 0)
    box_bytes = int(r.box_bytes)
    footprint = off + (strides[-1] * dims[-1] if strides else eb * dims[0])
    loads = bool(r.tensor_map_valid) and not r.copy_faults and rank == 2 and footprint <= MAX_GLOBAL_BYTES \
        and len(r.placement) > 0
    dump = 2 * box_bytes + 256 if loads else 16
    slots = _slots(s, r, dump // eb) if loads else [-1]
    events = _events(s, int(r.transaction_bytes))
    trace = [to_jsonable(t) for t in r.barrier_trace]
    # -1 / -2: the model leaves the state open (a copy passing the count still expected)
    parities = [-1 if t.get("uncertain") else int(t["phase"]) % 2 for t in trace] or [0]
    waits = [(-2 if t.get("uncertain") else -1) if t.get("wait") is None or t.get("uncertain")
             else int(bool(t["wait"])) for t in trace] or [-1]
    cluster = s.get("cluster") or {}
    cdims = [int(v) for v in (cluster.get("dims") or [1, 1, 1])] + [1, 1]
    csize = cdims[0] * cdims[1] * cdims[2]
    mac = r.max_active_clusters
    ev_flat = [v for e in events for v in e] or [5, 0]
    summary = [
        f"Tensor map: rank {rank}, {eb}-byte elements, dims {dims}, box {box}, swizzle "
        f"{s.get('swizzle', 'none')}; gpuviz's model "
        f"{'accepts it' if r.tensor_map_valid else 'refuses it: ' + '; '.join(r.tensor_map_problems)}.",
        f"Box load: {box_bytes} bytes from {start} into shared memory at offset {smem_off}"
        + ("" if loads else " (not run: the map is refused, not 2-D or too large here)") + ".",
        f"Barrier script: {len(events)} events; clusters of {csize}: model "
        f"{mac if mac is not None else '—'} resident at once.",
    ]
    body = f"""#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstring>
#include <vector>

constexpr int kRank = {rank}, kElement = {eb}, kSmemOffset = {smem_off};
constexpr int kBoxBytes = {box_bytes}, kDump = {dump}, kModelValid = {int(bool(r.tensor_map_valid))};
constexpr bool kLoad = {str(loads).lower()};
constexpr unsigned long long kOffset = {off}ull;  // bytes past the 256-byte-aligned allocation
constexpr unsigned long long kFootprint = {footprint if loads else 256}ull;
static const cuuint64_t kDims[kRank] = {{{c_array(dims)}}};
static const cuuint64_t kStrides[kRank] = {{{c_array([*strides, 0])}}};
static const cuuint32_t kBox[kRank] = {{{c_array(box)}}};
static const cuuint32_t kElementStrides[kRank] = {{{c_array(estr)}}};
static const int kStart[kRank] = {{{c_array(start)}}};
// What gpuviz's model says each element-sized slot of the buffer holds: y * d0 + x + 1 for the
// element placed there, 0 for zero fill, -1 for a slot no element is placed in.
static const long long kModelSlots[] = {{
    {c_array(slots)}}};
constexpr int kEvents = {len(events)};
static const int kEventList[] = {{{c_array(ev_flat)}}};  // (op, value) pairs
static const int kModelParity[] = {{{c_array(parities)}}};  // phase parity after each event
static const int kModelWait[] = {{{c_array(waits)}}};  // a test_wait's result, else -1; -2 either
constexpr int kClusterSize = {csize}, kModelClusters = {mac if mac is not None else -1};

__device__ __forceinline__ unsigned smem_addr(const void* p) {{
    return (unsigned)__cvta_generic_to_shared(p);
}}
__device__ __forceinline__ unsigned test_wait(unsigned bar, unsigned parity) {{
    unsigned r;
    asm volatile("{{\\n .reg .pred p;\\n mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\\n"
                 " selp.u32 %0, 1, 0, p;\\n}}" : "=r"(r) : "r"(bar), "r"(parity) : "memory");
    return r;
}}

// The box, by the copy engine, into the buffer; every wait bounded.
__global__ void tma_load(const __grid_constant__ CUtensorMap map, int c0, int c1,
                         unsigned char* out, int* done) {{
    extern __shared__ unsigned char smem_raw[];
    __shared__ alignas(8) unsigned long long bar;
    const unsigned raw = smem_addr(smem_raw);
    unsigned char* buf = smem_raw + (((raw + 1023u) & ~1023u) - raw);  // 1024-byte aligned
    for (int i = threadIdx.x; i < kSmemOffset + kDump; i += blockDim.x) buf[i] = 0xFF;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const unsigned b = smem_addr(&bar);
    if (threadIdx.x == 0) {{
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(b), "r"(kBoxBytes) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {{%2, %3}}], [%4];"
                     :: "r"(smem_addr(buf + kSmemOffset)), "l"(&map), "r"(c0), "r"(c1), "r"(b)
                     : "memory");
        int ok = 0;
        for (int i = 0; i < 200000 && !ok; ++i) {{
            ok = (int)test_wait(b, 0);
            if (!ok) __nanosleep(100);
        }}
        *done = ok;
    }}
    __syncthreads();
    for (int i = threadIdx.x; i < kDump; i += blockDim.x) out[i] = buf[kSmemOffset + i];
}}

// One thread scripts the barrier's events; after each, test_wait.parity 0 and 1.
__global__ void mbarrier_script(int count, const int* ev, int n, int* waits,
                                const unsigned char* src) {{
    __shared__ alignas(8) unsigned long long bar;
    __shared__ alignas(128) unsigned char dst[{max(16, box_bytes + 15) // 16 * 16}];
    const unsigned b = smem_addr(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int i = 0; i < n; ++i) {{
        const int op = ev[2 * i], v = ev[2 * i + 1];
        if (op == 0)
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(v) : "memory");
        else if (op == 1)
            asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
                         :: "r"(b), "r"(v) : "memory");
        else if (op == 2)
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                         :: "r"(b), "r"(v) : "memory");
        else if (op == 3 && v % 16 == 0 && v > 0) {{
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1], %2, [%3];" :: "r"(smem_addr(dst)), "l"(src), "r"(v), "r"(b)
                         : "memory");
            for (int t = 0; t < 200; ++t) __nanosleep(100);  // bounded: let the bytes land
        }} else if (op == 4)
            asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
                         :: "r"(b), "r"(v) : "memory");
        waits[2 * i] = (int)test_wait(b, 0);
        waits[2 * i + 1] = (int)test_wait(b, 1);
    }}
}}

__global__ void cluster_kernel(int* out) {{
    if (threadIdx.x == 0) out[blockIdx.x] = 1;
}}

static int check_load(PFN_cuTensorMapEncodeTiled_v12000 encode, unsigned char* base) {{
    CUtensorMap map;
    CUresult res = encode(&map, {DTYPE[eb] if eb in DTYPE else DTYPE[2]}, kRank, base + kOffset, kDims,
                          kStrides, kBox, kElementStrides, {INTERLEAVE.get(s.get("interleave") or "none", INTERLEAVE["none"])},
                          {SWIZZLE.get(s.get("swizzle") or "none", SWIZZLE["none"])},
                          CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    std::printf("tensor map: driver %s (CUresult %d); gpuviz's model %s%s\\n",
                res == CUDA_SUCCESS ? "accepts" : "refuses", (int)res,
                kModelValid ? "accepts" : "refuses",
                (res == CUDA_SUCCESS) == (bool)kModelValid ? "" : "  <- differs");
    int wrong = (res == CUDA_SUCCESS) != (bool)kModelValid;
    if (!kLoad || res != CUDA_SUCCESS) return wrong;
    const int passes = kElement == 1 ? 2 : 1;
    std::vector<unsigned char> host(kFootprint), got[2];
    unsigned char* dout;
    int* ddone;
    CHECK(cudaMalloc(&dout, kDump));
    CHECK(cudaMalloc(&ddone, sizeof(int)));
    const int smem = 1024 + kSmemOffset + kDump;
    CHECK(cudaFuncSetAttribute(tma_load, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    for (int p = 0; p < passes; ++p) {{
        std::memset(host.data(), 0xEE, host.size());
        for (unsigned long long y = 0; y < kDims[1]; ++y)
            for (unsigned long long x = 0; x < kDims[0]; ++x) {{
                const unsigned long long v = y * kDims[0] + x + 1;
                unsigned char* e = host.data() + kOffset + y * kStrides[0] + x * kElement;
                if (kElement == 1) e[0] = (unsigned char)(v >> (8 * p));
                else std::memcpy(e, &v, kElement);
            }}
        CHECK(cudaMemcpy(base, host.data(), host.size(), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(ddone, 0, sizeof(int)));
        tma_load<<<1, 128, smem>>>(map, kStart[0], kStart[1], dout, ddone);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        int done = 0;
        CHECK(cudaMemcpy(&done, ddone, sizeof done, cudaMemcpyDeviceToHost));
        if (!done) {{ std::printf("box load: the barrier's phase did not complete\\n"); ++wrong; }}
        got[p].resize(kDump);
        CHECK(cudaMemcpy(got[p].data(), dout, kDump, cudaMemcpyDeviceToHost));
    }}
    int differ = 0;
    for (int k = 0; k < kDump / kElement; ++k) {{
        long long v = 0;
        bool untouched = true;
        for (int j = 0; j < kElement; ++j) untouched = untouched && got[0][k * kElement + j] == 0xFF;
        if (kElement == 1) {{
            v = got[0][k] | (got[1][k] << 8);
            untouched = untouched && got[1][k] == 0xFF;
        }} else
            for (int j = 0; j < (kElement < 4 ? kElement : 4); ++j)
                v |= (long long)got[0][k * kElement + j] << (8 * j);
        const long long hw = untouched ? -1 : v, want = kModelSlots[k];
        const long long mask = kElement == 2 ? 0xFFFF : 0xFFFFFFFF;
        if (hw != (want < 0 ? -1 : (want & mask))) {{
            if (differ < 8) std::printf("slot %d (byte %d): GPU %lld, model %lld\\n", k, k * kElement, hw, want);
            ++differ;
        }}
    }}
    std::printf("box load: %d of %d slots differ from the model's placement and zero fill\\n",
                differ, kDump / kElement);
    CHECK(cudaFree(dout));
    CHECK(cudaFree(ddone));
    return wrong + (differ > 0);
}}

static int check_barrier(unsigned char* base) {{
    if (kEvents == 0) return 0;
    int *dev, *dwaits;
    CHECK(cudaMalloc(&dev, sizeof kEventList));
    CHECK(cudaMalloc(&dwaits, 2 * kEvents * sizeof(int)));
    CHECK(cudaMemcpy(dev, kEventList, sizeof kEventList, cudaMemcpyHostToDevice));
    mbarrier_script<<<1, 1>>>({int((s.get("barrier") or {}).get("count") or 1)}, dev, kEvents, dwaits, base);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int> w(2 * kEvents);
    CHECK(cudaMemcpy(w.data(), dwaits, w.size() * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < kEvents; ++i) {{
        const int parity = w[2 * i];  // test_wait(0) is true once phase 0 completed
        const int op = kEventList[2 * i], asked = kEventList[2 * i + 1];
        const int wait = op == 5 ? w[2 * i + (asked & 1)] : -1;
        const bool ok = (kModelParity[i] < 0 || parity == kModelParity[i]) &&
                        (kModelWait[i] == -2 || wait == kModelWait[i]);
        wrong += !ok;
        std::printf("event %d (op %d, %d): GPU parity %d wait %d; model parity %d wait %d%s\\n", i,
                    op, asked, parity, wait, kModelParity[i], kModelWait[i], ok ? "" : "  <- differs");
    }}
    CHECK(cudaFree(dev));
    CHECK(cudaFree(dwaits));
    return wrong;
}}

static int check_clusters() {{
    if (kModelClusters < 0) return 0;
    CHECK(cudaFuncSetAttribute(cluster_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {{}};
    cfg.gridDim = dim3(kClusterSize * 16);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = kClusterSize;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = 1;
    int n = -1;
    CHECK(cudaOccupancyMaxActiveClusters(&n, (void*)cluster_kernel, &cfg));
    std::printf("clusters of %d: cudaOccupancyMaxActiveClusters %d; gpuviz's model %d%s\\n",
                kClusterSize, n, kModelClusters, n == kModelClusters ? "" : "  <- differs");
    return n != kModelClusters;
}}

int main() {{
    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&encode, 12000,
                                           cudaEnableDefault, &q));
    if (!encode || q != cudaDriverEntryPointSuccess) {{
        std::printf("the driver has no cuTensorMapEncodeTiled\\n");
        return 1;
    }}
    unsigned char* base;
    CHECK(cudaMalloc(&base, kFootprint > 65536 ? kFootprint : 65536));
    int wrong = check_load(encode, base) + check_barrier(base) + check_clusters();
    CHECK(cudaFree(base));
    std::printf("%s\\n", wrong ? "the GPU differs from the model" : "the GPU agrees with the model");
    return wrong ? 2 : 0;
}}
"""
    return KernelSource(
        name=name, title=title, summary=summary, body=body,
        metrics=("gpu__time_duration.sum",), sass=(r"UTMALDG|UBLKCP|SYNCS",),
        kernel_filter="tma_load",
        case={"id": name, "panel": "tma", "op": "load", "source": title})
