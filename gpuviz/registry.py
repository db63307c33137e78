"""The one panel registry: every panel id and what the panel has, declared once.

Adding a panel = one ``Panel(...)`` entry here plus the modules it names (DESIGN.md, "One panel,
end to end"). The entry says what the panel has beside its model and figure: the topic the
gallery and Help group it under, a kernel export (``gpuviz.kernels.<id>``), the quantity a real
GPU measures for it, and the class that adds to its dock (``gpuviz.ui.panels.<id>``, a
``PanelExtras``). Every list of such panels elsewhere (kernel export, measurements, help topics)
is derived from these entries. Modules are named by dotted path and imported on first use, so
that reading the registry costs nothing and the command line never imports Qt.

What those modules offer is written down once, as the protocols below; the optional parts
(a model's ``DEPENDS_ON``/``link``, ``problems``, ``warnings`` and ``SLOW``, a figure's ``frame_count``) are
read through ``Panel``, so that no caller probes a module by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, Protocol, cast


class ModelModule(Protocol):
    """``gpuviz.models.<id>``: the panel's exact, Qt-free model.

    Optional, read through ``Panel``: ``DEPENDS_ON: tuple[str, ...]`` with
    ``link(params, upstream: dict[str, result]) -> params``; ``problems(params)`` returning
    ``(field path, message)`` pairs for values the model cannot use; ``warnings(params)``, the
    same pairs for values it computes but that are likely a mistake; ``SLOW = True`` for a model
    the UI computes off the UI thread; ``canonical(params) -> params``: the parameters with the
    fields a measurement does not depend on reset (how shipped measurements are matched)."""

    PARAMS: type  # the frozen dataclass that is the panel's scenario section

    def compute(self, params: Any, /) -> Any: ...


class FigureModule(Protocol):
    """``gpuviz.figures.<id>``: the panel's figure, ``build(result, selection, theme, target)``,
    laid out for the target (``gpuviz.figures.targets.Target``: a column, a slide, a view), never
    scaled into it.

    Optional, read through ``Panel``: ``frame_count(result) -> int`` for an animated figure."""

    def build(self, result: Any, selection: frozenset[str], theme: Any, target: Any, /) -> Any: ...


class MeasuredQuantity(NamedTuple):
    """What a real GPU's counters are compared with: a result field of the panel's model. How
    a profile is read and what the model says for a case are the panel's kernel module's
    :class:`Measure` (``gpuviz.kernels.<id>.MEASURE``)."""

    quantity: str  # the result field, e.g. "rounds"
    unit: str  # in words, e.g. "shared-memory wavefronts"
    # whether a section is looked up in the shipped measurements by its parameters (the dock's
    # "H200 measured" line); traversal's cases need the kernel's tile and operand sizes as well
    by_section: bool = True
    # a fraction of 1 (the scheduler's issue utilisation), shown in percent
    fraction: bool = False

    def of(self, result: Any) -> float:
        """The quantity in a result of the panel's model."""
        return float(getattr(result, self.quantity))


class Reading(NamedTuple):
    """One case's number read from one profiled launch."""

    metric: str  # what was read, as the measurement file records it
    measured: float
    raw: dict[str, float]  # the profiler values kept beside it


@dataclass(frozen=True)
class Measure:
    """How a measured panel's cases meet the profiler: ``MEASURE`` in ``gpuviz.kernels.<id>``
    (:mod:`gpuviz.kernels.measure` dispatches on it, by panel, without naming one)."""

    # the profiler metric that counts the model's quantity for one instruction (a case's
    # ``op``: "lds", "stg", "stsm" …)
    metric: Callable[[str], str]
    # ``(case, row, metric)``: the case's number from its launch's row; None reads the metric's
    # value as it is (``gpuviz.kernels.measure.counter``)
    read: Callable[[Mapping[str, Any], Mapping[str, str], str], Reading] | None = None
    # ``(params, case)``: the model's number for a case; None reads the registry's quantity
    # field of the model's result
    value: Callable[[Any, Mapping[str, Any]], float] | None = None
    # positive numbers a case gives beside its section, which ``read`` or ``value`` use
    # (traversal: the kernel's tile and operand bytes)
    case_numbers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Panel:
    id: str
    title: str
    summary: str
    # the named parts of its figure, in the figure's order: each one a complete small figure an
    # export can show alone (``Target.parts``, ``gpuviz export --part``, a step's ``parts``)
    parts: tuple[str, ...] = field(default=(), kw_only=True)
    # the group the gallery and Help ▸ About This Panel list the panel under (its help text:
    # ``gpuviz.help.HELP[id]``)
    topic: str = field(default="", kw_only=True)
    # ``gpuviz.kernels.<id>`` writes a CUDA program performing exactly the section's access
    kernel: bool = field(default=False, kw_only=True)
    # the model's number that the shipped measurements (``resources/measurements``) compare
    measured: MeasuredQuantity | None = field(default=None, kw_only=True)
    # the ``PanelExtras`` subclass in ``gpuviz.ui.panels.<id>`` that adds to the generated dock
    # (a summary in words, widgets, what a click does); "" for the generated dock alone
    extras: str = field(default="", kw_only=True)

    @property
    def model(self) -> ModelModule:
        return cast(ModelModule, _module(f"gpuviz.models.{self.id}"))

    @property
    def figure(self) -> FigureModule:
        return cast(FigureModule, _module(f"gpuviz.figures.{self.id}"))

    @property
    def extras_path(self) -> tuple[str, str] | None:
        """(module, class) of the dock's extras, or None for the generated dock alone."""
        return (f"gpuviz.ui.panels.{self.id}", self.extras) if self.extras else None

    @property
    def kernel_module(self) -> Any:
        """``gpuviz.kernels.<id>``, for a panel with a kernel export."""
        if not self.kernel:
            raise ValueError(f"no kernel export for panel {self.id!r}")
        return _module(f"gpuviz.kernels.{self.id}")

    @property
    def measure(self) -> Measure:
        """``gpuviz.kernels.<id>.MEASURE``, for a panel with a measured quantity."""
        if self.measured is None:
            raise ValueError(f"no measured quantity for panel {self.id!r}")
        record = _module(f"gpuviz.kernels.{self.id}").MEASURE
        if not isinstance(record, Measure):
            raise TypeError(f"gpuviz.kernels.{self.id}.MEASURE is not a Measure")
        return record

    @property
    def params_type(self) -> type:
        """The frozen dataclass that is this panel's scenario section."""
        return self.model.PARAMS

    def compute(self, params: Any) -> Any:
        return self.model.compute(params)

    @property
    def depends_on(self) -> tuple[str, ...]:
        """The panels whose results this panel's parameters are linked to."""
        return tuple(getattr(self.model, "DEPENDS_ON", ()))

    def link(self, params: Any, upstream: Mapping[str, Any]) -> Any:
        """The parameters with what they follow from ``upstream`` folded in."""
        return getattr(self.model, "link")(params, upstream)  # noqa: B009 (optional hook)

    def problems(self, params: Any) -> Sequence[tuple[str, str]]:
        """``(field path, message)`` for every value of ``params`` the model cannot use."""
        check = getattr(self.model, "problems", None)
        return check(params) if check is not None else ()

    def warnings(self, params: Any) -> Sequence[tuple[str, str]]:
        """``(field path, message)`` for values the model computes exactly but that are likely
        not what was meant (a grid that leaves elements unprocessed): reported, never refused."""
        check = getattr(self.model, "warnings", None)
        return check(params) if check is not None else ()

    def canonical(self, params: Any) -> Any:
        """``params`` with the fields its measured quantity does not depend on reset to their
        defaults (the model's ``canonical``), or unchanged."""
        reset = getattr(self.model, "canonical", None)
        return reset(params) if reset is not None else params

    @property
    def slow(self) -> bool:
        """Whether the UI computes this panel off its thread."""
        return bool(getattr(self.model, "SLOW", False))

    @property
    def animated(self) -> bool:
        """Whether the figure can have more than one playback frame."""
        return getattr(self.figure, "frame_count", None) is not None

    def frame_count(self, result: Any) -> int:
        """Playback frames of the figure for ``result`` (1 for a still figure)."""
        counter = getattr(self.figure, "frame_count", None)
        return max(1, int(counter(result))) if counter is not None else 1


@cache
def _module(name: str) -> Any:
    return importlib.import_module(name)


LAUNCH, MEMORY, REUSE, TIME, SIMT, TENSOR = ("Launch", "Memory access", "Reuse",
                                            "Time and synchronization", "SIMT execution",
                                            "Tensor cores")

PANELS: tuple[Panel, ...] = (
    Panel("launch", "Launch: grid, blocks, warps",
          "Grid / block / warp explorer with tile and wave quantization",
          parts=("grid", "warps", "lanes", "quantization"),
          topic=LAUNCH, extras="LaunchExtras"),
    Panel("sectors", "Sectors: one warp's global load",
          "Lanes to the 32-byte sectors and 128-byte lines their addresses touch",
          parts=("map", "receipt", "sweep"),
          topic=MEMORY, kernel=True, measured=MeasuredQuantity("sector_count", "32-byte sectors"),
          extras="SectorsExtras"),
    Panel("banks", "Banks: shared-memory bank queues",
          "Which bank serves each lane's word, broadcasts, and the service rounds",
          parts=("lanes", "rack", "receipt"),
          topic=MEMORY, kernel=True, measured=MeasuredQuantity("rounds", "shared-memory wavefronts"),
          extras="BanksExtras"),
    Panel("swizzle", "Swizzle: XOR layout of a 1024-byte region",
          "Logical and physical 16-byte chunks and the banks one reader per row hits",
          parts=("logical", "physical", "banks", "readers"),
          topic=MEMORY, extras="SwizzleExtras"),
    Panel("tma", "TMA: asynchronous copies",
          "Tensor maps, where a box lands under the swizzle, mbarrier phases, the stage ring "
          "and cluster multicast",
          parts=("tensor-map", "box", "placement", "barrier", "ring", "cluster"),
          topic=MEMORY, kernel=True, extras="TmaExtras"),
    Panel("gemm", "GEMM: matrix multiplication as reuse",
          "Who owns which output, and what each owner loads, reads and reuses",
          parts=("walkthrough", "owners", "counts", "intensity"),
          topic=REUSE, extras="GemmExtras"),
    Panel("traversal", "Traversal: output-tile order and cache reuse",
          "Tile orders through an LRU cache: hits, loads and misses against capacity",
          parts=("path", "resident", "loads", "sweep"),
          topic=REUSE, kernel=True,
          measured=MeasuredQuantity("operand_traffic", "DRAM bytes read ÷ bytes of A and B"),
          extras="TraversalExtras"),
    Panel("pipeline", "Pipeline: buffer ownership over time",
          "Load and compute lanes, slot ownership bands and named waits",
          parts=("timeline", "receipt"),
          topic=TIME, extras="PipelineExtras"),
    Panel("barrier", "Barriers: producer and consumer",
          "The two barriers of a tiled kernel under an explicit interleaving",
          parts=("interleaving", "slots", "hazards"),
          topic=TIME, extras="BarrierExtras"),
    Panel("reduction", "Reduction: warp shuffle tree",
          "Partial-sum ownership and contributor sets of a shuffle reduction",
          parts=("tree", "block", "receipt"),
          topic=TIME, extras="ReductionExtras"),
    Panel("occupancy", "Occupancy: resident warps per SM",
          "Blocks per SM limited by warp slots, registers, shared memory and the block limit",
          parts=("limits", "slots", "cliffs"),
          topic=SIMT, kernel=True,
          measured=MeasuredQuantity("active_blocks_per_sm", "resident blocks per SM"),
          extras="OccupancyExtras"),
    Panel("scheduler", "Scheduler: latency hiding, cycle by cycle",
          "One warp scheduler issuing from ready warps under GTO or loose round-robin",
          parts=("timeline", "utilisation", "warps"),
          topic=SIMT,
          measured=MeasuredQuantity("sm_issue_utilization", "of the SM's issue slots used",
                                    fraction=True),
          extras="SchedulerExtras"),
    Panel("divergence", "Divergence: reconvergence stack",
          "Immediate post-dominators, the pre-Volta SIMT stack and lane efficiency",
          parts=("graph", "stack", "issue", "efficiency"),
          topic=SIMT, extras="DivergenceExtras"),
    Panel("mma", "MMA: tensor-core fragments",
          "Who holds each element of mma.sync and wgmma operands, and how ldmatrix feeds them",
          parts=("fragment-a", "fragment-b", "fragment-c", "feed", "warpgroup", "descriptor",
                 "completion", "hierarchy"),
          topic=TENSOR, kernel=True,
          measured=MeasuredQuantity("ldmatrix_wavefronts",
                                    "shared-memory wavefronts of the fragment load or store"),
          extras="MmaExtras"),
)

PANEL_IDS: tuple[str, ...] = tuple(p.id for p in PANELS)
KERNEL_PANELS: tuple[str, ...] = tuple(p.id for p in PANELS if p.kernel)
MEASURED_PANELS: tuple[str, ...] = tuple(p.id for p in PANELS if p.measured is not None)
# the topics in registry order, each with its panels: the gallery and the help group by them
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (name, tuple(p.id for p in PANELS if p.topic == name))
    for name in dict.fromkeys(p.topic for p in PANELS))


def panel(panel_id: str) -> Panel:
    for p in PANELS:
        if p.id == panel_id:
            return p
    raise KeyError(panel_id)
