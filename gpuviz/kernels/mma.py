"""Kernel export for the mma panel: the model's fragment tables, run on the tensor cores.

One program, three kernels, each driven only by the model's tables (:mod:`gpuviz.models.mma`):

- ``mma_fragments``: one warp places A, B and C into registers by the fragment tables (lane,
  element, register and half or byte), runs the inline-PTX ``mma.sync.aligned`` of the
  scenario's shape and types, stores D by the C table; the host compares D with its own product.
- ``mma_feed``: one warp fills a tile in shared memory (every 16-bit slot holds its own index),
  then ``ldmatrix`` (or ``stmatrix``) with each lane giving the row address the model says;
  every lane checks that each half of each register holds (or wrote) the element the model
  says. Nsight Compute counts its shared-memory wavefronts
  (``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`` / ``_op_st``): the model's
  ``ldmatrix_wavefronts``.
- ``mma_wgmma`` (sm_90a): the four warps of the scenario's warpgroup place B (and A when it is
  in shared memory) at the byte addresses the model's descriptor selects, build the descriptor
  the model encodes, run ``wgmma.mma_async`` m64nNk16 with fence, commit and wait, and store D
  by the model's accumulator table; the host compares. A warpgroup the model calls invalid is
  not run (undefined behaviour).
"""

from __future__ import annotations

from gpuviz.kernels.emit import KernelSource, c_array
from gpuviz.kernels.measure import SHARED_LD, SHARED_ST
from gpuviz.models import mma as model
from gpuviz.models import mma_fragments as frag
from gpuviz.models import mma_warpgroup as wg
from gpuviz.registry import Measure

ARCH = "sm_90a"
NVCC_FLAGS = ("-gencode=arch=compute_90a,code=sm_90a",)

#: PTX type of the inputs and the C/D type, and how one element is packed.
PACK = {
    "f16": "__half_as_ushort(__float2half(v))",
    "bf16": "__bfloat16_as_ushort(__float2bfloat16(v))",
    "tf32": "__float_as_uint(v)",
    "s8": "(unsigned)(unsigned char)(signed char)(int)v",
    "u8": "(unsigned)(unsigned char)(int)v",
}


def _values(dtype: str) -> tuple[int, int]:
    """Range of the small integers the host fills A and B with: exact in every type."""
    return (0, 4) if dtype == "u8" else (-3, 4)


def _mma_kernel(r: model.MmaResult) -> str:
    a, b, c = r.a, r.b, r.c
    shape, dt, acc = r.shape, r.dtype, r.accumulator
    na, nb, nc = a.registers_per_lane, b.registers_per_lane, c.registers_per_lane
    lanes_a = [[int(x) for x in _cells(a, lane)] for lane in range(32)]
    lanes_b = [[int(x) for x in _cells(b, lane)] for lane in range(32)]
    lanes_c = [[int(x) for x in _cells(c, lane)] for lane in range(32)]
    ea, eb, ec = a.elements_per_lane, b.elements_per_lane, c.elements_per_lane
    epr_in = a.elements_per_register
    if dt == "f64":
        a_decl, b_decl = "double ra[1]; double rb[1];", ""
        load_a = "ra[0] = A[kA[lane][0]];"
        load_b = "rb[0] = B[kB[lane][0]];"
        ina = '"d"(ra[0])'
        inb = '"d"(rb[0])'
    else:
        a_decl = f"unsigned ra[{na}] = {{0}}; unsigned rb[{nb}] = {{0}};"
        b_decl = ""
        bits = 32 // epr_in
        load_a = (f"#pragma unroll\n    for (int i = 0; i < {ea}; ++i) {{ const float v = "
                  f"(float)A[kA[lane][i]]; ra[i / {epr_in}] |= ({PACK[dt]}) << ({bits} * "
                  f"(i % {epr_in})); }}")
        load_b = (f"#pragma unroll\n    for (int i = 0; i < {eb}; ++i) {{ const float v = "
                  f"(float)B[kB[lane][i]]; rb[i / {epr_in}] |= ({PACK[dt]}) << ({bits} * "
                  f"(i % {epr_in})); }}")
        ina = ", ".join(f'"r"(ra[{i}])' for i in range(na))
        inb = ", ".join(f'"r"(rb[{i}])' for i in range(nb))
    if acc == "f16":
        c_decl = f"unsigned rc[{nc}] = {{0}}; unsigned rd[{nc}];"
        load_c = (f"#pragma unroll\n    for (int i = 0; i < {ec}; ++i) {{ const float v = "
                  f"(float)C[kC[lane][i]]; rc[i / 2] |= ({PACK['f16']}) << (16 * (i % 2)); }}")
        store_d = (f"#pragma unroll\n    for (int i = 0; i < {ec}; ++i) D[kC[lane][i]] = "
                   f"(double)__half2float(__ushort_as_half((unsigned short)(rd[i / 2] >> "
                   f"(16 * (i % 2)))));")
        dl, cl = "=r", "r"
        nregs_c = nc
    else:
        ctype = {"f32": "float", "s32": "int", "f64": "double"}[acc]
        nregs_c = ec
        c_decl = f"{ctype} rc[{ec}]; {ctype} rd[{ec}];"
        load_c = (f"#pragma unroll\n    for (int i = 0; i < {ec}; ++i) rc[i] = "
                  f"({ctype})C[kC[lane][i]];")
        store_d = f"#pragma unroll\n    for (int i = 0; i < {ec}; ++i) D[kC[lane][i]] = (double)rd[i];"
        letter = {"f32": "f", "s32": "r", "f64": "d"}[acc]
        dl, cl = f"={letter}", letter
    ptx_in = {"f16": "f16", "bf16": "bf16", "tf32": "tf32", "s8": "s8", "u8": "u8",
              "f64": "f64"}[dt]
    opcode = f"mma.sync.aligned.{shape}.row.col.{acc}.{ptx_in}.{ptx_in}.{acc}"
    nin_a = 1 if dt == "f64" else na
    nin_b = 1 if dt == "f64" else nb
    idx = 0

    def group(count: int) -> str:
        nonlocal idx
        names = ", ".join(f"%{idx + i}" for i in range(count))
        idx += count
        return "{" + names + "}"

    d_ops = group(nregs_c)
    a_ops = group(nin_a)
    b_ops = group(nin_b)
    c_ops = group(nregs_c)
    outs = ", ".join(f'"{dl}"(rd[{i}])' for i in range(nregs_c))
    ins_c = ", ".join(f'"{cl}"(rc[{i}])' for i in range(nregs_c))
    return f"""
constexpr int kM = {r.m}, kN = {r.n}, kK = {r.k};
// Fragment tables of the model: kA[lane][i] = row * kK + col of element a_i of the lane, and
// so on (B is K x N, indexed k * kN + n; C and D are M x N).
__constant__ int kA[32][{ea}] = {{
    {_rows(lanes_a)}}};
__constant__ int kB[32][{eb}] = {{
    {_rows(lanes_b)}}};
__constant__ int kC[32][{ec}] = {{
    {_rows(lanes_c)}}};

__global__ void mma_fragments(const double* A, const double* B, const double* C, double* D) {{
    const int lane = threadIdx.x;
    {a_decl}{b_decl}
    {load_a}
    {load_b}
    {c_decl}
    {load_c}
    asm volatile("{opcode} {d_ops}, {a_ops}, {b_ops}, {c_ops};"
                 : {outs}
                 : {ina}, {inb}, {ins_c});
    {store_d}
}}

static int check_mma() {{
    double A[kM * kK], B[kK * kN], C[kM * kN], D[kM * kN], R[kM * kN];
    unsigned seed = 12345u;
    for (double& x : A) x = small(seed);
    for (double& x : B) x = small(seed);
    for (double& x : C) x = small(seed);
    for (int i = 0; i < kM; ++i)
        for (int j = 0; j < kN; ++j) {{
            double s = C[i * kN + j];
            for (int k = 0; k < kK; ++k) s += A[i * kK + k] * B[k * kN + j];
            R[i * kN + j] = s;
        }}
    double *dA, *dB, *dC, *dD;
    CHECK(cudaMalloc(&dA, sizeof A)); CHECK(cudaMalloc(&dB, sizeof B));
    CHECK(cudaMalloc(&dC, sizeof C)); CHECK(cudaMalloc(&dD, sizeof D));
    CHECK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dD, 0xff, sizeof D));
    mma_fragments<<<1, 32>>>(dA, dB, dC, dD);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < kM * kN; ++i) bad += D[i] != R[i];
    CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC)); CHECK(cudaFree(dD));
    std::printf("check mma {shape} {dt}->{acc}: %s (%d of %d elements of D differ)\\n",
                bad ? "FAIL" : "ok", bad, kM * kN);
    return bad;
}}
"""


def _cells(f: frag.Fragment, lane: int) -> list[int]:
    """Flat index (row · cols + col) of each element the lane holds, in element order."""
    return [row * f.cols + col for _, row, col in f.cells_of_lane(lane)]


def _rows(table: list[list[int]]) -> str:
    return ",\n    ".join("{" + ", ".join(str(v) for v in row) + "}" for row in table)


def _feed_kernel(p: model.MmaParams, r: model.MmaResult) -> tuple[str, str]:
    f = p.feed
    fr = r.feed
    row_addr = [0] * 32
    for row in fr.rows:
        row_addr[row.lane] = row.address
    reg_addr = []
    for lane in range(32):
        cells = []
        for _j, _h, orow, ocol in fr.registers[lane]:
            sr, sc = model.stored_position(f, orow, ocol)
            cells.append(model.physical_address(f, sr, sc))
        cells += [0] * (8 - len(cells))
        reg_addr.append(cells)
    top = max(max(max(c) for c in reg_addr), max(row_addr)) + 16
    smem = -(-top // 1024) * 1024
    m = f.matrices
    t = ".trans" if f.trans else ""
    regs = ", ".join(f"%{i}" for i in range(m))
    if f.op == "ldmatrix":
        outs = ", ".join(f'"=r"(r[{i}])' for i in range(m))
        access = (f'asm volatile("ldmatrix.sync.aligned.m8n8.x{m}{t}.shared.b16 {{{regs}}}, '
                  f'[%{m}];" : {outs} : "r"(addr) : "memory");')
        fill = ("    // every 16-bit slot holds its own index (st.shared: not counted as a load)\n"
                "    for (int i = lane; i < kSharedBytes / 2; i += 32)\n"
                "        reinterpret_cast<volatile unsigned short*>(smem)[i] = "
                "(unsigned short)i;\n    __syncwarp();")
        check = (f"    int bad = 0;\n#pragma unroll\n    for (int j = 0; j < {m}; ++j)\n"
                 "        for (int h = 0; h < 2; ++h)\n"
                 "            bad += ((r[j] >> (16 * h)) & 0xffffu) != "
                 "((unsigned)(kRegAddr[lane][2 * j + h] / 2) & 0xffffu);\n"
                 "    out[lane] = bad;")
        pre = f"    unsigned r[{m}];"
        metric = SHARED_LD
    else:
        ins = ", ".join(f'"r"(r[{i}])' for i in range(m))
        access = (f'asm volatile("stmatrix.sync.aligned.m8n8.x{m}{t}.shared.b16 [%0], '
                  f'{{{", ".join(f"%{i + 1}" for i in range(m))}}};" :: "r"(addr), {ins} : '
                  '"memory");')
        fill = "    __syncwarp();"
        pre = (f"    unsigned r[{m}];\n#pragma unroll\n    for (int j = 0; j < {m}; ++j)\n"
               "        r[j] = ((unsigned)(kRegAddr[lane][2 * j] / 2) & 0xffffu)\n"
               "             | (((unsigned)(kRegAddr[lane][2 * j + 1] / 2) & 0xffffu) << 16);")
        check = ("    __syncwarp();\n    int bad = 0;\n"
                 f"    for (int j = 0; j < {m}; ++j)\n        for (int h = 0; h < 2; ++h) {{\n"
                 "            const int a = kRegAddr[lane][2 * j + h];\n"
                 "            bad += reinterpret_cast<volatile unsigned short*>(smem)[a / 2] "
                 "!= (unsigned short)(a / 2);\n        }\n    out[lane] = bad;")
        metric = SHARED_ST
    return f"""
constexpr int kSharedBytes = {smem};
// Row address each lane gives (byte offset in the tile, after padding or swizzle; lanes
// {8 * m} and above give none), and the byte offset of the element each half of each register
// holds (register j, half h at [2j + h]), both from the model.
__constant__ int kRowAddr[32] = {{
    {c_array(row_addr)}}};
__constant__ int kRegAddr[32][8] = {{
    {_rows(reg_addr)}}};

__global__ void mma_feed(int* out) {{
    __shared__ __align__(1024) unsigned char smem[kSharedBytes];
    const int lane = threadIdx.x;
{fill}
{pre}
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + kRowAddr[lane];
    {access}
{check}
}}

static int check_feed() {{
    int* d;
    int h[32];
    CHECK(cudaMalloc(&d, sizeof h));
    mma_feed<<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    int bad = 0;
    for (int x : h) bad += x;
    std::printf("check {f.op} x{m}{t} {f.layout}: %s (%d register halves differ); model "
                "{fr.wavefronts} wavefront(s)\\n", bad ? "FAIL" : "ok", bad);
    return bad;
}}
""", metric


def _wgmma_kernel(p: model.MmaParams, r: model.MmaResult) -> str:
    w = p.warpgroup
    g = r.warpgroup
    n, steps = g.n, g.k_steps
    k = 16 * steps
    lbo, sbo = g.leading_byte_offset, g.stride_byte_offset
    b_desc = [wg.encode_descriptor(wg.step_start(w.start_address, lbo, w.swizzle, s), lbo, sbo,
                                   w.swizzle) for s in range(steps)]
    a_start = model.a_shared_start(w)
    a_desc = [wg.encode_descriptor(wg.step_start(a_start, lbo, w.swizzle, s), lbo, sbo,
                                   w.swizzle)
              for s in range(steps)] if g.a_source == "shared" else []
    # B element (k, n) → byte offset; A element (m, k) → byte offset (shared A only)
    b_off = [int(g.b_row_offsets[kk // 16, nn, 2 * (kk % 16)]) for kk in range(k)
             for nn in range(n)]
    top = max(b_off) + 2
    a_off: list[int] = []
    if g.a_row_offsets is not None:
        a_off = [int(g.a_row_offsets[kk // 16, mm, 2 * (kk % 16)]) for mm in range(64)
                 for kk in range(k)]
        top = max(top, max(a_off) + 2)
    smem = -(-top // 1024) * 1024 + 1024  # room to align the base to 1024 bytes
    d_index = [0] * (64 * n)  # inverted from the model's accumulator table
    for row in range(64):
        for col in range(n):
            ww, lane, i = (int(x) for x in g.d_owner[row, col])
            d_index[(ww * 32 + lane) * (n // 2) + i] = row * n + col
    a_frag = frag.fragment("m16n8k16", "a", p.dtype if p.dtype in ("f16", "bf16") else "f16")
    a_cells = [[row * 16 + col for _, row, col in a_frag.cells_of_lane(lane)]
               for lane in range(32)]
    dt = p.dtype if p.dtype in ("f16", "bf16") else "bf16"
    pack = PACK[dt]
    nd = n // 2
    d_ops = ", ".join(f"%{i}" for i in range(nd))
    outs = ", ".join(f'"+f"(d[{i}])' for i in range(nd))
    if g.a_source == "registers":
        a_operand = "{%" + f"{nd}, %{nd + 1}, %{nd + 2}, %{nd + 3}" + "}"
        desc_b = f"%{nd + 4}"
        scale = f"%{nd + 5}"
        ins = ('"r"(ra[s][0]), "r"(ra[s][1]), "r"(ra[s][2]), "r"(ra[s][3]), "l"(desc_b), '
               '"r"(1)')
        tail = "p, 1, 1, 0"
        a_pre = f"""    // A fragments of every K step written before wgmma.fence (registers a wgmma reads
    // must not change after the fence until it completes)
    unsigned ra[kSteps][4] = {{}};
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
        for (int i = 0; i < 8; ++i) {{
            const int cell = kAFrag[lane][i];  // row * 16 + col of a_i within the warp's 16 x 16
            const float v = (float)A[(16 * warp + cell / 16) * kKTotal + 16 * s + cell % 16];
            ra[s][i / 2] |= ({pack}) << (16 * (i % 2));
        }}
"""
        a_load = ""
    else:
        a_operand = f"%{nd}"
        desc_b = f"%{nd + 1}"
        scale = f"%{nd + 2}"
        ins = '"l"(desc_a), "l"(desc_b), "r"(1)'
        tail = "p, 1, 1, 0, 0"
        a_load = "        const unsigned long long desc_a = kADesc[s] + (base >> 4);\n"
        a_pre = ""
    ptx = (f"{{ .reg .pred p; setp.ne.b32 p, {scale}, 0; wgmma.mma_async.sync.aligned.m64n{n}"
           f"k16.f32.{dt}.{dt} {{{d_ops}}}, {a_operand}, {desc_b}, {tail}; }}")
    valid = "true" if g.valid else "false"
    a_fill = ("" if g.a_source == "registers" else
              "    for (int i = tid; i < 64 * kKTotal; i += blockDim.x) {\n"
              "        const float v = (float)A[i];\n"
              "        *reinterpret_cast<unsigned short*>(buf + aOff[i]) = "
              f"(unsigned short)({pack});\n    }}\n")
    return f"""
constexpr int kN64 = {n}, kKTotal = {k}, kSteps = {steps}, kBlockWarps = {w.block_warps};
constexpr int kFirstWarp = {w.first_warp}, kWgShared = {smem};
constexpr bool kWarpgroupValid = {valid};  // model: {g.reason}
// The model's descriptors (start relative to the 1024-byte-aligned buffer), one per K step:
// {g.descriptor_hex} at step 0 (LBO {lbo} B, SBO {sbo} B, swizzle {w.swizzle}).
__constant__ unsigned long long kBDesc[{steps}] = {{{", ".join(f"0x{d:016x}ull" for d in b_desc)}}};
__constant__ unsigned long long kADesc[{max(1, len(a_desc))}] = {{{", ".join(f"0x{d:016x}ull" for d in a_desc) or "0ull"}}};
// m16n8k16 A fragment of the model: kAFrag[lane][i] = row * 16 + col of a_i.
__constant__ int kAFrag[32][8] = {{
    {_rows(a_cells)}}};
// Byte offset of B[k][n] (index k * N + n) and of A[m][k] (index m * K + k), from the model.
static const int kBOffset[{len(b_off)}] = {{
    {c_array(b_off)}}};
static const int kAOffset[{max(1, len(a_off))}] = {{
    {c_array(a_off or [0])}}};
// D[row][col] of register d_i of lane l of warp w: index row * N + col at [(w * 32 + l) * N/2 + i].
static const int kDIndex[{len(d_index)}] = {{
    {c_array(d_index)}}};

__global__ void mma_wgmma(const double* A, const double* B, double* D, const int* bOff,
                          const int* aOff, const int* dIndex) {{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char wg_smem[];
    const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(wg_smem));
    const unsigned base = (raw + 1023u) & ~1023u;
    unsigned char* buf = wg_smem + (base - raw);
    const int tid = threadIdx.x;
    for (int i = tid; i < kKTotal * kN64; i += blockDim.x) {{
        const float v = (float)B[i];
        *reinterpret_cast<unsigned short*>(buf + bOff[i]) = (unsigned short)({pack});
    }}
{a_fill}    // generic-proxy writes made visible to the tensor cores' async proxy
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const int warp = tid / 32 - kFirstWarp, lane = tid % 32;
    if (warp < 0 || warp >= 4) return;
    float d[{nd}];
#pragma unroll
    for (int i = 0; i < {nd}; ++i) d[i] = 0.0f;
{a_pre}    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {{
{a_load}        const unsigned long long desc_b = kBDesc[s] + (base >> 4);
        asm volatile("{ptx}"
                     : {outs}
                     : {ins});
    }}
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
    for (int i = 0; i < {nd}; ++i) D[dIndex[(warp * 32 + lane) * {nd} + i]] = (double)d[i];
#endif
}}

static int check_wgmma() {{
    if (!kWarpgroupValid) {{
        std::printf("check wgmma m64n{n}k16: not run (the model says the warps are no "
                    "warpgroup: undefined behaviour)\\n");
        return 0;
    }}
    static double A[64 * kKTotal], B[kKTotal * kN64], D[64 * kN64], R[64 * kN64];
    unsigned seed = 777u;
    for (double& x : A) x = small(seed);
    for (double& x : B) x = small(seed);
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < kN64; ++j) {{
            double s = 0;
            for (int k = 0; k < kKTotal; ++k) s += A[i * kKTotal + k] * B[k * kN64 + j];
            R[i * kN64 + j] = s;
        }}
    double *dA, *dB, *dD;
    int *dbo, *dao, *ddi;
    CHECK(cudaMalloc(&dA, sizeof A)); CHECK(cudaMalloc(&dB, sizeof B));
    CHECK(cudaMalloc(&dD, sizeof D));
    CHECK(cudaMalloc(&dbo, sizeof kBOffset)); CHECK(cudaMalloc(&dao, sizeof kAOffset));
    CHECK(cudaMalloc(&ddi, sizeof kDIndex));
    CHECK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbo, kBOffset, sizeof kBOffset, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dao, kAOffset, sizeof kAOffset, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ddi, kDIndex, sizeof kDIndex, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dD, 0xff, sizeof D));
    CHECK(cudaFuncSetAttribute(mma_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               kWgShared));
    mma_wgmma<<<1, 32 * kBlockWarps, kWgShared>>>(dA, dB, dD, dbo, dao, ddi);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 64 * kN64; ++i) bad += D[i] != R[i];
    CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dD));
    CHECK(cudaFree(dbo)); CHECK(cudaFree(dao)); CHECK(cudaFree(ddi));
    std::printf("check wgmma m64n{n}k16 x%d {dt} A in {g.a_source} swizzle {w.swizzle}: %s "
                "(%d of %d elements of D differ)\\n", kSteps, bad ? "FAIL" : "ok", bad,
                64 * kN64);
    return bad;
}}
"""


HEADER = """#include <cuda_fp16.h>
#include <cuda_bf16.h>

// Small integers: exact in f16, bf16, tf32, 8-bit and f64, and their sums exact in every
// accumulator, so the device's D must equal the host's product exactly.
static double small(unsigned& seed) {
    seed = seed * 1664525u + 1013904223u;
    return (double)((int)((seed >> 16) % %RANGE%) + %LOW%);
}
"""


def render(p: model.MmaParams, name: str, title: str) -> KernelSource:
    r = model.compute(p)
    low, high = _values(r.dtype)
    header = HEADER.replace("%RANGE%", str(high - low)).replace("%LOW%", str(low))
    feed, metric = _feed_kernel(p, r)
    body = header + _mma_kernel(r) + feed + _wgmma_kernel(p, r) + """
int main() {
    int bad = check_mma();
    bad += check_feed();
    bad += check_wgmma();
    std::printf("%s\\n", bad ? "FAIL" : "all checks agree with the model");
    return bad ? 1 : 0;
}
"""
    f = p.feed
    fr = r.feed
    op = "ldsm" if f.op == "ldmatrix" else "stsm"
    sass = (r"HMMA|IMMA|DMMA", r"LDSM" if f.op == "ldmatrix" else r"STSM")
    summary = [f"Warp-level mma.sync.aligned.{r.shape} {r.dtype} -> {r.accumulator} with the "
               "model's fragment tables; D compared with the host's product.",
               f"{f.op} x{f.matrices}{'.trans' if f.trans else ''} of the m16n8k16 "
               f"{f.operand.upper()} fragment from a {f.layout} tile ({fr.row_bytes}-byte rows"
               + (f", {fr.swizzle} swizzle" if fr.swizzle else "") + f"): the model's "
               f"{fr.wavefronts} shared-memory wavefront(s), measured by {metric}.",
               f"wgmma.mma_async m64n{r.warpgroup.n}k16 through the model's descriptor "
               f"{r.warpgroup.descriptor_hex}: {r.warpgroup.reason}."]
    return KernelSource(
        name=name, title=title, summary=summary, body=body,
        metrics=(metric, "smsp__inst_executed_op_ldsm.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
        sass=sass, nvcc_flags=NVCC_FLAGS, kernel_filter="mma_feed", arch=ARCH,
        case={"id": name, "panel": "mma", "op": op, "metric": metric, "source": title})


#: Compared on the model's ``ldmatrix_wavefronts``: the shared-memory wavefronts of the
#: ``ldmatrix`` (``_op_ld``) or ``stmatrix`` (``_op_st``) that moves the fragment.
MEASURE = Measure(metric=lambda op: SHARED_ST if op == "stsm" else SHARED_LD)
