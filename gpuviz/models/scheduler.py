"""One warp scheduler, cycle by cycle: how many warps it takes to hide a latency.

The model of the seed "SIMT and GPUs" (sections 1, 3 and 4, and the Expert view), simulated
exactly and deterministically:

- One scheduler issues at most one instruction per cycle.
- Each resident warp loops over ``k`` independent loads of latency ``L`` followed by ``k·C``
  dependent math instructions of latency ``A`` (``k = 1`` is the seed's basic model). The next
  loop's first load depends on the last math instruction. A warp that is never kept waiting
  completes a loop in ``P = L + A·k·C`` cycles (for ``L ≥ k`` and ``C ≥ 1``) and issues ``I = k·(1 + C)`` instructions, so
  ``⌈P / I⌉`` warps keep the scheduler busy and Little's law predicts the issue-slot utilisation
  ``U = min(1, N·I / P)``.
- Resident warps ``N = min(warps, warp slots, ⌊registers per scheduler / (32·R)⌋)``: 16 slots and
  16,384 registers (one quarter of a 65,536-register SM) give ``min(16, ⌊512 / R⌋)``.
- Divergence on: the math block is issued twice, each pass with half of the lanes active, so a
  loop issues ``k·(1 + 2C)`` instructions in ``L + 2·A·k·C`` cycles while the useful lane work
  stays that of ``k·(1 + C)`` full instructions.
- Policies (seed section 4, after Rogers et al.): loose round-robin (LRR) takes turns starting
  after the warp that issued last, skipping warps that are not ready; greedy-then-oldest (GTO)
  keeps issuing from the warp that issued last while it is ready, and otherwise picks the oldest
  ready warp, the lowest warp id (all warps arrive together at cycle 0).

What the seed leaves open, and how it is decided here: a load becomes usable exactly ``L`` cycles
after it issues and a math result exactly ``A`` cycles after; independent loads of one warp may
issue on consecutive cycles; group ``g``'s math waits for load ``g`` only; the second divergent
pass continues the same dependent chain; utilisation is counted over every simulated cycle from
cycle 0, warm-up included. Because every instruction of the basic loop depends on the one before,
a warp always stalls after it issues, so GTO then picks the oldest ready warp every cycle.

Lane utilisation is the active lanes of the issued instructions over 32 lanes × cycles.

What the literal rules give for the seed's "about" values (16 warps, L = 200, A = 4, C = 16,
20,000 cycles): GTO issues in 89.5% of the cycles ("about 90% busy"); LRR in 59.5%, leaving 40.5%
of the slots empty ("roughly 40%"); with divergence on, GTO's issue utilisation rises to 97.6%
while the useful lane work falls to 50.3%. In steady state 16 warps reach about 90%, not the
100% of ``min(1, N·I/P)``: at the knee the warps' loads bunch up and the prediction is an upper
bound (see the warp sweep).
"""

import math
from dataclasses import dataclass

import numpy as np

from gpuviz.models.params import param

LANES = 32
TIMELINE_CYCLES = 2000  # cycles of the issue timeline included in the printed result
# instruction kinds in the issue record
IDLE, LOAD, MATH = 0, 1, 2
# warp states in the state matrix
READY, ISSUED, WAIT_MEMORY, WAIT_MATH = 0, 1, 2, 3
STATE_NAMES = ("ready", "issued", "waiting on memory", "waiting on math")


@dataclass(frozen=True)
class SchedulerParams:
    warps: int = param(16, doc="Warps assigned to this scheduler (before the register cap).",
                       minimum=1, maximum=64)
    load_latency: int = param(200, doc="Load latency L in cycles.", minimum=1, maximum=5000)
    math_latency: int = param(4, doc="Latency A of one dependent math instruction, in cycles.",
                              minimum=1, maximum=64)
    math_per_load: int = param(16, doc="Dependent math instructions C after each load.",
                               minimum=0, maximum=512)
    loads_per_warp: int = param(1, doc="Independent loads k a warp issues before using them.",
                                minimum=1, maximum=16)
    registers_per_thread: int = param(32, doc="Registers per thread R (caps resident warps).",
                                      minimum=1, maximum=255)
    registers_per_scheduler: int = param(
        16384, doc="Registers of one scheduler's partition (a quarter of a 65,536-register SM).",
        minimum=1024, maximum=1 << 20)
    warp_slots: int = param(16, doc="Warp slots of one scheduler.", minimum=1, maximum=64)
    policy: str = param("gto", choices=("gto", "lrr"),
                        doc="Warp scheduling policy: greedy-then-oldest or loose round-robin.")
    divergence: bool = param(False, doc="Issue the math block twice, each time at half the lanes.")
    cycles: int = param(4000, doc="Cycles simulated.", minimum=10, maximum=200_000)


PARAMS = SchedulerParams


@dataclass(frozen=True)
class SchedulerResult:
    resident_warps: int
    register_cap: int
    P: int
    I: int  # noqa: E741 (the seed's name)
    warps_needed: int
    predicted_utilization: float
    issue_utilization: float
    lane_utilization: float
    issued_instructions: int
    loops_completed: int
    cycles: int
    policy: str
    divergence: bool
    sweep_warps: tuple[int, ...]  # resident warps tried in the sweep
    sweep_utilization: tuple[float, ...]  # steady-state issue utilisation for each
    sweep_cycles: tuple[int, int]  # the cycles [start, end) the sweep measures
    timeline: tuple[int, ...]  # warp issued in each of the first TIMELINE_CYCLES cycles, -1 idle
    _issued_warp: np.ndarray  # (cycles,) int16: warp that issued, -1 when the slot is empty
    _issued_kind: np.ndarray  # (cycles,) uint8: IDLE, LOAD or MATH
    _issued_lanes: np.ndarray  # (cycles,) uint8: active lanes of the issued instruction
    _states: np.ndarray  # (resident, cycles) uint8: READY, ISSUED, WAIT_MEMORY, WAIT_MATH


def loop_shape(params: SchedulerParams) -> tuple[int, int]:
    """(P, I): cycles and instructions of one uncontended loop of one warp."""
    passes = 2 if params.divergence else 1
    k, c = params.loads_per_warp, params.math_per_load * passes
    if c == 0:  # loads only: the next loop's first load waits for the last load
        return params.load_latency + k - 1, k
    # the first math waits for the first load (L) or, if L < k, for the last load to issue
    return max(params.load_latency, k) + params.math_latency * k * c, k * (1 + c)


def register_cap(params: SchedulerParams) -> int:
    by_registers = params.registers_per_scheduler // (LANES * params.registers_per_thread)
    return min(params.warp_slots, by_registers)


def problems(params: SchedulerParams) -> list[tuple[str, str]]:
    if register_cap(params) < 1:
        return [("registers_per_thread",
                 f"At {params.registers_per_thread} registers per thread not even one warp's "
                 f"registers fit in {params.registers_per_scheduler:,} registers.")]
    return []


def compute(params: SchedulerParams) -> SchedulerResult:
    cap = register_cap(params)
    n = min(params.warps, cap)
    p_loop, i_loop = loop_shape(params)
    issued_warp, issued_kind, issued_lanes, waits, loops = _simulate(params, n)
    cycles = params.cycles
    busy = int(np.count_nonzero(issued_kind))
    sweep_n, sweep_u, window = warp_sweep(params, n, p_loop)
    return SchedulerResult(
        resident_warps=n,
        register_cap=cap,
        P=p_loop,
        I=i_loop,
        warps_needed=math.ceil(p_loop / i_loop),
        predicted_utilization=min(1.0, n * i_loop / p_loop),
        issue_utilization=busy / cycles,
        lane_utilization=float(issued_lanes.sum(dtype=np.int64)) / (LANES * cycles),
        issued_instructions=busy,
        loops_completed=loops,
        cycles=cycles,
        policy=params.policy,
        divergence=params.divergence,
        sweep_warps=sweep_n,
        sweep_utilization=sweep_u,
        sweep_cycles=window,
        timeline=tuple(issued_warp[:TIMELINE_CYCLES].tolist()),
        _issued_warp=issued_warp,
        _issued_kind=issued_kind,
        _issued_lanes=issued_lanes,
        _states=_state_matrix(n, cycles, issued_warp, waits),
    )


SWEEP_POINTS = 16
SWEEP_BUDGET = 200_000  # simulated cycles for the whole sweep, so that it stays interactive


def warp_sweep(params: SchedulerParams, n: int, period: int):
    """Steady-state issue utilisation against the number of resident warps: each point is a
    simulation of its own, measured over 8 loop periods after 4 of warm-up (2 and 4 for long
    loops), so that Little's law's steady state can be compared with the simulated one point by
    point. At most :data:`SWEEP_POINTS` warp counts, always including 1 and the resident count
    ``n``, and at most :data:`SWEEP_BUDGET` simulated cycles in all; a loop too long for that
    budget gives an empty sweep."""
    top = max(params.warp_slots, n)
    warmup, measured = 4, 8
    points = min(SWEEP_POINTS, top)
    if (warmup + measured) * period * points > SWEEP_BUDGET:
        warmup, measured = 2, 4
    while points > 2 and (warmup + measured) * period * (points + 1) > SWEEP_BUDGET:
        points -= 1
    counts = sorted({*(int(v) for v in np.linspace(1, top, points).round()), n, 1})
    start, end = warmup * period, (warmup + measured) * period
    if end * len(counts) > SWEEP_BUDGET:
        return (), (), (start, end)
    utilization = []
    for m in counts:
        _, kind, _, _, _ = _simulate(params, m, end)
        utilization.append(float(np.count_nonzero(kind[start:end])) / (end - start))
    return tuple(counts), tuple(utilization), (start, end)


def _simulate(params: SchedulerParams, n: int, cycles: int | None = None):
    """The cycle loop. Ready warps are bits of one integer, so picking a warp is a couple of
    integer operations; wake-ups wait in a ring of bit masks indexed by cycle."""
    cycles = params.cycles if cycles is None else cycles
    big_l, a = params.load_latency, params.math_latency
    k = params.loads_per_warp
    passes = 2 if params.divergence else 1
    c = params.math_per_load
    math_count = k * c * passes
    length = k + math_count
    half = LANES // 2 if params.divergence else LANES
    kinds = [LOAD] * k + [MATH] * math_count
    lanes = [LANES] * k + [half] * math_count
    group = [0] * k + [(j % (k * c)) // c if c else 0 for j in range(math_count)]
    # per instruction j: the next instruction, and how it waits on j
    #   0: an independent load (ready next cycle), 1: a new loop's first load,
    #   2: math, waiting on the previous instruction and on its own load
    nxt_of = [(j + 1) % length for j in range(length)]
    how = [0 if kinds[x] == LOAD and x else (1 if kinds[x] == LOAD else 2) for x in nxt_of]
    prev_delay = [a if kinds[j] == MATH else (big_l if how[j] == 1 else 1) for j in range(length)]
    load_group = [group[x] for x in nxt_of]

    issued_warp = [-1] * cycles
    issued_kind = bytearray(cycles)
    issued_lanes = bytearray(cycles)
    waits: list[tuple[int, int, int, bool]] = []

    ring = max(big_l, a) + 2
    wake = [0] * ring
    ready = (1 << n) - 1
    pc = [0] * n
    load_time = [[0] * k for _ in range(n)]
    gto = params.policy == "gto"
    last = -1
    loops = 0
    for t in range(cycles):
        slot = t % ring
        if wake[slot]:
            ready |= wake[slot]
            wake[slot] = 0
        if not ready:
            continue
        if gto:
            greedy = last >= 0 and (ready >> last) & 1
            w = last if greedy else (ready & -ready).bit_length() - 1
        else:
            above = ready >> (last + 1)
            w = last + (above & -above).bit_length() if above else (ready & -ready).bit_length() - 1
        bit = 1 << w
        ready ^= bit
        last = w
        j = pc[w]
        issued_warp[t] = w
        issued_kind[t] = kinds[j]
        issued_lanes[t] = lanes[j]
        if j < k:
            load_time[w][j] = t
        nxt = nxt_of[j]
        pc[w] = nxt
        mode = how[j]
        if mode == 0:
            wake[(t + 1) % ring] |= bit
            continue
        at = t + prev_delay[j]
        memory = mode == 1 and kinds[j] == LOAD
        if mode == 1:
            loops += 1
        else:
            after_load = load_time[w][load_group[j]] + big_l
            if after_load > at:
                at, memory = after_load, True
        if at > t + 1:
            waits.append((w, t + 1, at if at < cycles else cycles, memory))
        if at < cycles:
            wake[at % ring] |= bit
    wait_array = np.asarray(waits, dtype=np.int64).reshape(-1, 4)
    return (np.asarray(issued_warp, dtype=np.int16), np.frombuffer(issued_kind, dtype=np.uint8),
            np.frombuffer(issued_lanes, dtype=np.uint8), wait_array, loops)


def _state_matrix(n: int, cycles: int, issued_warp: np.ndarray, waits: np.ndarray) -> np.ndarray:
    """Each resident warp's state in each cycle, from the issue record and the wait intervals.

    A warp's wait intervals never overlap or touch (it issues at the end of each), so one
    signed difference array over the flattened (warp, cycle) grid, summed once, paints them."""
    diff = np.zeros(n * cycles + 1, dtype=np.int8)
    if len(waits):
        warp, start, end, memory = waits.T
        keep = start < end
        value = np.where(memory[keep] == 1, WAIT_MEMORY, WAIT_MATH).astype(np.int8)
        row = warp[keep] * cycles
        diff[row + start[keep]] = value
        diff[row + end[keep]] -= value
    states = np.cumsum(diff[:-1], dtype=np.int8).reshape(n, cycles).astype(np.uint8)
    t = np.flatnonzero(issued_warp >= 0)
    states[issued_warp[t], t] = ISSUED
    return states
