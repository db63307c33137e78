"""Kernel export for the sectors panel: one warp's global load (or store), lane by lane.

Each lane's byte offset is the model's ``lane_addresses``; the kernel performs exactly one
``ld.global`` / ``st.global`` of ``element_bytes`` per active lane, written in inline PTX so the
compiler can neither widen it nor merge lanes' accesses, and (for a load) stores the value so the
load stays alive. Nsight Compute's ``l1tex__t_sectors_pipe_lsu_mem_global_op_ld`` (``_op_st``)
counts the 32-byte sectors of that one instruction: the model's ``sector_count``.
"""

from __future__ import annotations

from gpuviz.kernels.emit import KernelSource, c_array
from gpuviz.kernels.measure import GLOBAL_LD, GLOBAL_ST
from gpuviz.models import sectors as model
from gpuviz.registry import Measure

PTX_TYPE = {1: "u8", 2: "u16", 4: "u32", 8: "v2.u32", 16: "v4.u32"}
SASS_SUFFIX = {1: r"\.U8", 2: r"\.U16", 4: r"( |$)", 8: r"\.64", 16: r"\.128"}


def _access(store: bool, size: int) -> str:
    t = PTX_TYPE[size]
    if store:
        vals = {1: "%1", 2: "%1", 4: "%1", 8: "{%1, %2}", 16: "{%1, %2, %3, %4}"}[size]
        ins = {1: '"r"(v)', 2: '"r"(v)', 4: '"r"(v)', 8: '"r"(v), "r"(v + 1)',
               16: '"r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)'}[size]
        return (f'    const unsigned v = 0x01010101u * (lane + 1);\n'
                f'    asm volatile("st.global.{t} [%0], {vals};" :: "l"(p), {ins} : "memory");')
    outs = {1: "%0", 2: "%0", 4: "%0", 8: "{%0, %1}", 16: "{%0, %1, %2, %3}"}[size]
    regs = {1: '"=r"(a)', 2: '"=r"(a)', 4: '"=r"(a)', 8: '"=r"(a), "=r"(b)',
            16: '"=r"(a), "=r"(b), "=r"(c), "=r"(d)'}[size]
    n = {1: 1, 2: 1, 4: 1, 8: 2, 16: 4}[size]
    return (f'    unsigned a = 0, b = 0, c = 0, d = 0;\n'
            f'    asm volatile("ld.global.{t} {outs}, [%{n}];" : {regs} : "l"(p) : "memory");\n'
            f'    out[lane] = a ^ b ^ c ^ d;  // a dependent store keeps the load alive')


def render(p: model.SectorsParams, name: str, title: str) -> KernelSource:
    r = model.compute(p)
    if r.warp_size != 32:
        raise ValueError("a CUDA warp has 32 lanes; this scenario's warp has "
                         f"{r.warp_size} (an AMD wavefront), which CUDA cannot run")
    store = p.op == "store"
    size = p.element_bytes
    offsets = [-1 if a is None else a for a in r.lane_addresses]
    buffer = max(offsets) + size if max(offsets) >= 0 else size
    verb = "store" if store else "load"
    lane_notes = []
    for lane, a in enumerate(r.lane_addresses):
        if a is None:
            lane_notes.append(f"//   lane {lane:2d}: masked")
        else:
            first, last = a // 32, (a + size - 1) // 32
            sec = f"sector {first}" if first == last else f"sectors {first}–{last}"
            lane_notes.append(f"//   lane {lane:2d}: bytes {a}–{a + size - 1}, {sec}")
    summary = [
        f"One warp, one global {verb} of {size} byte(s) per active lane: {r.pattern}, base "
        f"offset {p.base_offset}.",
        f"gpuviz's sectors model: {r.sector_count} sectors of 32 bytes ({r.fetched_bytes} bytes "
        f"fetched, {r.requested_bytes} requested), {r.line_count} line(s) of 128 bytes.",
        f"Measured by Nsight Compute: {GLOBAL_ST if store else GLOBAL_LD}.",
    ]
    args = "unsigned char* buf" if store else "const unsigned char* buf, unsigned* out"
    body = f"""
constexpr int kLanes = 32;
constexpr size_t kBufferBytes = {buffer};  // every byte any lane touches

// Byte offset of each lane's element from the start of the buffer (−1: the lane is masked).
{chr(10).join(lane_notes)}
__constant__ int kLaneOffset[kLanes] = {{
    {c_array(offsets)}}};

// One warp: lane i {verb}s {size} byte(s) at buf + kLaneOffset[i]. Inline PTX keeps it one
// {size}-byte access per lane: the compiler may not widen it or merge lanes.
__global__ void sectors_{verb}({args}) {{
    const int lane = threadIdx.x;
    const int off = kLaneOffset[lane];
    if (off < 0) return;  // a masked lane issues no access
    {"" if store else "const "}unsigned char* p = buf + off;
{_access(store, size)}
}}

int main() {{
    unsigned char* buf = nullptr;
    unsigned* out = nullptr;
    CHECK(cudaMalloc(&buf, kBufferBytes));  // cudaMalloc aligns to 256 bytes: sector 0 starts it
    CHECK(cudaMalloc(&out, kLanes * sizeof(unsigned)));
    CHECK(cudaMemset(buf, 0x5a, kBufferBytes));
    sectors_{verb}<<<1, kLanes>>>({"buf" if store else "buf, out"});
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("model: %d sectors for this {verb}; profile with ncu to measure them\\n", {r.sector_count});
    CHECK(cudaFree(buf));
    CHECK(cudaFree(out));
    return 0;
}}
"""
    kind = "STG" if store else "LDG"
    return KernelSource(
        name=name, title=title, summary=summary, body=body,
        metrics=(GLOBAL_ST if store else GLOBAL_LD,
                 "l1tex__t_requests_pipe_lsu_mem_global_op_" + ("st" if store else "ld") + ".sum"),
        sass=(kind + r"\.E" + SASS_SUFFIX[size],),
        kernel_filter=f"sectors_{verb}",
        case={"id": name, "panel": "sectors", "op": "stg" if store else "ldg", "bytes": size,
              "offsets": offsets, "source": title})


#: Compared on the model's ``sector_count``: the sectors of the case's load (``_op_ld``) or
#: store (``_op_st``).
MEASURE = Measure(metric=lambda op: GLOBAL_ST if op == "stg" else GLOBAL_LD)
