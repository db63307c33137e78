"""Kernel export for the banks panel: one warp's shared-memory load, store or ldmatrix.

Each lane's byte offset is :func:`gpuviz.models.banks.lane_offsets` (the scenario's pattern,
element size and swizzle). The kernel performs exactly one ``ld.shared`` / ``st.shared`` of
``access_bytes`` per active lane, or one ``ldmatrix`` whose lanes 0 … 8·N−1 give row addresses,
in inline PTX so the compiler can neither widen nor merge it. Nsight Compute's
``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`` (``_op_st`` for stores) counts its
wavefronts: the model's ``rounds``.
"""

from __future__ import annotations

from gpuviz.kernels.emit import KernelSource, c_array
from gpuviz.kernels.measure import SHARED_LD, SHARED_ST
from gpuviz.models import banks as model
from gpuviz.registry import Measure

PTX_TYPE = {1: "u8", 2: "u16", 4: "u32", 8: "v2.u32", 16: "v4.u32"}
SASS = {("lds", 1): r"LDS\.U8", ("lds", 2): r"LDS\.U16", ("lds", 4): r"LDS ",
        ("lds", 8): r"LDS\.64", ("lds", 16): r"LDS\.128", ("sts", 1): r"STS\.U8",
        ("sts", 2): r"STS\.U16", ("sts", 4): r"STS ", ("sts", 8): r"STS\.64",
        ("sts", 16): r"STS\.128"}
STATIC_LIMIT = 48 * 1024


def _load(size: int) -> str:
    t = PTX_TYPE[size]
    outs = {1: "%0", 2: "%0", 4: "%0", 8: "{%0, %1}", 16: "{%0, %1, %2, %3}"}[size]
    regs = {1: '"=r"(a)', 2: '"=r"(a)', 4: '"=r"(a)', 8: '"=r"(a), "=r"(b)',
            16: '"=r"(a), "=r"(b), "=r"(c), "=r"(d)'}[size]
    n = {1: 1, 2: 1, 4: 1, 8: 2, 16: 4}[size]
    return (f'    unsigned a = 0, b = 0, c = 0, d = 0;\n'
            f'    asm volatile("ld.shared.{t} {outs}, [%{n}];" : {regs} : "r"(addr) : "memory");\n'
            f'    out[lane] = a ^ b ^ c ^ d;  // a dependent global store keeps the load alive')


def _store(size: int) -> str:
    t = PTX_TYPE[size]
    vals = {1: "%1", 2: "%1", 4: "%1", 8: "{%1, %2}", 16: "{%1, %2, %3, %4}"}[size]
    ins = {1: '"r"(v)', 2: '"r"(v)', 4: '"r"(v)', 8: '"r"(v), "r"(v + 1)',
           16: '"r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)'}[size]
    return (f'    const unsigned v = 0x01010101u * (lane + 1);\n'
            f'    // st.volatile: the store must happen although nothing reads it back\n'
            f'    asm volatile("st.volatile.shared.{t} [%0], {vals};" :: "r"(addr), {ins} '
            f': "memory");')


def _ldmatrix(n: int, trans: bool) -> str:
    regs = ", ".join(f"%{i}" for i in range(n))
    outs = ", ".join(f'"=r"(r{i})' for i in range(n))
    t = ".trans" if trans else ""
    return (f'    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;\n'
            f'    // every lane takes part (.sync.aligned); lanes 0 … {8 * n - 1} give one row each\n'
            f'    asm volatile("ldmatrix.sync.aligned.m8n8.x{n}{t}.shared.b16 {{{regs}}}, [%{n}];"\n'
            f'                 : {outs} : "r"(addr));\n'
            f'    out[lane] = r0 ^ r1 ^ r2 ^ r3;  // a dependent global store keeps it alive')


def render(p: model.BanksParams, name: str, title: str) -> KernelSource:
    r = model.compute(p)
    offsets = [int(x) for x in model.lane_offsets(p)]
    width = model.access_width(p)
    op = p.op
    smem = max(max(offsets) + width, 16)
    smem = -(-smem // 16) * 16
    dynamic = smem > STATIC_LIMIT
    notes = []
    for lane in range(32):
        o = offsets[lane]
        if o < 0:
            notes.append(f"//   lane {lane:2d}: " + ("gives no row address" if op == "ldmatrix"
                                                    else "masked"))
            continue
        words = r.words_of_lane[lane] or ()
        banks = sorted({w % 32 for w in words})
        bank_text = f"bank {banks[0]}" if len(banks) == 1 else f"banks {banks[0]}–{banks[-1]}"
        notes.append(f"//   lane {lane:2d}: bytes {o}–{o + width - 1}, {bank_text}")
    if op == "ldmatrix":
        lm = p.ldmatrix
        verb = f"ldmatrix .x{lm.matrices}{'.trans' if lm.trans else ''}"
        access = _ldmatrix(lm.matrices, lm.trans)
        sass = (r"LDSM\.16\.M" + ("T" if lm.trans else "") + "88" +
                ("" if lm.matrices == 1 else rf"\.{lm.matrices}"),)
        metric, case_op = SHARED_LD, f"ldsm.x{lm.matrices}" + (".trans" if lm.trans else "")
        guard = "    const int off = kLaneOffset[lane] < 0 ? 0 : kLaneOffset[lane];"
    else:
        verb = f"{'store' if op == 'store' else 'load'} of {width} byte(s) per lane"
        access = _store(width) if op == "store" else _load(width)
        case_op = "sts" if op == "store" else "lds"
        sass = (SASS[(case_op, width)],)
        metric = SHARED_ST if op == "store" else SHARED_LD
        guard = ("    const int off = kLaneOffset[lane];\n"
                 "    if (off < 0) return;  // a masked lane issues no access")
    phases = ", ".join(f"lanes {a}–{b}: {n}" for (a, b), n in zip(r.phase_lanes, r.phase_rounds,
                                                                  strict=True))
    summary = [f"One warp, one shared-memory {verb}: {r.pattern}"
               + (f", swizzled ({r.swizzle_formula})" if r.swizzle_formula else "") + ".",
               f"gpuviz's banks model: {r.rounds} wavefront(s) ({phases}).",
               f"Measured by Nsight Compute: {metric}."]
    if r.merge_reason:
        summary.append(f"Merged phases: {r.merge_reason} (fixed phases would take "
                       f"{r.fixed_phase_rounds}).")
    decl = ("extern __shared__ __align__(16) unsigned char smem[];  // kSharedBytes, dynamic"
            if dynamic else
            "__shared__ __align__(16) unsigned char smem[kSharedBytes];")
    launch_smem = "kSharedBytes" if dynamic else "0"
    attr = ("    CHECK(cudaFuncSetAttribute(banks_access, "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));\n" if dynamic else "")
    body = f"""
constexpr int kLanes = 32;
constexpr int kSharedBytes = {smem};  // covers every byte any lane touches

// Byte offset of each lane's access in shared memory, after any swizzle. Bank of a byte:
// (offset / 4) mod 32. −1: the lane takes no part.
{chr(10).join(notes)}
__constant__ int kLaneOffset[kLanes] = {{
    {c_array(offsets)}}};

// One warp, one instruction. The shared memory is not initialised: the values do not matter,
// only the addresses (and so the banks) do.
__global__ void banks_access(unsigned* out) {{
    {decl}
    const int lane = threadIdx.x;
{guard}
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + off;
{access}
    (void)out;
}}

int main() {{
    unsigned* out = nullptr;
    CHECK(cudaMalloc(&out, kLanes * sizeof(unsigned)));
{attr}    banks_access<<<1, kLanes, {launch_smem}>>>(out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("model: %d wavefront(s); profile with ncu to measure them\\n", {r.rounds});
    CHECK(cudaFree(out));
    return 0;
}}
"""
    return KernelSource(
        name=name, title=title, summary=summary, body=body,
        metrics=(metric, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
                 + ("st" if op == "store" else "ld") + ".sum"),
        sass=sass, kernel_filter="banks_access",
        case={"id": name, "panel": "banks", "op": case_op, "bytes": width, "offsets": offsets,
              "source": title})


#: Compared on the model's ``rounds``: the wavefronts of the case's instruction (a store's
#: ``_op_st``, a load's or ldmatrix's ``_op_ld``).
MEASURE = Measure(metric=lambda op: SHARED_ST if op == "sts" else SHARED_LD)
