"""The scheduler model's cycle loop and what it reads of the memory level: the simulation that
:mod:`gpuviz.models.scheduler` describes (its docstring states the rules), kept apart from the
parameters, the result and the sweeps built on it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np


class SimulatedParams(Protocol):
    """What the simulation reads of the panel's parameters (``models.scheduler.SchedulerParams``,
    which imports this module)."""

    @property
    def warps(self) -> int: ...
    @property
    def warps_per_sm(self) -> int | None: ...
    @property
    def memory(self) -> str: ...
    @property
    def load_latency(self) -> int: ...
    @property
    def math_latency(self) -> int: ...
    @property
    def math_per_load(self) -> int: ...
    @property
    def loads_per_warp(self) -> int: ...
    @property
    def loop_instructions(self) -> int: ...
    @property
    def policy(self) -> str: ...
    @property
    def divergence(self) -> bool: ...
    @property
    def cycles(self) -> int: ...
    @property
    def bytes_per_load(self) -> int: ...
    @property
    def bandwidth_per_sm(self) -> float | None: ...

LANES = 32
TIMELINE_CYCLES = 2000  # cycles of the issue timeline included in the printed result
# instruction kinds in the issue record
IDLE, LOAD, MATH, LOOP = 0, 1, 2, 3
# warp states in the state matrix
READY, ISSUED, WAIT_MEMORY, WAIT_MATH = 0, 1, 2, 3


SCHEDULERS_PER_SM = 4


@dataclass(frozen=True)
class MemoryLevel:
    latency: int  # cycles from issuing a warp's load to issuing the math that uses it
    bandwidth_per_sm: float  # bytes per SM cycle the level delivers with every SM loading
    pointer_chase: float  # one thread's dependent 8-byte loads, for comparison
    queueing: float = 0.0  # q of the loaded latency L0·(1 + q·ρ/(1 − ρ)), see loaded_latency


#: The H200's memory levels as the scheduler probe measured them (gpuviz/kernels/scheduler.py,
#: resources/measurements/h200-scheduler.json, 2026-12-01): the latency is the probe loop's
#: period at one warp per scheduler less its math (A = 4 cycles a dependent FFMA) and its 8 loop
#: instructions; it includes the dependent address arithmetic a pointer chase does not have.
#: Bandwidth: a streaming read of 2 GiB (DRAM), a 16 MiB buffer read 64 times (L2), each
#: block re-reading 16 KiB (L1), over 132 SMs at the measured 1,976 MHz. Queueing q: fitted to
#: the latency the latency-bound points of that file's C = 4 loop saw against the level's load
#: (``kernels.scheduler.fit_queueing``; tests/kernels/test_measurements.py refits it).
MEMORY: dict[str, MemoryLevel] = {
    "l1": MemoryLevel(49, 120.1, 32.0, 0.211),
    "l2": MemoryLevel(304, 29.7, 280.1, 0.046),
    "dram": MemoryLevel(693, 16.9, 661.0, 0.062),
}

#: The load ρ at which the queueing term stops growing: from there on the level's bandwidth
#: ceiling (the service queue of :func:`simulate`) is what delays the loads.
MAX_LOAD = 0.9


def latency(params: SimulatedParams) -> int:
    """The unloaded load latency L0 in use: the memory level's, or ``load_latency`` for custom."""
    return params.load_latency if params.memory == "custom" else MEMORY[params.memory].latency


def level_load(params: SimulatedParams, n: int) -> float:
    """ρ: the share of the memory level's bandwidth that the SM's loads use when each of its
    active schedulers holds ``n`` warps, each warp looping at the rate Little's law gives at the
    latency that load causes (one loop per ``P`` cycles, at most one per ``I`` issue cycles of
    its scheduler), ``k`` loads of ``bytes_per_load`` a loop: the fixed point of ρ = bytes a
    cycle ÷ bandwidth and L = L0·(1 + q·ρ/(1 − ρ)), at most :data:`MAX_LOAD` (with q = 0 the
    load L0 gives, uncapped); 0 without a bandwidth."""
    bw = bandwidth(params)
    if not bw:
        return 0.0
    p0, i0 = unloaded_loop(params)
    big_l = latency(params)
    q = 0.0 if params.memory == "custom" else MEMORY[params.memory].queueing
    schedulers = len(scheduler_warps(params)) if params.warps_per_sm else SCHEDULERS_PER_SM
    per_loop = schedulers * params.loads_per_warp * params.bytes_per_load / bw

    def used(rho: float) -> float:  # the load that the latency under load rho gives
        period = p0 + big_l * q * rho / (1 - rho)
        return per_loop * min(n / period, 1.0 / i0)

    if not q:  # the latency does not move: the load is what L0 gives
        return used(0.0)
    if used(MAX_LOAD) >= MAX_LOAD:
        return MAX_LOAD
    lo, hi = 0.0, MAX_LOAD  # used() falls as rho rises: one crossing
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if used(mid) > mid else (lo, mid)
    return (lo + hi) / 2


def loaded_latency(params: SimulatedParams, n: int) -> int:
    """The load latency under load, ``L0·(1 + q·ρ/(1 − ρ))`` with ρ = :func:`level_load`: the
    waiting time of a queue in front of the memory level grows as ρ/(1 − ρ) (Kleinrock,
    *Queueing Systems* vol. 1, 1975, the M/M/1 queue), ρ the bytes the loads move a cycle
    (Little's law: the bytes in flight over the latency) over the level's bandwidth. Custom
    latency and q = 0 keep L0, cycle for cycle."""
    big_l = latency(params)
    if params.memory == "custom" or not MEMORY[params.memory].queueing:
        return big_l
    rho = min(level_load(params, n), MAX_LOAD)
    return round(big_l * (1 + MEMORY[params.memory].queueing * rho / (1 - rho)))


def unloaded_loop(params: SimulatedParams) -> tuple[int, int]:
    """(P0, I): one uncontended loop's cycles at the unloaded latency, and its instructions."""
    passes = 2 if params.divergence else 1
    k, c = params.loads_per_warp, params.math_per_load * passes
    x = params.loop_instructions
    big_l = latency(params)
    if c == 0:
        return big_l + k - 1 + x, k + x
    return max(big_l, k) + params.math_latency * k * c + x, k * (1 + c) + x


def bandwidth(params: SimulatedParams) -> float | None:
    """Bytes per SM cycle the loads' memory level delivers; None: no ceiling."""
    if params.bandwidth_per_sm is not None:
        return params.bandwidth_per_sm
    return None if params.memory == "custom" else MEMORY[params.memory].bandwidth_per_sm


def scheduler_warps(params: SimulatedParams) -> tuple[int, ...]:
    """Warps assigned to each scheduler: the SM's four share ``warps_per_sm`` (warp w on
    scheduler w mod 4, idle schedulers left out); without it, the one scheduler's ``warps``."""
    w = params.warps_per_sm
    if w is None:
        return (params.warps,)
    q, extra = divmod(w, SCHEDULERS_PER_SM)
    return tuple(q + (s < extra) for s in range(SCHEDULERS_PER_SM) if q + (s < extra))


def service_cycles(params: SimulatedParams) -> float:
    """Cycles between two loads' data for one scheduler at the bandwidth ceiling (0: none)."""
    bw = bandwidth(params)
    if bw is None:
        return 0.0
    schedulers = len(scheduler_warps(params)) if params.warps_per_sm else SCHEDULERS_PER_SM
    return params.bytes_per_load * schedulers / bw


def simulate(params: SimulatedParams, n: int, cycles: int | None = None):
    """The cycle loop. Ready warps are bits of one integer, so picking a warp is a couple of
    integer operations; wake-ups wait as bit masks keyed by their cycle (at most one pending
    wake-up per warp, so the state is bounded by the warps, never by latency or the bandwidth
    ceiling's queue)."""
    cycles = params.cycles if cycles is None else cycles
    big_l, a = loaded_latency(params, n), params.math_latency
    k = params.loads_per_warp
    passes = 2 if params.divergence else 1
    c = params.math_per_load
    x = params.loop_instructions
    math_count = k * c * passes
    length = k + math_count + x
    half = LANES // 2 if params.divergence else LANES
    kinds = [LOAD] * k + [MATH] * math_count + [LOOP] * x
    lanes = [LANES] * k + [half] * math_count + [LANES] * x
    group = [0] * k + [(j % (k * c)) // c if c else 0 for j in range(math_count)] + [0] * x
    # per instruction j: the next instruction, and how it waits on j
    #   0: ready the next cycle (an independent load, a loop instruction after another),
    #   1: a new loop's first load, 2: math, waiting on the previous instruction and on its
    #   own load, 3: the first loop instruction, waiting on the last math
    nxt_of = [(j + 1) % length for j in range(length)]
    how = []
    for j, nx in enumerate(nxt_of):
        if kinds[nx] == LOAD:
            how.append(1 if nx == 0 else 0)
        elif kinds[nx] == MATH:
            how.append(2)
        else:
            how.append(3 if kinds[j] != LOOP else 0)  # after the math, or the last load
    prev_delay = []
    for j in range(length):
        if how[j] == 1:  # a new loop: after the last math (A), loop instruction (1) or load (L)
            prev_delay.append(a if kinds[j] == MATH else (1 if kinds[j] == LOOP else big_l))
        elif how[j] == 3:  # the loop after the last math, or with no math the last load's data
            prev_delay.append(a if kinds[j] == MATH else (big_l if kinds[j] == LOAD else 1))
        elif how[j] == 2:  # math: after the instruction before; its load is waited on below
            prev_delay.append(a if kinds[j] == MATH else 1)
        else:
            prev_delay.append(1)
    load_group = [group[nx] for nx in nxt_of]
    service = service_cycles(params)
    served = -math.inf  # when the memory level last returned a load's data to this scheduler

    issued_warp = [-1] * cycles
    issued_kind = bytearray(cycles)
    issued_lanes = bytearray(cycles)
    waits: list[tuple[int, int, int, bool]] = []

    wake: dict[int, int] = {}  # cycle → the warps ready from it
    ready = (1 << n) - 1
    pc = [0] * n
    load_time = [[0] * k for _ in range(n)]
    gto = params.policy == "gto"
    last = -1
    loops = 0
    for t in range(cycles):
        if wake:
            woken = wake.pop(t, 0)
            ready |= woken
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
            if service:  # the level returns one load's data every `service` cycles at most
                served = max(t + big_l, served + service)
                load_time[w][j] = math.ceil(served) - big_l
            else:
                load_time[w][j] = t
        nxt = nxt_of[j]
        pc[w] = nxt
        mode = how[j]
        if mode == 0:
            wake[t + 1] = wake.get(t + 1, 0) | bit
            continue
        at = t + prev_delay[j]
        memory = kinds[j] == LOAD and mode in (1, 3)
        if memory and service:  # waits on this load's data, which the queue may delay
            at = max(at, load_time[w][j] + big_l)
        if mode == 1:
            loops += 1
        elif mode == 3:
            pass
        else:
            after_load = load_time[w][load_group[j]] + big_l
            if after_load > at:
                at, memory = after_load, True
        if at > t + 1:
            waits.append((w, t + 1, at if at < cycles else cycles, memory))
        if at < cycles:
            wake[at] = wake.get(at, 0) | bit
    wait_array = np.asarray(waits, dtype=np.int64).reshape(-1, 4)
    return (np.asarray(issued_warp, dtype=np.int16), np.frombuffer(issued_kind, dtype=np.uint8),
            np.frombuffer(issued_lanes, dtype=np.uint8), wait_array, loops)


def state_matrix(n: int, cycles: int, issued_warp: np.ndarray, waits: np.ndarray) -> np.ndarray:
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
