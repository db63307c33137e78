"""Kernel export for the occupancy panel: the scenario's launch configuration, for real.

The kernel is built with ``-maxrregcount`` = the scenario's registers per thread (no
``__launch_bounds__``: it would take precedence over the flag), and keeps far more values live than that, so the compiler
uses the whole limit (the program prints the count it really got). It has the scenario's static
shared memory, is launched with its dynamic shared memory, and prefers its carveout
(``cudaFuncAttributePreferredSharedMemoryCarveout``). The program prints what the occupancy API
answers (``cudaOccupancyMaxActiveBlocksPerMultiprocessor``), the model's number beside it, and
launches one full wave so Nsight Compute can read the launch's occupancy limits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuviz.kernels.emit import KernelSource
from gpuviz.kernels.ncu_csv import number
from gpuviz.models import occupancy as model
from gpuviz.registry import Measure, Reading

LIMITS = ("launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
          "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps")
METRICS = (*LIMITS, "launch__registers_per_thread", "launch__shared_mem_config_size",
           "sm__warps_active.avg.pct_of_peak_sustained_active")


def render(p: model.OccupancyParams, name: str, title: str) -> KernelSource:
    r = model.compute(p)
    if r.arch.startswith("mi"):
        raise ValueError("the occupancy kernel is CUDA; choose an NVIDIA preset")
    t, regs = p.threads_per_block, p.registers_per_thread
    static = p.static_shared_memory
    dyn = p.dynamic_shared_memory
    carve = p.shared_memory_carveout
    carve_line = ("    // no carveout preference: the driver's default (the maximum)\n"
                  if carve is None else
                  f"    CHECK(cudaFuncSetAttribute(occupancy_kernel, "
                  f"cudaFuncAttributePreferredSharedMemoryCarveout, {carve}));  // {carve} %\n")
    static_decl = (f"    __shared__ float tile[{max(static // 4, 1)}];  // {static} bytes of static "
                   "shared memory\n" if static else "")
    static_use = ("    tile[threadIdx.x % (sizeof(tile) / sizeof(float))] = sum;\n"
                  "    __syncthreads();\n"
                  "    sum += tile[(threadIdx.x + 1) % (sizeof(tile) / sizeof(float))];\n"
                  if static else "")
    dyn_use = ("    dynamic_shared[threadIdx.x % (kDynamicShared / sizeof(float))] = sum;\n"
               if dyn >= 4 else "    (void)dynamic_shared;\n")
    limits = ", ".join(f"{k} {v if v is not None else '—'}" for k, v in r.limits.items())
    summary = [
        f"{t} threads per block, {regs} registers per thread, {static} bytes static + {dyn} "
        f"bytes dynamic shared memory, carveout "
        f"{'default' if carve is None else f'{carve} %'}.",
        f"gpuviz's occupancy model: {r.active_blocks_per_sm} block(s) per SM, "
        f"{r.active_warps_per_sm} warps, {r.occupancy:.0%} occupancy; limited by {r.limiter} "
        f"({limits}).",
        "Measured: the occupancy API (printed) and ncu's launch__occupancy_limit_* metrics.",
    ]
    body = f"""
constexpr int kThreads = {t};             // threads per block
constexpr int kRegisters = {regs};        // registers per thread: -maxrregcount in run.sh
constexpr size_t kDynamicShared = {dyn};  // bytes, the launch's third argument
constexpr int kLive = 256;                // values kept live: more than any register limit

// Enough live values that the compiler uses every register -maxrregcount allows (it spills the
// rest to local memory, which does not change occupancy).
__global__ void occupancy_kernel(const float* in, float* out, int n) {{
    extern __shared__ float dynamic_shared[];
{static_decl}    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[kLive];
#pragma unroll
    for (int i = 0; i < kLive; ++i) acc[i] = in[(tid * kLive + i) % n];
    for (int round = 0; round < 4; ++round) {{
#pragma unroll
        for (int i = 0; i < kLive; ++i) acc[i] = acc[i] * acc[(i + 7) % kLive] + 1.0f;
    }}
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < kLive; ++i) sum += acc[i] * (float)(i + 1);
{static_use}{dyn_use}    out[tid % n] = sum;
}}

int main() {{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (kDynamicShared > 48 * 1024)  // more than 48 KB of dynamic shared memory needs an opt-in
        CHECK(cudaFuncSetAttribute(occupancy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)kDynamicShared));
{carve_line}    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, occupancy_kernel));
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, occupancy_kernel, kThreads,
                                                        kDynamicShared));
    std::printf("registers per thread: %d (asked for %d)%s\\n", attr.numRegs, kRegisters,
                attr.numRegs == kRegisters ? "" : "  <- differs: compare the model with this count");
    std::printf("static shared memory: %zu bytes\\n", attr.sharedSizeBytes);
    std::printf("occupancy API: %d block(s) per SM; gpuviz's model: {r.active_blocks_per_sm}\\n", blocks);
    if (blocks == 0) {{
        std::printf("no block fits on an SM: nothing to launch\\n");
        return 0;
    }}
    const int n = 1 << 20;
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMemset(in, 0, n * sizeof(float)));
    const int grid = blocks * prop.multiProcessorCount;  // one full wave
    occupancy_kernel<<<grid, kThreads, kDynamicShared>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}}
"""
    return KernelSource(
        name=name, title=title, summary=summary, body=body, metrics=METRICS,
        sass=(r"FFMA|FMUL",), nvcc_flags=(f"-maxrregcount={regs}",),
        kernel_filter="occupancy_kernel",
        case={"id": name, "panel": "occupancy", "op": "launch", "source": title})


#: Resident blocks per SM by each resource at launch; the launch's blocks are their minimum.
MEASURED_METRIC = "min(" + ", ".join(LIMITS) + ")"


def _read(case: Mapping[str, Any], row: Mapping[str, str], metric: str) -> Reading:
    missing = [m for m in LIMITS if m not in row]
    if missing:
        raise ValueError(f"case {case['id']}: the profile has no {missing[0]}")
    raw = {m: number(row[m]) for m in LIMITS}
    return Reading(MEASURED_METRIC, min(raw.values()), raw)


#: What a case counted on the device itself (tools/residency_probe.cu,
#: tools/carveout_choice_probe.cu) reads as its metric: compared on the blocks the SM keeps.
RESIDENT_METRIC = "most blocks resident on one SM at once"


def _value(p: model.OccupancyParams, case: Mapping[str, Any]) -> float:
    """The API's number (``active_blocks_per_sm``) for a profiler or API case; the blocks the
    SM keeps under the driver's own carveout choice (``resident_blocks_per_sm``) for a case
    that counted resident blocks on the device."""
    r = model.compute(p)
    if case.get("metric") == RESIDENT_METRIC:
        return float(r.resident_blocks_per_sm)
    return float(r.active_blocks_per_sm)


#: Compared on the model's ``active_blocks_per_sm``: the smallest of the launch's occupancy
#: limits (what ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` answers), or, for blocks
#: counted on the device, on ``resident_blocks_per_sm``.
MEASURE = Measure(metric=lambda op: MEASURED_METRIC, read=_read, value=_value)
