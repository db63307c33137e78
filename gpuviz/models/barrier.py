"""The two block barriers of a tiled kernel, replayed under one explicit interleaving.

The rule (source text "GPU Architecture and CUDA Programming", section "A barrier protects a
producer–consumer boundary"): "The first barrier protects consumers from incomplete loads. The
second protects prior readers from an early overwrite by threads loading the next tile." And:
"out-of-range threads can write zeros into their assigned shared slots and still participate.
Returning early from those threads can break the block's cooperation contract."

The kernel, per thread ``t`` of a block of ``threads``, for each tile ``k``::

    tile[t] = t < valid_threads ? input[k * threads + t] : 0   // write
    barrier 1                                                  // optional
    out[k][t] = tile[(t + neighbour_offset) % threads]         // read a neighbour's value
    barrier 2                                                  // optional

With ``early_return`` the out-of-range threads leave before the loop instead of writing zeros.

The interleaving is a list of thread picks: each pick runs that thread's next operation. A pick of
a thread that waits at a barrier or has finished does nothing (it is counted). After the list is
used up, the remaining operations run in thread order (lowest runnable thread first, until it
blocks). A barrier releases once every thread still running has arrived; threads that returned
early are not waited for, which is exactly how the contract breaks silently.

A hazard is found when a read sees a value other than the one its tile's writer stores: an older
value means the read ran before the write (``read_before_write``); a newer tile's value means the
slot was overwritten before this read (``write_before_read``); no value ever written for that tile
means the owner returned early (``uninitialised_read``).
"""

from dataclasses import dataclass

from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param

SCHEDULES = ("round_robin", "thread_order", "reverse_order", "explicit")


@dataclass(frozen=True)
class BarrierParams:
    threads: int = param(4, doc="Threads in the block; the shared tile has one slot per thread.",
                         minimum=2, maximum=16)
    valid_threads: int = param(
        4, doc="Threads whose element is in range; the others store a neutral zero.",
        minimum=0, maximum=16)
    tiles: int = param(2, doc="Tiles the loop loads one after another into the same storage.",
                       minimum=1, maximum=4)
    neighbour_offset: int = param(
        1, doc="Each thread reads the slot of thread (t + offset) mod threads.",
        minimum=1, maximum=15)
    first_barrier: bool = param(True, doc="Barrier between the writes and the neighbour reads.")
    second_barrier: bool = param(
        True, doc="Barrier between the neighbour reads and the next tile's writes.")
    early_return: bool = param(
        False, doc="Out-of-range threads return before the loop instead of writing zeros.")
    schedule: str = param(
        "thread_order",
        doc="Interleaving: round_robin (one operation per thread in turn), thread_order (each "
            "thread runs until it blocks), reverse_order (same, highest thread first), or "
            "explicit (the picks listed in picks, then thread order).",
        choices=SCHEDULES)
    picks: tuple[int, ...] = param(
        (), doc="With schedule explicit: the thread that runs its next operation at each step.",
        minimum=0, maximum=15, length=(0, 256))


PARAMS = BarrierParams


@dataclass(frozen=True)
class Event:
    index: int
    thread: int
    op: str  # "write", "read", "arrive", "release", "return", "finish"
    tile: int
    address: int  # the shared slot; -1 for barrier and control events
    value: float  # the value written or read; 0 for control events
    barrier: int  # 1 or 2 for "arrive"/"release", else 0
    text: str


@dataclass(frozen=True)
class Hazard:
    kind: str
    threads: tuple[int, ...]  # (reader, writer); the writer is absent for an uninitialised read
    address: int
    tile: int
    event: int  # index of the read that exposed it
    expected: float | None
    seen: float | None
    text: str


@dataclass(frozen=True)
class BarrierResult:
    events: tuple[Event, ...]
    hazards: tuple[Hazard, ...]
    safe: bool
    contract_broken: bool
    contract_text: str
    outputs: tuple[tuple[float | None, ...], ...]  # [tile][thread]; None if never read
    expected_outputs: tuple[tuple[float | None, ...], ...]
    idle_picks: int
    threads: int
    tiles: int
    returned_threads: tuple[int, ...]
    # Per event: the shared slots' contents after it, as (tile that wrote it or -1, value).
    memory: tuple[tuple[tuple[int, float], ...], ...] = not_in_json()
    # Per event: each thread's state after it ("run", "wait1", "wait2", "done", "returned").
    states: tuple[tuple[str, ...], ...] = not_in_json()


def problems(params: BarrierParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if params.valid_threads > params.threads:
        out.append(("valid_threads", f"valid_threads ({params.valid_threads}) cannot exceed the "
                                     f"block's {params.threads} threads."))
    if params.neighbour_offset >= params.threads:
        out.append(("neighbour_offset", f"neighbour_offset must be smaller than the block's "
                                        f"{params.threads} threads."))
    bad = [p for p in params.picks if p >= params.threads]
    if bad:
        out.append(("picks", f"picks names thread {bad[0]}, but the block has threads 0 to "
                             f"{params.threads - 1}."))
    return out


def _program(params: BarrierParams, t: int) -> list[tuple[str, int]]:
    """Thread t's operations as (op, tile)."""
    if params.early_return and t >= params.valid_threads:
        return [("return", 0)]
    ops: list[tuple[str, int]] = []
    for k in range(params.tiles):
        ops.append(("write", k))
        if params.first_barrier:
            ops.append(("arrive1", k))
        ops.append(("read", k))
        if params.second_barrier:
            ops.append(("arrive2", k))
    ops.append(("finish", params.tiles - 1))
    return ops


def input_value(params: BarrierParams, tile: int, t: int) -> float:
    """The value thread t stores for a tile: its element (numbered from 1), or a neutral zero."""
    return float(tile * params.threads + t + 1) if t < params.valid_threads else 0.0


def compute(params: BarrierParams) -> BarrierResult:
    n = params.threads
    programs = [_program(params, t) for t in range(n)]
    pc = [0] * n
    state = ["run"] * n
    memory: list[tuple[int, float]] = [(-1, 0.0)] * n
    events: list[Event] = []
    hazards: list[Hazard] = []
    mem_trace: list[tuple[tuple[int, float], ...]] = []
    state_trace: list[tuple[str, ...]] = []
    outputs: list[list[float | None]] = [[None] * n for _ in range(params.tiles)]
    idle = 0

    def record(thread: int, op: str, tile: int, address: int = -1, value: float = 0.0,
               barrier: int = 0, text: str = "") -> None:
        events.append(Event(len(events), thread, op, tile, address, value, barrier, text))
        mem_trace.append(tuple(memory))
        state_trace.append(tuple(state))

    def runnable(t: int) -> bool:
        return state[t] == "run"

    def step(t: int) -> None:
        op, k = programs[t][pc[t]]
        pc[t] += 1
        if op == "return":
            state[t] = "returned"
            record(t, "return", k, text=f"thread {t} is out of range and returns early")
            _try_release()
            return
        if op == "finish":
            state[t] = "done"
            record(t, "finish", k, text=f"thread {t} finishes")
            _try_release()
            return
        if op == "write":
            v = input_value(params, k, t)
            memory[t] = (k, v)
            what = "a neutral zero" if t >= params.valid_threads else f"{v:g}"
            record(t, "write", k, t, v, text=f"thread {t} writes {what} to slot {t} (tile {k})")
            return
        if op == "read":
            a = (t + params.neighbour_offset) % n
            wrote_tile, v = memory[a]
            outputs[k][t] = v
            record(t, "read", k, a, v, text=f"thread {t} reads slot {a} = {v:g} (tile {k})")
            _check_read(t, k, a, wrote_tile, v)
            return
        b = 1 if op == "arrive1" else 2
        state[t] = f"wait{b}"
        record(t, "arrive", k, barrier=b, text=f"thread {t} arrives at barrier {b} (tile {k})")
        _try_release()

    def _try_release() -> None:
        waiting = [t for t in range(n) if state[t].startswith("wait")]
        if not waiting:
            return
        live = [t for t in range(n) if state[t] not in ("returned",)]
        if all(state[t].startswith("wait") for t in live):
            b = int(state[waiting[0]][-1])
            k = programs[waiting[0]][pc[waiting[0]] - 1][1]
            for t in waiting:
                state[t] = "run"
            record(-1, "release", k, barrier=b,
                   text=f"barrier {b} releases threads {_span(waiting)} (tile {k})")

    def _check_read(t: int, k: int, a: int, wrote_tile: int, v: float) -> None:
        writer = a
        expected = input_value(params, k, writer)
        if wrote_tile == k:
            return
        index = len(events) - 1
        if params.early_return and writer >= params.valid_threads:
            hazards.append(Hazard(
                "uninitialised_read", (t,), a, k, index, None, None,
                f"thread {t} reads slot {a}, which thread {writer} never wrote: it returned "
                f"early"))
        elif wrote_tile < k:
            seen = v if wrote_tile >= 0 else None
            was = "never written" if wrote_tile < 0 else f"still tile {wrote_tile}'s {v:g}"
            hazards.append(Hazard(
                "read_before_write", (t, writer), a, k, index, expected, seen,
                f"thread {t} reads slot {a} before thread {writer} writes it: {was}, "
                f"not {expected:g}"))
        else:
            hazards.append(Hazard(
                "write_before_read", (t, writer), a, k, index, expected, v,
                f"thread {writer} overwrote slot {a} with tile {wrote_tile}'s {v:g} before "
                f"thread {t} read tile {k}'s {expected:g}"))

    def run_in_order(order: list[int]) -> None:
        while True:
            ready = [t for t in order if runnable(t) and pc[t] < len(programs[t])]
            if not ready:
                return
            t = ready[0]
            while runnable(t) and pc[t] < len(programs[t]):
                step(t)

    if params.schedule == "round_robin":
        while any(runnable(t) and pc[t] < len(programs[t]) for t in range(n)):
            for t in range(n):
                if runnable(t) and pc[t] < len(programs[t]):
                    step(t)
    elif params.schedule == "reverse_order":
        run_in_order(list(range(n - 1, -1, -1)))
    else:
        if params.schedule == "explicit":
            for t in params.picks:
                if runnable(t) and pc[t] < len(programs[t]):
                    step(t)
                else:
                    idle += 1
        run_in_order(list(range(n)))

    returned = tuple(t for t in range(n) if state[t] == "returned")
    broken = bool(returned) and (params.first_barrier or params.second_barrier)
    if broken:
        contract = (f"{_threads(returned)} returned before the block's barriers; the "
                    f"barriers are no longer reached by the whole block, which breaks its "
                    f"cooperation contract")
    elif returned:
        contract = f"{_threads(returned)} returned early; no barrier is used"
    else:
        contract = "every thread reaches every barrier"
    expected = tuple(
        tuple(input_value(params, k, (t + params.neighbour_offset) % n) if t not in returned
              else None for t in range(n))
        for k in range(params.tiles))
    return BarrierResult(
        events=tuple(events),
        hazards=tuple(hazards),
        safe=not hazards and not broken,
        contract_broken=broken,
        contract_text=contract,
        outputs=tuple(tuple(row) for row in outputs),
        expected_outputs=expected,
        idle_picks=idle,
        threads=n,
        tiles=params.tiles,
        returned_threads=returned,
        memory=tuple(mem_trace),
        states=tuple(state_trace),
    )


def _span(threads: list[int]) -> str:
    threads = sorted(threads)
    if len(threads) > 2 and threads == list(range(threads[0], threads[-1] + 1)):
        return f"{threads[0]}–{threads[-1]}"
    return ", ".join(str(t) for t in threads)


def _threads(threads: tuple[int, ...]) -> str:
    return f"thread{'s' * (len(threads) != 1)} {_span(list(threads))}"


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("16 threads, 4 tiles, 256 picks", {"threads": 16, "valid_threads": 9, "tiles": 4,
                                            "neighbour_offset": 15, "early_return": True,
                                            "first_barrier": False, "schedule": "explicit",
                                            "picks": [(i * 7) % 16 for i in range(256)]}),
        ("16 threads, round robin", {"threads": 16, "valid_threads": 16, "tiles": 4,
                                     "schedule": "round_robin"}),
    ]
