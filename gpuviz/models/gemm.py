"""Matrix multiplication as a reuse problem: who owns which output, and what each owner loads.

The walkthrough multiplies C = A·B for 4 × 4 matrices. A holds the entries 1–16 row-major,
so row 0 of A is (1, 2, 3, 4). B is a fixed small integer matrix (a parameter, default below)
whose column 0 is (1, 0, 2, 1), chosen so that C[0,0] = 1·1 + 2·0 = 1 after k positions 0–1 and
1 + 3·2 + 4·1 = 11 after all four, as the source text's walkthrough shows. The default B is::

    1 0 0 1
    0 1 0 0
    2 0 1 0
    1 1 0 1

k is revealed two positions at a time (``k_revealed`` 0, 2 or 4): the partial C then holds the
sum over the revealed k positions only.

Three ownership strategies (source text: "Matrix multiplication is a reuse problem" and "Give a thread
more outputs to reuse its operands") are simulated thread by thread, each accumulating its own
outputs, so the final values and the counts below come from actually running the strategy:

* ``naive`` — 16 threads, one output each. For every k the thread loads A[i,k] and B[k,j] from
  global memory into registers and does one multiply-accumulate (MAC).
* ``shared`` — 2 × 2 threads per block, one output each, four blocks. The K dimension is walked
  in phases of two k positions; in each phase the block's threads cooperatively load the 2 × 2
  A tile and the 2 × 2 B tile (one A and one B element per thread) from global memory into shared
  memory, and each thread then reads its A and B operand from shared memory for every k.
* ``register`` — one block of 4 threads, each owning a 2 × 2 output region (together a 4 × 4
  block). Per phase the block loads the 4 × 2 A tile and the 2 × 4 B tile (four elements per
  thread); per k each thread reads two A and two B values from shared memory into registers and
  updates its four accumulators.

What each count counts (per strategy, over the whole product):

* ``macs`` — multiply-accumulates performed (always M·N·K = 64).
* ``global_loads`` — operand elements read from global memory (4-byte FP32 loads); output
  stores are not included.
* ``shared_reads`` — operand elements read from shared memory into a register.
* ``register_reuse`` — operand uses served by a value already in a register: each MAC uses two
  operands, so this is 2·MACs minus the operand values brought into registers (from global
  memory for ``naive``, from shared memory otherwise).
* ``flops_per_byte`` — 2·MACs floating-point operations divided by the requested bytes
  4·(global_loads + outputs), i.e. operand loads plus one 4-byte store per output, with no
  caching (the source text's requested-byte rule).

The requested-bytes calculator (source text: "For a full FP32 product, a naive requested-byte count
includes two float loads per multiply-accumulate and one final float store per output"):

* naive FP32 for an M × N × K product: 2·M·N·K loads + M·N stores of 4 bytes against 2·M·N·K
  FLOPs, so 2K / (8K + 4) FLOPs per byte, approaching 1/4;
* a square T × T output tile with cooperative loading (no redundant loads within the block)
  requests the T × K A panel and the K × T B panel once, 8·T·K bytes, and stores T² outputs,
  4·T² bytes, for 2·T²·K FLOPs: T / (4 + 2T/K) FLOPs per byte, approaching T/4 for large K
  (16 × 16 → 4). Equivalently (source text 2, section 5) T²/(2T) = T/2 MACs per loaded element.
"""

from dataclasses import dataclass

import numpy as np

from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param

SIZE = 4  # the walkthrough's M = N = K
K_PHASE = 2  # k positions revealed (and loaded) per phase
STRATEGIES = ("naive", "shared", "register")
DEFAULT_B = (1, 0, 0, 1,
             0, 1, 0, 0,
             2, 0, 1, 0,
             1, 1, 0, 1)
FLOAT_BYTES = 4


@dataclass(frozen=True)
class GemmParams:
    k_revealed: int = param(4, doc="How many k positions of the walkthrough are revealed "
                               "(two at a time: 0, 2 or 4).", choices=(0, 2, 4))
    b: tuple[int, ...] = param(DEFAULT_B, doc="The fixed 4 × 4 matrix B, row-major (16 small "
                               "integers).", minimum=-99, maximum=99, length=16)
    tile: int = param(16, doc="Side T of the square T × T output tile in the requested-bytes "
                      "calculator.", minimum=1, maximum=512)
    k_dim: int = param(4096, doc="K (the shared dimension) for the requested-bytes calculator.",
                       minimum=1, maximum=1_000_000)
    max_tile: int = param(64, doc="Largest T on the FLOPs-per-byte plot.", minimum=2,
                          maximum=512)


PARAMS = GemmParams


@dataclass(frozen=True)
class StrategyResult:
    name: str
    threads: int
    blocks: int
    outputs_per_thread: int
    owner: np.ndarray  # (4, 4) thread number owning each output
    block_of_output: np.ndarray  # (4, 4) block number of each output
    c: np.ndarray  # (4, 4) final values computed by this strategy
    macs: int
    global_loads: int
    shared_reads: int
    register_reuse: int
    flops_per_byte: float
    global_loads_per_thread: tuple[int, ...]
    shared_reads_per_thread: tuple[int, ...]
    register_reuse_per_thread: tuple[int, ...]
    # which operand elements thread t loads from global memory: (t, "a"|"b", row, col)
    global_sources: tuple[tuple[int, str, int, int], ...] = not_in_json()
    # which operand elements thread t reads (from global for naive, shared otherwise)
    operand_reads: tuple[tuple[int, str, int, int], ...] = not_in_json()


@dataclass(frozen=True)
class GemmResult:
    a: np.ndarray
    b: np.ndarray
    macs: int
    outputs: int
    c: np.ndarray
    k_revealed: int
    c_partial: np.ndarray  # C summed over the revealed k positions
    c00_by_step: tuple[int, ...]  # C[0,0] after 0, 2 and 4 k positions
    strategies: dict[str, StrategyResult]
    same_values: bool  # every strategy produced the same 16 values as A·B
    # the requested-bytes calculator
    naive_loads_per_mac: int
    naive_flops_per_byte: float
    naive_flops_per_byte_limit: float
    tile: int
    k_dim: int
    tile_flops_per_byte: float
    tile_flops_per_byte_limit: float
    tile_macs_per_loaded_element: float
    tile_sizes: tuple[int, ...]
    flops_per_byte_by_tile: tuple[float, ...]


def matrix_a() -> np.ndarray:
    return np.arange(1, SIZE * SIZE + 1, dtype=np.int64).reshape(SIZE, SIZE)


def naive_flops_per_byte(k_dim: int) -> float:
    """FLOPs per requested byte of the naive FP32 product: 2K FLOPs per output against 2K float
    loads and one float store."""
    return (2.0 * k_dim) / (FLOAT_BYTES * (2.0 * k_dim + 1.0))


def tile_flops_per_byte(tile: int, k_dim: int) -> float:
    """FLOPs per requested byte of one T × T output tile with cooperative loading."""
    flops = 2.0 * tile * tile * k_dim
    requested = FLOAT_BYTES * (2.0 * tile * k_dim + tile * tile)
    return flops / requested


def _simulate(name: str, a: np.ndarray, b: np.ndarray) -> StrategyResult:
    """Run one strategy thread by thread, counting loads, shared reads and register reuse."""
    n = SIZE
    if name == "naive":
        threads, blocks, region, block_side = n * n, n * n, 1, 1
    elif name == "shared":
        threads, blocks, region, block_side = n * n, 4, 1, 2
    else:
        threads, blocks, region, block_side = 4, 1, 2, 4
    threads_per_block = threads // blocks
    threads_per_row = block_side // region  # threads along one side of a block
    owner = np.zeros((n, n), dtype=np.int64)
    block_of = np.zeros((n, n), dtype=np.int64)
    c = np.zeros((n, n), dtype=np.int64)
    gl = [0] * threads
    sr = [0] * threads
    ru = [0] * threads
    macs = 0
    sources: list[tuple[int, str, int, int]] = []
    reads: list[tuple[int, str, int, int]] = []
    blocks_per_row = n // block_side
    for blk in range(blocks):
        br, bc = divmod(blk, blocks_per_row)
        rows = range(br * block_side, (br + 1) * block_side)
        cols = range(bc * block_side, (bc + 1) * block_side)
        local = list(range(threads_per_block))
        tid = [blk * threads_per_block + t for t in local]
        for t in local:
            ty, tx = divmod(t, threads_per_row)
            for i in range(region):
                for j in range(region):
                    r = br * block_side + ty * region + i
                    cc = bc * block_side + tx * region + j
                    owner[r, cc] = tid[t]
                    block_of[r, cc] = blk
        if name == "naive":
            t = tid[0]
            r, cc = rows[0], cols[0]
            for k in range(n):
                gl[t] += 2
                sources += [(t, "a", r, k), (t, "b", k, cc)]
                reads += [(t, "a", r, k), (t, "b", k, cc)]
                c[r, cc] += a[r, k] * b[k, cc]
                macs += 1
            continue
        for phase in range(n // K_PHASE):
            ks = range(phase * K_PHASE, (phase + 1) * K_PHASE)
            # Cooperative load: the block's A tile (rows × ks) and B tile (ks × cols), element e
            # of each tile handed to thread e % threads_per_block.
            a_tile = [("a", r, k) for r in rows for k in ks]
            b_tile = [("b", k, cc) for k in ks for cc in cols]
            for e, (mat, r, cc) in enumerate(a_tile + b_tile):
                t = tid[e % threads_per_block]
                gl[t] += 1
                sources.append((t, mat, r, cc))
            for t in local:
                ty, tx = divmod(t, threads_per_row)
                my_rows = [br * block_side + ty * region + i for i in range(region)]
                my_cols = [bc * block_side + tx * region + j for j in range(region)]
                for k in ks:
                    sr[tid[t]] += len(my_rows) + len(my_cols)
                    reads += [(tid[t], "a", r, k) for r in my_rows]
                    reads += [(tid[t], "b", k, cc) for cc in my_cols]
                    for r in my_rows:
                        for cc in my_cols:
                            c[r, cc] += a[r, k] * b[k, cc]
                            macs += 1
    # Every MAC uses two operands; those not brought into a register this k were reused.
    brought = gl if name == "naive" else sr
    outputs_per_thread = region * region
    for t in range(threads):
        ru[t] = 2 * n * outputs_per_thread - brought[t]
    global_loads = sum(gl)
    flops = 2 * macs
    return StrategyResult(
        name=name, threads=threads, blocks=blocks, outputs_per_thread=outputs_per_thread,
        owner=owner, block_of_output=block_of, c=c, macs=macs, global_loads=global_loads,
        shared_reads=sum(sr), register_reuse=sum(ru),
        flops_per_byte=flops / (FLOAT_BYTES * (global_loads + n * n)),
        global_loads_per_thread=tuple(gl), shared_reads_per_thread=tuple(sr),
        register_reuse_per_thread=tuple(ru),
        global_sources=tuple(sources), operand_reads=tuple(reads),
    )


def compute(params: GemmParams) -> GemmResult:
    a = matrix_a()
    b = np.asarray(params.b, dtype=np.int64).reshape(SIZE, SIZE)
    c = a @ b
    kr = params.k_revealed
    c_partial = a[:, :kr] @ b[:kr, :]
    c00 = tuple(int(a[0, :k] @ b[:k, 0]) for k in range(0, SIZE + 1, K_PHASE))
    strategies = {name: _simulate(name, a, b) for name in STRATEGIES}
    same = all(np.array_equal(s.c, c) for s in strategies.values())
    sizes = tuple(t for t in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) if t <= params.max_tile)
    if params.tile not in sizes and params.tile <= params.max_tile:
        sizes = tuple(sorted((*sizes, params.tile)))
    return GemmResult(
        a=a, b=b, macs=SIZE ** 3, outputs=SIZE * SIZE, c=c, k_revealed=kr,
        c_partial=c_partial, c00_by_step=c00, strategies=strategies, same_values=same,
        naive_loads_per_mac=2,
        naive_flops_per_byte=naive_flops_per_byte(params.k_dim),
        naive_flops_per_byte_limit=2.0 / (2 * FLOAT_BYTES),
        tile=params.tile, k_dim=params.k_dim,
        tile_flops_per_byte=tile_flops_per_byte(params.tile, params.k_dim),
        tile_flops_per_byte_limit=params.tile / 4.0,
        tile_macs_per_loaded_element=params.tile / 2.0,
        tile_sizes=sizes,
        flops_per_byte_by_tile=tuple(tile_flops_per_byte(t, params.k_dim) for t in sizes),
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("tile 512, K 10^6", {"tile": 512, "k_dim": 1_000_000, "max_tile": 512}),
    ]
