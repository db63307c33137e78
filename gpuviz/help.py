"""Help ▸ About This Panel: what each panel shows, in one paragraph, and where its rules come
from (the CUDA documentation section, the paper or the vendor document). Qt-free; the dialog is
``gpuviz.ui.about_panel``."""

from __future__ import annotations

from dataclasses import dataclass

from gpuviz.registry import TOPICS, panel


@dataclass(frozen=True)
class PanelHelp:
    text: str
    references: tuple[str, ...]


HELP: dict[str, PanelHelp] = {
    "launch": PanelHelp(
        "A launch is a grid of blocks, each a group of threads; the hardware runs a block as "
        "warps of 32 consecutive threads, counted with x fastest, then y, then z, whatever shape "
        "the block is drawn in. The panel follows one output index from the launch to a lane: "
        "how many blocks ⌈N / block⌉ gives, which lanes of the last block are masked by the "
        "bounds guard (they still occupy their warp), and how blocks fill the multiprocessors in "
        "waves. The waves drawn here are an illustration of quantization, not a promise about "
        "the order in which a real GPU dispatches blocks. Tile quantization (a matrix not "
        "divisible by the tile) and wave quantization (tiles not divisible by the resident "
        "blocks) are counted exactly.",
        ("CUDA C++ Programming Guide, “Programming Model › Thread Hierarchy”",
         "CUDA C++ Programming Guide, “Hardware Implementation › SIMT Architecture” (warps of "
         "consecutive thread IDs)",
         "NVIDIA Deep Learning Performance Guide, “Matrix Multiplication Background”, sections "
         "“Tile Quantization” and “Wave Quantization”")),
    "sectors": PanelHelp(
        "Global memory is served in 32-byte sectors, four to a 128-byte cache line. One load "
        "instruction of a warp touches the sectors that hold the addresses its active lanes ask "
        "for; the bytes fetched are whole sectors, so efficiency is the bytes requested over the "
        "bytes fetched. Consecutive aligned 4-byte words for 32 lanes need 4 sectors; shifting "
        "the base by one word needs 5; a stride of 8 floats puts every lane in its own sector. "
        "The lane order does not matter, only the set of sectors.",
        ("CUDA C++ Best Practices Guide, “Memory Optimizations › Coalesced Access to Global "
         "Memory”",
         "CUDA C++ Programming Guide, “Performance Guidelines › Maximize Memory Throughput › "
         "Device Memory Accesses”",
         "Nsight Compute Kernel Profiling Guide, memory tables (sectors per request)")),
    "banks": PanelHelp(
        "Shared memory is divided into 32 banks of 4-byte words; successive words go to "
        "successive banks. Each bank serves one distinct word per round, so a warp's access "
        "takes as many rounds as the largest number of distinct words that any one bank must "
        "deliver. Lanes reading the same word share it (a broadcast), which is not a conflict. "
        "A column of a 32-wide row-major array lands in one bank (32 rounds); padding each row "
        "to 33 words spreads it over all 32 banks. Wider accesses (8 and 16 bytes) are served "
        "in phases of fewer lanes, each phase counted the same way.",
        ("CUDA C++ Best Practices Guide, “Shared Memory › Shared Memory and Memory Banks”",
         "CUDA C++ Programming Guide, “Compute Capabilities › Compute Capability 5.x › Shared "
         "Memory” (banks and broadcast; later capabilities refer to it)")),
    "swizzle": PanelHelp(
        "A swizzle changes where data is stored, not what the matrix is: the physical offset is "
        "the logical offset with some row bits XORed into the chunk bits, so a column of "
        "16-byte chunks that would sit in the same banks in every row is spread over eight "
        "different bank groups. Applying the XOR twice gives the original offset back, and the "
        "row and the byte within a chunk never change. The 32-, 64- and 128-byte modes are the "
        "patterns the Tensor Memory Accelerator writes into shared memory; the general form is "
        "CUTLASS's Swizzle⟨B, M, S⟩.",
        ("CUTLASS, CuTe documentation and cute/swizzle.hpp (Swizzle<B, M, S>)",
         "CUDA Driver API, cuTensorMapEncodeTiled (CU_TENSOR_MAP_SWIZZLE_32B/64B/128B)",
         "NVIDIA Hopper Tuning Guide (Tensor Memory Accelerator)")),
    "gemm": PanelHelp(
        "Matrix multiplication C = A·B does the same multiply-accumulates however the work is "
        "divided; what changes is how often each input is fetched. With one output per thread "
        "every multiply-accumulate loads two floats from global memory. A block that stages a "
        "T × T tile of A and B in shared memory reuses each loaded value T times, so FLOPs per "
        "requested byte grow towards T/4 for 4-byte floats; register tiling reuses values again "
        "inside each thread. The walkthrough shows who owns which outputs and what each owner "
        "loads, reads and reuses.",
        ("CUDA C++ Best Practices Guide, “Shared Memory in Matrix Multiplication (C=AB)”",
         "CUDA C++ Programming Guide, “Programming Interface › Device Memory › Shared Memory” "
         "(the tiled matrix multiplication example)",
         "CUTLASS documentation, “Efficient GEMM in CUDA”",
         "V. Volkov and J. Demmel, “Benchmarking GPUs to Tune Dense Linear Algebra”, SC 2008")),
    "traversal": PanelHelp(
        "The output tiles of a matrix product can be computed in any order and the result is "
        "the same; the order decides how often the A row-tiles and B column-tiles they need are "
        "still in the cache. The panel walks an order through an LRU cache with a given number "
        "of tiles in flight and counts hits and loads. Row-major, column-major, a generalised "
        "Hilbert curve for rectangles and Triton's grouped order are compared; the sweep plots "
        "misses against cache capacity, and which order wins depends on the capacity. The "
        "cache can also be sized from the architecture's L2: the whole L2, or one of its two "
        "partitions (half of it), which matches DRAM traffic measured on an H200 within 5 % "
        "for N = 2048–8192 except the Hilbert order at 4096 (docs/hardware-notes.md); the LRU "
        "leaves out set associativity, address hashing, C write-back and other traffic. Where "
        "a measurement disagrees, the figure says which LRU capacity would match it (one pass "
        "gives every capacity: Mattson et al.'s inclusion property).",
        ("D. Hilbert, “Über die stetige Abbildung einer Linie auf ein Flächenstück”, "
         "Mathematische Annalen 38, 1891",
         "J. Červený, “gilbert”: generalised Hilbert curve for rectangles",
         "Triton tutorial “Matrix Multiplication”, section “L2 Cache Optimizations” (GROUP_SIZE_M)",
         "CUTLASS documentation, “Efficient GEMM in CUDA” (threadblock rasterization)",
         "NVIDIA A100 Tensor Core GPU Architecture whitepaper, “A100 L2 Cache” (two L2 "
         "partitions)",
         "R. L. Mattson, J. Gecsei, D. R. Slutz and I. L. Traiger, “Evaluation techniques for "
         "storage hierarchies”, IBM Systems Journal 9(2), 1970")),
    "pipeline": PanelHelp(
        "A software pipeline overlaps loading tile i + d with computing tile i, using a ring of "
        "buffers. Each buffer slot is owned from the start of the load that fills it to the end "
        "of the compute that reads it. Two waits follow: compute waits for data that has not "
        "arrived, and a load waits for a slot whose previous reader has not finished. With one "
        "buffer nothing overlaps; more buffers help only until the slower of loading and "
        "computing sets the pace.",
        ("CUDA C++ Programming Guide, “Asynchronous Data Copies” (cuda::memcpy_async and "
         "cuda::pipeline)",
         "CUTLASS documentation, “Efficient GEMM in CUDA” (software pipelining)",
         "NVIDIA Hopper Tuning Guide (asynchronous copies and transaction barriers)")),
    "barrier": PanelHelp(
        "A tiled kernel needs two barriers per tile: one after the threads store the tile into "
        "shared memory, so nobody reads a neighbour's value before it is written, and one after "
        "the tile is consumed, so nobody overwrites it for the next tile while another thread "
        "still reads it. The panel plays an explicit interleaving of the threads and names the "
        "hazard each missing barrier lets through. Threads outside the data must still reach "
        "the barrier (they store a neutral value): a barrier skipped by some threads of a block "
        "is undefined behaviour.",
        ("CUDA C++ Programming Guide, “Synchronization Functions” (__syncthreads() in "
         "conditional code)",
         "CUDA C++ Best Practices Guide, “Shared Memory in Matrix Multiplication (C=AB)”")),
    "reduction": PanelHelp(
        "A warp sums 32 values without shared memory by shuffling: at offsets 16, 8, 4, 2 and 1 "
        "each lane adds the value of the lane that many places above it. After five levels lane "
        "0 holds the sum; the lanes above the active prefix keep stale partials that nobody "
        "reads. Each partial's contributor set shows which inputs it holds: the sets combined at "
        "each level are disjoint, so nothing is counted twice. Across a block, the warp leaders "
        "pass their partials through shared memory behind a barrier.",
        ("CUDA C++ Programming Guide, “Warp Shuffle Functions” (__shfl_down_sync, __shfl_xor_sync)",
         "M. Harris, “Optimizing Parallel Reduction in CUDA”, NVIDIA, 2007",
         "J. Luitjens, “Faster Parallel Reductions on Kepler”, NVIDIA Developer Blog, 2014")),
    "occupancy": PanelHelp(
        "How many blocks of a kernel can live on one multiprocessor at once is the smallest of "
        "four limits: warp slots, registers (allocated per warp in fixed units), shared memory "
        "(allocated in fixed units, plus a per-block reservation) and the maximum number of "
        "resident blocks. Occupancy is the resident warps over the maximum. The counts follow "
        "the architecture's data; a one-register change can halve the blocks at a cliff, as the "
        "plots show.",
        ("CUDA Occupancy Calculator (Nsight Compute) and cudaOccupancyMaxActiveBlocksPerMultiprocessor",
         "CUDA C++ Best Practices Guide, “Execution Configuration Optimizations › Occupancy”",
         "CUDA C++ Programming Guide, “Compute Capabilities” (technical specifications per "
         "compute capability)",
         "NVIDIA Hopper Tuning Guide; NVIDIA Ampere Tuning Guide")),
    "scheduler": PanelHelp(
        "One warp scheduler issues at most one instruction per cycle, from any warp that is "
        "ready. Each warp loops over a load of latency L and C dependent math instructions: a "
        "loop takes P cycles and has I instructions to issue, so by Little's law about ⌈P / I⌉ "
        "warps are needed to keep the scheduler busy, U = min(1, N·I / P). The simulation issues "
        "cycle by cycle under greedy-then-oldest or loose round-robin and shows who issued in "
        "each cycle; zoom and pan the timeline in the dock. With divergence the math is issued "
        "twice at half the lanes: issue slots fill while useful lane work falls. For a real SM, "
        "set the loop's own instructions (address, counter, branch), the warps per SM that its "
        "four schedulers share, and where the loads hit (L1, L2 or DRAM: the H200's measured "
        "latency and bandwidth); the bandwidth ceiling is Little's law for memory, bytes in "
        "flight against what the level delivers, and the latency grows with the level's load ρ "
        "as a queue's does, L0·(1 + q·ρ/(1 − ρ)), q fitted to the H200's measured loops. The figure then draws the H200's measured "
        "curve for the same loop beside the model and says which limit binds: latency, issue "
        "or bandwidth.",
        ("J. D. C. Little, “A Proof for the Queuing Formula: L = λW”, Operations Research 9(3), 1961",
         "V. Volkov, “Understanding Latency Hiding on GPUs”, PhD thesis, UC Berkeley, 2016",
         "V. Volkov, “Better Performance at Lower Occupancy”, GPU Technology Conference, 2010",
         "NVIDIA Hopper Tuning Guide (memory hierarchy, latency hiding)",
         "CUDA C++ Programming Guide, “Compute Capabilities › Compute Capability 9.0” (four warp "
         "schedulers per SM)",
         "T. G. Rogers, M. O'Connor and T. M. Aamodt, “Cache-Conscious Wavefront Scheduling”, "
         "MICRO 2012 (GTO and LRR)",
         "L. Kleinrock, Queueing Systems, Volume 1: Theory, Wiley, 1975 (the M/M/1 queue's "
         "waiting time, ρ/(1 − ρ))",
         "CUDA C++ Programming Guide, “Hardware Implementation › Hardware Multithreading”")),
    "divergence": PanelHelp(
        "When the lanes of a warp disagree at a branch, the paths run one after the other with "
        "the other lanes masked off, and the warp reconverges at the branch's immediate "
        "post-dominator, the first point every path must pass. Before Volta a stack of "
        "(PC, reconvergence PC, mask) entries did this; the panel traces that stack and counts "
        "issued instructions and lane efficiency. Two paths of equal length give 50 % whatever "
        "the split, and nested divergence multiplies. Since Volta each thread has its own "
        "program counter (independent thread scheduling), shown as interleaved paths.",
        ("W. W. L. Fung, I. Sham, G. Yuan and T. M. Aamodt, “Dynamic Warp Formation and "
         "Scheduling for Efficient GPU Control Flow”, MICRO 2007 (SIMT stack, immediate "
         "post-dominator reconvergence)",
         "CUDA C++ Programming Guide, “Hardware Implementation › SIMT Architecture” "
         "(independent thread scheduling)",
         "NVIDIA Tesla V100 GPU Architecture whitepaper, 2017",
         "K. D. Cooper, T. J. Harvey and K. Kennedy, “A Simple, Fast Dominance Algorithm”, 2001")),
    "mma": PanelHelp(
        "A warp-level mma.sync is executed by one warp: its 32 lanes hold the A, B and C/D "
        "fragments in registers, each element at a place the PTX ISA fixes (lane l: groupID "
        "l / 4, threadID_in_group l mod 4). Each cell of the grids prints its lane and is "
        "tinted by its register; select a lane or an element to have it spelled out. ldmatrix "
        "and stmatrix move a fragment between shared memory and registers, each lane giving the "
        "address of one 16-byte row: the rows of one 8 × 8 matrix are served in one wavefront "
        "only if they lie in eight distinct bank groups, which padding or the 128-byte XOR "
        "swizzle gives and a plain 128-byte row-major tile does not (the banks model counts "
        "them). Hopper's wgmma is executed by a warpgroup, four contiguous warps whose first "
        "rank is a multiple of 4, reads B (and optionally A) from shared memory through a matrix "
        "descriptor of 8-row × 16-byte core matrices, and runs asynchronously: D may be read "
        "only once wgmma.wait_group says its group is complete. The accumulators of a warp "
        "tile stay in registers, so they decide how many blocks fit an SM. Every table was run "
        "on an H200 (the exported kernels compare the product with the host's).",
        ("PTX ISA, “Warp Level Matrix Multiply-Accumulate Instructions” and its “Matrix "
         "Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32 / m8n8k4” figures",
         "PTX ISA, “Warp-level matrix load instruction: ldmatrix” and “… store instruction: "
         "stmatrix”",
         "PTX ISA, “Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions” "
         "(warpgroup, register fragments, matrix descriptor, wgmma.fence, commit_group, "
         "wait_group)",
         "CUDA C++ Programming Guide, “Warp Matrix Functions” and “Shared Memory”",
         "NVIDIA H100 Tensor Core GPU Architecture whitepaper, 2022")),
    "tma": PanelHelp(
        "Hopper's Tensor Memory Accelerator copies a whole box of a tensor from global to "
        "shared memory by a tensor map, which the driver accepts or refuses by fixed rules "
        "(rank 1 to 5, a 16-byte-aligned address, strides multiples of 16 bytes below 2^40, box "
        "dimensions up to 256, inner box bytes a multiple of 16 and within the swizzle span, "
        "element strides up to 8); each refusal names the rule. Out-of-bounds elements, a box "
        "starting at a negative coordinate included, are written as zeros. In shared memory the "
        "swizzle is a function of the absolute address, P = A ^ (((A >> 7) & m) << 4), so a "
        "buffer aligned to 128 bytes but not to the pattern's repeat is shifted in phase. An "
        "interleaved map (16B or 32B: the channels grouped in slices, NC/8HWC8 or NC/16HWC16) "
        "counts dimension 0 in whole 16- or 32-byte chunks: the copy reads box_dims[0] chunks "
        "contiguously for each coordinate of dimension 2 and writes them densely, box "
        "dimension 1 adding no rows, so it copies box_dims[0] × 16 (or 32) bytes a run, not "
        "the box's elements × their size — the bytes its barrier must expect (measured on an "
        "H100, rank 3). The copy completes bytes on an mbarrier: a phase completes only when the pending arrivals "
        "and the transaction count are both zero, and a parity wait is true for the phase just "
        "completed (parity 1 at once after init). A copy returning is not permission to read its "
        "destination; a ready notification is not permission to overwrite a buffer still being "
        "consumed: the stage ring shows a full and an empty barrier per stage and what each "
        "injected mistake does. Under cluster multicast each full barrier expects the bytes of "
        "every copy that reaches it; resident clusters are bound by GPCs, in a model to be "
        "checked on the H200. Ampere's cp.async groups are visible to the issuing thread after "
        "its wait_group, to other threads after a barrier. The swizzle modes are the swizzle "
        "panel's Swizzle⟨1,4,3⟩, ⟨2,4,3⟩ and ⟨3,4,3⟩; a wgmma reading the box names the mode in "
        "its matrix descriptor, with base offset 0 at any start since the TMA swizzles by the "
        "absolute address (measured on an H100): the dock opens both panels with them set.",
        ("PTX ISA, “Parallel Synchronization and Communication Instructions: mbarrier” "
         "(phases, arrive, expect-tx, complete-tx, test_wait.parity)",
         "PTX ISA, “Tensors”: “Interleave layout” and “Traversal-Stride”",
         "PTX ISA, “Data Movement and Conversion Instructions: cp.async.bulk.tensor” and "
         "“Tensor swizzling modes”; “cp.async”, “cp.async.commit_group”, "
         "“cp.async.wait_group”",
         "CUDA C++ Programming Guide, “Tensor Memory Access”, “Asynchronous Barrier” and "
         "“Thread Block Clusters”",
         "CUDA Driver API, “Tensor Map Object Management”: cuTensorMapEncodeTiled",
         "PTX ISA, “Asynchronous Warpgroup Level Matrix Shared Memory Layout”: “Matrix "
         "Descriptor Format” (swizzle mode, matrix base offset)")),
}


__all__ = ["HELP", "TOPICS", "PanelHelp", "help_for", "topic_of"]


def topic_of(panel_id: str) -> str:
    """The group the panel is listed under (its registry entry's ``topic``)."""
    return panel(panel_id).topic


def help_for(panel_id: str) -> PanelHelp:
    return HELP[panel_id]

