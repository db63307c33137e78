"""One warp scheduler, cycle by cycle: how many warps it takes to hide a latency.

The model of the source text "SIMT and GPUs" (sections 1, 3 and 4, and the Expert view), simulated
exactly and deterministically:

- One scheduler issues at most one instruction per cycle.
- Each resident warp loops over ``k`` independent loads of latency ``L`` followed by ``k·C``
  dependent math instructions of latency ``A`` (``k = 1`` is the source text's basic model). The next
  loop's first load depends on the last math instruction. A warp that is never kept waiting
  completes a loop in ``P = L + A·k·C`` cycles (for ``L ≥ k`` and ``C ≥ 1``) and issues ``I = k·(1 + C)`` instructions, so
  ``⌈P / I⌉`` warps keep the scheduler busy and Little's law predicts the issue-slot utilisation
  ``U = min(1, N·I / P)``.
- Resident warps ``N = min(warps, warp slots, ⌊registers per scheduler / (32·R)⌋)``: 16 slots and
  16,384 registers (one quarter of a 65,536-register SM) give ``min(16, ⌊512 / R⌋)``.
- Divergence on: the math block is issued twice, each pass with half of the lanes active, so a
  loop issues ``k·(1 + 2C)`` instructions in ``L + 2·A·k·C`` cycles while the useful lane work
  stays that of ``k·(1 + C)`` full instructions.
- Policies (source text, section 4, after Rogers et al.): loose round-robin (LRR) takes turns starting
  after the warp that issued last, skipping warps that are not ready; greedy-then-oldest (GTO)
  keeps issuing from the warp that issued last while it is ready, and otherwise picks the oldest
  ready warp, the lowest warp id (all warps arrive together at cycle 0).

What the source text leaves open, and how it is decided here: a load becomes usable exactly ``L`` cycles
after it issues and a math result exactly ``A`` cycles after; independent loads of one warp may
issue on consecutive cycles; group ``g``'s math waits for load ``g`` only; the second divergent
pass continues the same dependent chain; utilisation is counted over every simulated cycle from
cycle 0, warm-up included. Because every instruction of the basic loop depends on the one before,
a warp always stalls after it issues, so GTO then picks the oldest ready warp every cycle.

Lane utilisation is the active lanes of the issued instructions over 32 lanes × cycles.

Beyond the source text, for comparison with a real SM (each a parameter whose default keeps the source text's
model; measured on an H200, ``resources/measurements/h200-scheduler.json``):

- ``loop_instructions`` X: the loop's own instructions (address arithmetic, the counter, the
  compare and the branch), issued back to back after the math block, the first of them ``A``
  cycles after the last math instruction; the next loop's first load issues the cycle after the
  last of them. A loop then takes ``P = L + A·k·C + X`` cycles and issues ``I = k·(1 + C) + X``
  instructions. The H200 probe's loop has X = 8 (read from its SASS).
- ``warps_per_sm`` W: the SM's four schedulers share the warps, warp ``w`` on scheduler
  ``w mod 4`` (the CUDA C++ Programming Guide's Compute Capability 9.0 section: an SM has four
  schedulers), so scheduler 0, the one drawn, holds ``⌈W/4⌉`` warps. The SM's issue utilisation
  ``sm_issue_utilization`` is the mean over the schedulers that hold a warp, in steady state:
  Nsight Compute's ``smsp__issue_active.avg.pct_of_peak_sustained_active``.
- ``memory``: ``custom`` keeps ``load_latency``; ``l1``, ``l2`` and ``dram`` take the H200's
  measured load-to-use latency of a warp's 128-byte load in such a loop (:data:`MEMORY`) and
  what that level delivers per SM and cycle.
- A bandwidth ceiling (Little's law for memory): the memory level returns at most
  ``bandwidth_per_sm`` bytes a cycle to the SM, shared by its active schedulers, so one
  scheduler's loads of ``bytes_per_load`` bytes each are served one every
  ``bytes_per_load · schedulers / bandwidth_per_sm`` cycles at most: a load's data arrives ``L``
  cycles after it issues or that long after the load before it, whichever is later. The
  prediction becomes ``min(1, N·I/P, I·bandwidth per scheduler / (k·bytes_per_load))``, and
  ``limit`` names the bound that binds: ``latency``, ``issue`` or ``bandwidth``.

What the literal rules give for the source text's "about" values (16 warps, L = 200, A = 4, C = 16,
20,000 cycles): GTO issues in 89.5% of the cycles ("about 90% busy"); LRR in 59.5%, leaving 40.5%
of the slots empty ("roughly 40%"); with divergence on, GTO's issue utilisation rises to 97.6%
while the useful lane work falls to 50.3%. In steady state 16 warps reach about 90%, not the
100% of ``min(1, N·I/P)``: at the knee the warps' loads bunch up and the prediction is an upper
bound (see the warp sweep).
"""

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gpuviz.models.arch import load_preset, preset_names, preset_title, preset_value
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param
from gpuviz.models.scheduler_sim import (
    IDLE,
    ISSUED,
    LANES,
    LOAD,
    LOOP,
    MATH,
    MEMORY,
    READY,
    SCHEDULERS_PER_SM,
    TIMELINE_CYCLES,
    WAIT_MATH,
    WAIT_MEMORY,
    MemoryLevel,
    bandwidth,
    latency,
    level_load,
    loaded_latency,
    scheduler_warps,
    service_cycles,
    simulate,
    state_matrix,
    unloaded_loop,
)

__all__ = ["IDLE", "ISSUED", "LANES", "LOAD", "LOOP", "MATH", "MEMORY", "READY",
           "SCHEDULERS_PER_SM", "TIMELINE_CYCLES", "WAIT_MATH", "WAIT_MEMORY",
           "MemoryLevel", "SchedulerParams", "SchedulerResult", "bandwidth", "canonical",
           "compute", "latency", "level_load", "loaded_latency", "loop_shape", "problems",
           "register_cap", "scheduler_warps", "service_cycles", "simulate", "sm_issue_utilization", "steady_utilization",
           "warp_sweep"]

@dataclass(frozen=True)
class SchedulerParams:
    arch: str | None = param(
        None, doc="Architecture preset whose resident-warp limit bounds warps_per_sm; empty "
                  "means the scenario's architecture.", choices=preset_names())
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
    loop_instructions: int = param(
        0, doc="The loop's own instructions per iteration (address arithmetic, counter, compare, "
               "branch), beside the loads and the math.", minimum=0, maximum=64)
    warps_per_sm: int | None = param(
        None, doc="Warps per SM, shared by its four schedulers (warp w on scheduler w mod 4); "
                  "when given, the scheduler drawn holds ⌈W/4⌉ of them and `warps` is not used.",
        minimum=1, maximum=256)
    memory: str = param(
        "custom", choices=("custom", "l1", "l2", "dram"),
        doc="Where the loads hit: custom uses load_latency; l1, l2 and dram take the H200's "
            "measured latency and bandwidth of that level.")
    bytes_per_load: int = param(128, doc="Bytes one warp's load moves (32 lanes × 4 bytes).",
                                minimum=1, maximum=4096)
    bandwidth_per_sm: float | None = param(
        None, doc="Bytes per cycle the memory level delivers to one SM; empty: the memory "
                  "level's measured value (no ceiling for custom).", minimum=0.01,
        maximum=4096.0)


PARAMS = SchedulerParams

@dataclass(frozen=True)
class SchedulerResult:
    resident_warps: int
    register_cap: int
    P: int
    I: int  # noqa: E741 (the source text's name)
    warps_needed: int
    predicted_utilization: float
    issue_utilization: float
    lane_utilization: float
    issued_instructions: int
    loops_completed: int
    cycles: int
    policy: str
    divergence: bool
    load_latency: int  # L in use: the memory level's under the load of the drawn scheduler's
    # warps (loaded_latency), or the custom one
    unloaded_latency: int  # L0: the memory level's with one warp loading, or the custom one
    bandwidth_per_sm: float | None  # bytes per SM cycle of the memory level, None: unbounded
    latency_bound: float  # Little's law, N·I/P
    bandwidth_bound: float | None  # I · bandwidth per scheduler / (k · bytes per load)
    limit: str  # which bound binds the prediction: latency, issue or bandwidth
    warps_per_sm: int | None
    scheduler_warps: tuple[int, ...]  # resident warps of each of the SM's schedulers (one if W unset)
    sm_issue_utilization: float  # steady state, mean over the schedulers that hold a warp
    sm_steady: bool  # False: the loop is too long for a steady state within SWEEP_BUDGET cycles;
    # sm_issue_utilization is then over the first min(cycles, SWEEP_BUDGET) cycles
    sm_lane_utilization: float  # useful lane work over the same cycles, mean over the same
    # schedulers: the lanes of what they issued over 32 lanes × cycles
    steady_cycles: tuple[int, int]  # the cycles [start, end) both are measured over
    sm_sweep_warps: tuple[int, ...]  # warps per SM of the SM's sweep (empty without warps_per_sm)
    sm_sweep_utilization: tuple[float, ...]  # the SM's steady-state issue utilisation for each
    sm_sweep_predicted: tuple[float, ...]  # the prediction's bound for each (Little, issue, bw)
    sweep_warps: tuple[int, ...]  # resident warps tried in the sweep
    sweep_utilization: tuple[float, ...]  # steady-state issue utilisation for each
    sweep_cycles: tuple[int, int]  # the cycles [start, end) the sweep measures
    sweep_predicted: tuple[float, ...]  # the prediction min(1, N·I/P, bandwidth) for N = 1, 2, …
    timeline: tuple[int, ...]  # warp issued in each of the first TIMELINE_CYCLES cycles, -1 idle
    # what the figures draw from (not in the JSON):
    issued_warp: np.ndarray = not_in_json()  # (cycles,) int16: the warp that issued, or -1
    issued_kind: np.ndarray = not_in_json()  # (cycles,) uint8: IDLE, LOAD or MATH
    issued_lanes: np.ndarray = not_in_json()  # (cycles,) uint8: active lanes of what issued
    # (resident, cycles) uint8: READY, ISSUED, WAIT_MEMORY, WAIT_MATH
    states: np.ndarray = not_in_json()
    # what was computed (the measured H200 curve is looked up by it)
    params: SchedulerParams = not_in_json()


def loop_shape(params: SchedulerParams, n: int | None = None) -> tuple[int, int]:
    """(P, I): cycles and instructions of one loop of one warp that no other warp keeps
    waiting, its loads at the latency under the load of ``n`` warps a scheduler
    (:func:`loaded_latency`), or at the unloaded latency without ``n``."""
    p0, i0 = unloaded_loop(params)
    if n is None:
        return p0, i0
    # L enters P once (the first math waits for the load; L ≥ k for every memory level)
    return p0 + loaded_latency(params, n) - latency(params), i0


def bounds(params: SchedulerParams, n: int) -> tuple[float, float | None, str]:
    """(latency bound N·I/P at the loaded latency of ``n`` warps, bandwidth bound or None, the
    limit that binds)."""
    p_loop, i_loop = loop_shape(params, n)
    lat = n * i_loop / p_loop
    bw = bandwidth(params)
    schedulers = len(scheduler_warps(params)) if params.warps_per_sm else SCHEDULERS_PER_SM
    bw_bound = (None if bw is None else
                i_loop * (bw / schedulers) / (params.loads_per_warp * params.bytes_per_load))
    limits = [(lat, "latency"), (1.0, "issue")]
    if bw_bound is not None:
        limits.append((bw_bound, "bandwidth"))
    return lat, bw_bound, min(limits, key=lambda v: v[0])[1]


def canonical(params: SchedulerParams) -> SchedulerParams:
    """The same steady state with the fields it does not read at their defaults (``warps`` when
    ``warps_per_sm`` is given, ``load_latency`` for a memory level, ``cycles``, the length of the
    run drawn): how a measurement of it is found."""
    from dataclasses import replace

    defaults = SchedulerParams()
    params = replace(params, cycles=defaults.cycles, arch=None)  # the same on every preset
    if params.warps_per_sm is not None:
        params = replace(params, warps=defaults.warps)
    if params.memory != "custom":
        params = replace(params, load_latency=defaults.load_latency)
    return params


def register_cap(params: SchedulerParams) -> int:
    by_registers = params.registers_per_scheduler // (LANES * params.registers_per_thread)
    return min(params.warp_slots, by_registers)


def problems(params: SchedulerParams) -> list[tuple[str, str]]:
    slots = SCHEDULERS_PER_SM * params.warp_slots
    # the SM's resident-warp limit is its preset's (64 on NVIDIA's, 32 wavefronts on MI300X);
    # a section without an architecture is checked again once it follows the scenario's
    arch = params.arch
    limit = None if arch is None else preset_value(arch, "max_warps_per_sm")
    if arch is not None and params.warps_per_sm is not None and limit is not None \
            and params.warps_per_sm > limit:
        unit = "wavefronts" if load_preset(arch).get("vendor") == "amd" else "warps"
        source = load_preset(arch)["fields"]["max_warps_per_sm"]["source"]
        return [("warps_per_sm",
                 f"{params.warps_per_sm} warps per SM do not fit the {preset_title(arch)}, "
                 f"which holds at most {limit} resident {unit} per SM ({source})")]
    if params.warps_per_sm is not None and params.warps_per_sm > slots:
        return [("warps_per_sm",
                 f"{params.warps_per_sm} warps per SM do not fit its {SCHEDULERS_PER_SM} × "
                 f"{params.warp_slots} = {slots} warp slots")]
    if register_cap(params) < 1:
        return [("registers_per_thread",
                 f"At {params.registers_per_thread} registers per thread not even one warp's "
                 f"registers fit in {params.registers_per_scheduler:,} registers.")]
    return []


def compute(params: SchedulerParams) -> SchedulerResult:
    cap = register_cap(params)
    per_scheduler = scheduler_warps(params)
    n = min(per_scheduler[0], cap)
    p_loop, i_loop = loop_shape(params, n)
    issued_warp, issued_kind, issued_lanes, waits, loops = simulate(params, n)
    cycles = params.cycles
    busy = int(np.count_nonzero(issued_kind))
    sweep_n, sweep_u, window = warp_sweep(params, n, p_loop, math.ceil(p_loop / i_loop))
    lat, bw_bound, limit = bounds(params, n)
    resident = tuple(min(m, cap) for m in per_scheduler)
    # the sweep's runs are the steady-state runs where its window is the steady one
    known = dict(zip(sweep_n, sweep_u, strict=True)) if window[0] == \
        STEADY_WARMUP * p_loop else {}
    if steady_window(p_loop) is None:  # no steady state: the run itself is the measurement
        known = {n: busy / cycles}
    sm_n, sm_u = sm_sweep(params, cap, sweep_n, sweep_u)
    return SchedulerResult(
        resident_warps=n,
        register_cap=cap,
        P=p_loop,
        I=i_loop,
        warps_needed=math.ceil(p_loop / i_loop),
        predicted_utilization=min(1.0, lat, bw_bound if bw_bound is not None else 1.0),
        issue_utilization=busy / cycles,
        lane_utilization=float(issued_lanes.sum(dtype=np.int64)) / (LANES * cycles),
        issued_instructions=busy,
        loops_completed=loops,
        cycles=cycles,
        policy=params.policy,
        divergence=params.divergence,
        load_latency=loaded_latency(params, n),
        unloaded_latency=latency(params),
        bandwidth_per_sm=bandwidth(params),
        latency_bound=lat,
        bandwidth_bound=bw_bound,
        limit=limit,
        warps_per_sm=params.warps_per_sm,
        scheduler_warps=resident,
        sm_issue_utilization=sm_issue_utilization(params, known),
        sm_steady=steady_window(p_loop) is not None,
        sm_lane_utilization=sm_lane_utilization(params),
        steady_cycles=steady_window(p_loop) or (0, min(cycles, SWEEP_BUDGET)),
        sm_sweep_warps=sm_n,
        sm_sweep_utilization=sm_u,
        sm_sweep_predicted=tuple(sm_predicted(params, w) for w in sm_n),
        sweep_warps=sweep_n,
        sweep_utilization=sweep_u,
        sweep_cycles=window,
        sweep_predicted=tuple(
            min(1.0, *(b for b in bounds(params, m)[:2] if b is not None))
            for m in range(1, max(sweep_n, default=n) + 1)),
        timeline=tuple(issued_warp[:TIMELINE_CYCLES].tolist()),
        issued_warp=issued_warp,
        issued_kind=issued_kind,
        issued_lanes=issued_lanes,
        states=state_matrix(n, cycles, issued_warp, waits),
        params=params,
    )


SWEEP_POINTS = 16
SWEEP_BUDGET = 200_000  # simulated cycles for the whole sweep, so that it stays interactive
STEADY_WARMUP, STEADY_MEASURED = 4, 8  # loop periods of warm-up and of measurement


def steady_window(period: int) -> tuple[int, int] | None:
    """The cycles a steady-state measurement of a loop of ``period`` cycles runs over: 8 loop
    periods after 4 of warm-up, or 2 after 1 for a loop too long for that within
    :data:`SWEEP_BUDGET` simulated cycles; None for a loop whose 3 periods are more than the
    budget (a kernel would need a million cycles to show a steady state: none is simulated)."""
    for warmup, measured in ((STEADY_WARMUP, STEADY_MEASURED), (1, 2)):
        if (warmup + measured) * period <= SWEEP_BUDGET:
            return warmup * period, (warmup + measured) * period
    return None


def steady_utilization(params: SchedulerParams, n: int, period: int) -> float:
    """Issue utilisation of one scheduler with ``n`` warps in steady state (over
    :func:`steady_window`), or, for a loop too long for a steady state within the budget, over
    the first ``min(cycles, SWEEP_BUDGET)`` cycles from the start (``SchedulerResult.sm_steady``
    says which)."""
    return steady_measures(params, n, period)[0]


def steady_measures(params: SchedulerParams, n: int, period: int) -> tuple[float, float]:
    """(issue utilisation, useful lane work) of one scheduler with ``n`` warps over the cycles
    of :func:`steady_utilization`."""
    window = steady_window(period)
    start, end = window if window else (0, min(params.cycles, SWEEP_BUDGET))
    _, kind, lanes, _, _ = simulate(params, n, end)
    return (float(np.count_nonzero(kind[start:end])) / (end - start),
            float(lanes[start:end].sum(dtype=np.int64)) / (LANES * (end - start)))


def warp_sweep(params: SchedulerParams, n: int, period: int, needed: int | None = None):
    """Steady-state issue utilisation against the number of resident warps: each point is a
    simulation of its own, measured over 8 loop periods after 4 of warm-up (2 and 4 for long
    loops), so that Little's law's steady state can be compared with the simulated one point by
    point. At most :data:`SWEEP_POINTS` warp counts, always including 1 and the resident count
    ``n``, and at most :data:`SWEEP_BUDGET` simulated cycles in all; a loop too long for that
    budget gives an empty sweep. The counts reach ``needed`` (the warps Little's law needs, at
    most 64) where that is more than the slots, so that saturation shows; with ``warps_per_sm``
    every count up to the slots is simulated (the SM's curve is made of them)."""
    every = params.warps_per_sm is not None
    top = max(params.warp_slots, n) if every else max(params.warp_slots, n, min(needed or 0, 64))
    warmup, measured = STEADY_WARMUP, STEADY_MEASURED
    points = top if every else min(SWEEP_POINTS, top)
    if (warmup + measured) * period * points > SWEEP_BUDGET:
        warmup, measured = 2, 4
    while points > 2 and (warmup + measured) * period * (points + 1) > SWEEP_BUDGET:
        points -= 1
    counts = sorted({*(int(v) for v in np.linspace(1, top, points).round()), n, 1,
                     *([min(params.warp_slots, top)] if not every else [])})
    start, end = warmup * period, (warmup + measured) * period
    if end * len(counts) > SWEEP_BUDGET:
        return (), (), (start, end)
    utilization = []
    for m in counts:
        _, kind, _, _, _ = simulate(params, m, end)
        utilization.append(float(np.count_nonzero(kind[start:end])) / (end - start))
    return tuple(counts), tuple(utilization), (start, end)


def sm_predicted(params: SchedulerParams, warps_per_sm: int) -> float:
    """The prediction for the SM at ``warps_per_sm`` warps: the mean over its schedulers that
    hold a warp of ``min(1, N·I/P, bandwidth bound)``."""
    from dataclasses import replace

    q = replace(params, warps_per_sm=warps_per_sm)
    cap = register_cap(q)
    values = []
    for m in scheduler_warps(q):
        lat, bw, _ = bounds(q, min(m, cap))
        values.append(min(1.0, lat, bw if bw is not None else 1.0))
    return sum(values) / len(values)


def sm_issue_utilization(params: SchedulerParams, known: dict[int, float] | None = None
                         ) -> float:
    """The SM's steady-state issue utilisation: the mean of :func:`steady_utilization` over
    the schedulers that hold a warp (one scheduler without ``warps_per_sm``). ``known``: steady
    values already simulated, by resident warp count."""
    cap = register_cap(params)
    resident = [min(m, cap) for m in scheduler_warps(params)]
    period = loop_shape(params, resident[0])[0]  # the period compute's sweep runs by
    values = dict(known or {})
    for m in set(resident) - set(values):
        values[m] = steady_utilization(params, m, period)
    return sum(values[m] for m in resident) / len(resident)


def sm_lane_utilization(params: SchedulerParams) -> float:
    """The SM's useful lane work over the cycles :func:`sm_issue_utilization` is measured over:
    the mean over the schedulers that hold a warp, so that a figure quotes both quantities
    over one window."""
    cap = register_cap(params)
    resident = [min(m, cap) for m in scheduler_warps(params)]
    period = loop_shape(params, resident[0])[0]
    values = {m: steady_measures(params, m, period)[1] for m in set(resident)}
    return sum(values[m] for m in resident) / len(resident)


def sm_sweep(params: SchedulerParams, cap: int, counts: tuple[int, ...],
             utilization: tuple[float, ...]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The SM's issue utilisation against warps per SM, from one scheduler's sweep: W warps
    put ``⌊W/4⌋`` or ``⌈W/4⌉`` on each scheduler, and the SM's utilisation is the mean over the
    schedulers that hold a warp. Every W whose schedulers' counts the sweep simulated, up to
    four times the slots; nothing without ``warps_per_sm``."""
    if params.warps_per_sm is None or not counts:
        return (), ()
    u = dict(zip(counts, utilization, strict=True))
    out_w, out_u = [], []
    for w in range(1, SCHEDULERS_PER_SM * max(counts) + 1):
        q, extra = divmod(w, SCHEDULERS_PER_SM)
        per = [min(q + (s < extra), cap) for s in range(SCHEDULERS_PER_SM) if q + (s < extra)]
        if all(m in u for m in per):
            out_w.append(w)
            out_u.append(sum(u[m] for m in per) / len(per))
    return tuple(out_w), tuple(out_u)




UTILISATION_PERIODS = 8  # loop periods the utilisation over time covers
BINS_PER_PERIOD = 8


def utilisation_span(r: SchedulerResult) -> tuple[int, int]:
    """(cycles covered, cycles per window) of the utilisation over time: the first
    :data:`UTILISATION_PERIODS` loop periods (warm-up and steady state), in windows of an eighth
    of a period (at least one cycle), so the bursts and gaps of the loop's rhythm show; a run
    averaged over whole periods is a flat line. A run shorter than one window is one window."""
    b = max(1, min(r.P // BINS_PER_PERIOD, r.cycles))
    span = min(r.cycles, UTILISATION_PERIODS * r.P) // b * b
    return max(span, b), b


def windowed_utilisation(r: SchedulerResult) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(window centres in cycles, issue-slot use, useful lane work), shares 0–1 of each window
    of :func:`utilisation_span`, from the run's issue record."""
    span, b = utilisation_span(r)
    bins = max(1, min(span, r.cycles) // b)
    busy = (r.issued_kind[: bins * b] > 0).reshape(bins, b).mean(axis=1)
    lanes = r.issued_lanes[: bins * b].reshape(bins, b).sum(axis=1, dtype=np.int64) / (LANES * b)
    return (np.arange(bins) + 0.5) * b, busy, lanes


def saturation_warps_per_sm(params: SchedulerParams) -> int:
    """Warps per SM at which Little's law's prediction stops rising (every scheduler holds the
    fewest warps m with m·I/P(m) at the plateau, the issue or bandwidth bound, P(m) at the
    latency under their load), whether or not the SM's warp slots and registers hold that
    many."""
    _, bw, _ = bounds(params, 1)
    plateau = min(1.0, bw if bw is not None else 1.0)
    m = 1
    while bounds(params, m)[0] < plateau - 1e-9 and m < 1 << 16:
        m += 1
    return SCHEDULERS_PER_SM * m


@lru_cache(maxsize=4096)  # the figure draws this curve at every redraw (92 points: 13 ms)
def uncapped_sm_prediction(params: SchedulerParams, warps_per_sm: int) -> float:
    """Little's law for the SM at ``warps_per_sm`` as if every warp were resident (no slot or
    register cap): the mean over the schedulers that hold a warp of ``min(1, m·I/P, bw)``."""
    from dataclasses import replace

    q = replace(params, warps_per_sm=warps_per_sm)
    values = []
    for m in scheduler_warps(q):
        lat, bw, _ = bounds(q, m)
        values.append(min(1.0, lat, bw if bw is not None else 1.0))
    return sum(values) / len(values)


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("64 warps, busy every cycle, LRR", {"warps": 64, "load_latency": 64,
                                             "math_latency": 2, "math_per_load": 1,
                                             "loads_per_warp": 16, "warp_slots": 64,
                                             "registers_per_thread": 1,
                                             "registers_per_scheduler": 1048576,
                                             "policy": "lrr", "divergence": True,
                                             "cycles": 200000}),
        ("64 warps, 200000 cycles, GTO", {"warps": 64, "load_latency": 5000, "math_latency": 64,
                                          "math_per_load": 512, "loads_per_warp": 16,
                                          "warp_slots": 64, "registers_per_thread": 1,
                                          "registers_per_scheduler": 1048576,
                                          "divergence": True, "cycles": 200000}),
        ("64 warps, busy every cycle, GTO", {"warps": 64, "load_latency": 64,
                                             "math_latency": 2, "math_per_load": 1,
                                             "loads_per_warp": 16, "warp_slots": 64,
                                             "registers_per_thread": 1,
                                             "registers_per_scheduler": 1048576,
                                             "cycles": 200000}),
        ("64 warps, 200000 cycles, LRR", {"warps": 64, "load_latency": 1, "math_latency": 1,
                                          "math_per_load": 0, "loads_per_warp": 16,
                                          "warp_slots": 64, "registers_per_thread": 1,
                                          "registers_per_scheduler": 1048576, "policy": "lrr",
                                          "cycles": 200000}),
    ]
