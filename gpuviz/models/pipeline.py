"""Buffer ownership over time: the exact schedule of a tiled load/compute pipeline.

The rule (source text "GPU Architecture and CUDA Programming", section "Overlap only work with
independent storage"): a pipeline can load the next tile while computing the current one, but
"the next load needs storage that no current consumer still owns". Each buffer-ownership band
"extends from the load's start to the end of the corresponding compute read". This model computes
that schedule exactly, one load engine and one compute engine, tiles in order:

- tile ``i`` lives in buffer slot ``i mod buffers``;
- the load of tile ``i`` starts at the latest of: the previous load's end (one load engine), the
  start of the compute of tile ``i - prefetch_distance`` (loads run at most that many tiles ahead
  of the running compute), and the end of the compute of tile ``i - buffers`` (the slot's previous
  consumer must have finished reading it);
- the compute of tile ``i`` starts at the later of its tile's load end and the previous compute's
  end.

Named waits, each an interval of idle time with the constraint that caused it:

- ``compute_waits_for_data`` — the compute engine is free but its tile's load has not finished;
- ``tile_waits_for_compute`` — a loaded tile sits in its slot while the previous compute runs;
- ``load_waits_for_slot`` — the load engine is free but the slot is still owned by its previous
  consumer;
- ``load_waits_for_prefetch`` — the load engine is free but the load would run further ahead of
  the compute than the prefetch distance allows.

With uniform durations and at least two buffers, the total is exactly
``min(load, compute) + tiles * max(load, compute)``: the closed form ``load + n * max(load,
compute)`` whenever compute is the slower engine. Times are in abstract units; the playback speed
is not GPU execution time.
"""

from dataclasses import dataclass

from gpuviz.models.params import param

WAIT_KINDS = (
    "compute_waits_for_data",
    "tile_waits_for_compute",
    "load_waits_for_slot",
    "load_waits_for_prefetch",
)

WAIT_SENTENCES = {
    "compute_waits_for_data": "compute waits for tile {tile}'s data",
    "tile_waits_for_compute": "loaded tile {tile} waits for the compute",
    "load_waits_for_slot": "load of tile {tile} waits for slot {slot}'s previous consumer",
    "load_waits_for_prefetch": "load of tile {tile} waits: prefetch distance reached",
}


@dataclass(frozen=True)
class PipelineParams:
    tiles: int = param(6, doc="Number of tiles the loop processes, in order.",
                       minimum=1, maximum=64)
    buffers: int = param(2, doc="Buffer slots in shared memory; tile i uses slot i mod buffers.",
                         minimum=1, maximum=8)
    load_time: float = param(2.0, doc="Duration of one tile's load (abstract time units).",
                             minimum=0.0, maximum=1000.0)
    compute_time: float = param(3.0, doc="Duration of one tile's compute (abstract time units).",
                                minimum=0.0, maximum=1000.0)
    load_times: tuple[float, ...] = param(
        (), doc="Per-tile load durations; empty means every tile takes load_time.",
        minimum=0.0, maximum=1000.0, length=(0, 64))
    compute_times: tuple[float, ...] = param(
        (), doc="Per-tile compute durations; empty means every tile takes compute_time.",
        minimum=0.0, maximum=1000.0, length=(0, 64))
    prefetch_distance: int = param(
        1, doc="How many tiles ahead of the running compute a load may start: the load of tile i "
               "may start once the compute of tile i - distance has started.",
        minimum=1, maximum=64)


PARAMS = PipelineParams


@dataclass(frozen=True)
class TileRecord:
    tile: int
    slot: int
    load_start: float
    load_end: float
    compute_start: float
    compute_end: float
    # the earliest time the prefetch distance lets this tile's load be issued (the compute
    # start of tile i - distance; 0 for the first tiles): a load starting later waits for its
    # slot or the load engine, not for the policy
    prefetch_allows: float = 0.0


@dataclass(frozen=True)
class Wait:
    kind: str
    tile: int
    slot: int
    start: float
    end: float
    text: str


@dataclass(frozen=True)
class PipelineResult:
    total_time: float
    tiles: tuple[TileRecord, ...]
    waits: tuple[Wait, ...]
    load_busy: float
    compute_busy: float
    load_utilization: float
    compute_utilization: float
    buffers: int
    lower_bound_time: float
    # Every instant at which something starts or ends, sorted: the playback frames.
    event_times: tuple[float, ...]


def problems(params: PipelineParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name in ("load_times", "compute_times"):
        given = getattr(params, name)
        if given and len(given) != params.tiles:
            out.append((name, f"{name} lists {len(given)} durations but there are "
                              f"{params.tiles} tiles; give one per tile or leave it empty."))
    return out


def durations(params: PipelineParams) -> tuple[tuple[float, ...], tuple[float, ...]]:
    n = params.tiles
    loads = tuple(float(t) for t in params.load_times) or (float(params.load_time),) * n
    computes = tuple(float(t) for t in params.compute_times) or (float(params.compute_time),) * n
    return loads, computes


def compute(params: PipelineParams) -> PipelineResult:
    loads, computes = durations(params)
    n, b, d = params.tiles, params.buffers, params.prefetch_distance
    load_start = [0.0] * n
    load_end = [0.0] * n
    comp_start = [0.0] * n
    comp_end = [0.0] * n
    allowed = [0.0] * n
    waits: list[Wait] = []

    def wait(kind: str, tile: int, start: float, end: float) -> None:
        if end > start:
            slot = tile % b
            waits.append(Wait(kind, tile, slot, start, end,
                              WAIT_SENTENCES[kind].format(tile=tile, slot=slot)))

    for i in range(n):
        engine_free = load_end[i - 1] if i else 0.0
        prefetch_gate = comp_start[i - d] if i >= d else 0.0
        allowed[i] = prefetch_gate
        slot_gate = comp_end[i - b] if i >= b else 0.0
        start = max(engine_free, prefetch_gate, slot_gate)
        # The whole idle stretch of the load engine is named after the binding (latest)
        # constraint; on a tie the slot is the physical reason, the prefetch distance a policy.
        kind = "load_waits_for_slot" if slot_gate >= prefetch_gate else "load_waits_for_prefetch"
        wait(kind, i, engine_free, start)
        load_start[i] = start
        load_end[i] = start + loads[i]

        previous_done = comp_end[i - 1] if i else 0.0
        wait("compute_waits_for_data", i, previous_done, load_end[i])
        wait("tile_waits_for_compute", i, load_end[i], previous_done)
        comp_start[i] = max(load_end[i], previous_done)
        comp_end[i] = comp_start[i] + computes[i]

    total = max(comp_end) if n else 0.0
    tiles = tuple(TileRecord(i, i % b, load_start[i], load_end[i], comp_start[i], comp_end[i],
                             allowed[i]) for i in range(n))
    load_busy, compute_busy = float(sum(loads)), float(sum(computes))
    lower_bound = max(load_busy + computes[-1], loads[0] + compute_busy) if n else 0.0
    times = sorted({0.0, *load_start, *load_end, *comp_start, *comp_end})
    waits.sort(key=lambda w: (w.start, w.tile, WAIT_KINDS.index(w.kind)))
    return PipelineResult(
        total_time=total,
        tiles=tiles,
        waits=tuple(waits),
        load_busy=load_busy,
        compute_busy=compute_busy,
        load_utilization=load_busy / total if total else 0.0,
        compute_utilization=compute_busy / total if total else 0.0,
        buffers=b,
        lower_bound_time=lower_bound,
        event_times=tuple(times),
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("64 tiles, 8 buffers", {"tiles": 64, "buffers": 8, "prefetch_distance": 64,
                                 "load_times": [1000.0] * 64, "compute_times": [0.001] * 64}),
    ]
