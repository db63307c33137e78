"""The one panel registry: every panel id, its title, and where its model, figure and dock live.

Adding a panel = one ``Panel(...)`` line here plus the modules it names (DESIGN.md, "One panel,
end to end"). Modules are named by dotted path and imported on first use, so that reading the
registry costs nothing and the command line never imports Qt.

What those modules offer is written down once, as the protocols below; the optional parts
(a model's ``DEPENDS_ON``/``link``, ``problems`` and ``SLOW``, a figure's ``frame_count``) are
read through ``Panel``, so that no caller probes a module by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, cast


class ModelModule(Protocol):
    """``gpuviz.models.<id>``: the panel's exact, Qt-free model.

    Optional, read through ``Panel``: ``DEPENDS_ON: tuple[str, ...]`` with
    ``link(params, upstream: dict[str, result]) -> params``; ``problems(params)`` returning
    ``(field path, message)`` pairs for values the model cannot use; ``SLOW = True`` for a model
    the UI computes off the UI thread."""

    PARAMS: type  # the frozen dataclass that is the panel's scenario section

    def compute(self, params: Any, /) -> Any: ...


class FigureModule(Protocol):
    """``gpuviz.figures.<id>``: the panel's figure, ``build(result, selection, theme[, target])``.

    Optional, read through ``Panel``: ``frame_count(result) -> int`` for an animated figure."""

    def build(self, result: Any, selection: frozenset[str], theme: Any, /,
              *target: Any) -> Any: ...


@dataclass(frozen=True)
class Panel:
    id: str
    title: str
    summary: str
    # the named parts of its figure, in the figure's order: each one a complete small figure an
    # export can show alone (``Target.parts``, ``gpuviz export --part``, a step's ``parts``)
    parts: tuple[str, ...] = field(default=(), kw_only=True)

    @property
    def model(self) -> ModelModule:
        return cast(ModelModule, _module(f"gpuviz.models.{self.id}"))

    @property
    def figure(self) -> FigureModule:
        return cast(FigureModule, _module(f"gpuviz.figures.{self.id}"))

    @property
    def dock_module(self) -> str:
        return f"gpuviz.ui.panels.{self.id}"

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


PANELS: tuple[Panel, ...] = (
    Panel("launch", "Launch: grid, blocks, warps", "Grid / block / warp explorer with tile and wave quantization",
          parts=("grid", "warps", "lanes", "quantization")),
    # memory access panels
    Panel("sectors", "Sectors: one warp's global load",
          "Lanes to the 32-byte sectors and 128-byte lines their addresses touch",
          parts=("map", "receipt", "sweep")),
    Panel("banks", "Banks: shared-memory bank queues",
          "Which bank serves each lane's word, broadcasts, and the service rounds",
          parts=("lanes", "rack", "receipt")),
    Panel("swizzle", "Swizzle: XOR layout of a 1024-byte region",
          "Logical and physical 16-byte chunks and the banks one reader per row hits",
          parts=("logical", "physical", "banks", "readers")),
    # reuse panels
    Panel("gemm", "GEMM: matrix multiplication as reuse",
          "Who owns which output, and what each owner loads, reads and reuses",
          parts=("walkthrough", "owners", "counts", "intensity")),
    Panel("traversal", "Traversal: output-tile order and cache reuse",
          "Tile orders through an LRU cache: hits, loads and misses against capacity",
          parts=("path", "resident", "loads", "sweep")),
    # time and synchronization panels
    Panel("pipeline", "Pipeline: buffer ownership over time",
          "Load and compute lanes, slot ownership bands and named waits",
          parts=("timeline", "receipt")),
    Panel("barrier", "Barriers: producer and consumer",
          "The two barriers of a tiled kernel under an explicit interleaving",
          parts=("interleaving", "slots", "hazards")),
    Panel("reduction", "Reduction: warp shuffle tree",
          "Partial-sum ownership and contributor sets of a shuffle reduction",
          parts=("tree", "block")),
    # SIMT execution panels
    Panel("occupancy", "Occupancy: resident warps per SM",
          "Blocks per SM limited by warp slots, registers, shared memory and the block limit",
          parts=("limits", "slots", "cliffs")),
    Panel("scheduler", "Scheduler: latency hiding, cycle by cycle",
          "One warp scheduler issuing from ready warps under GTO or loose round-robin",
          parts=("timeline", "utilisation", "warps")),
    Panel("divergence", "Divergence: reconvergence stack",
          "Immediate post-dominators, the pre-Volta SIMT stack and lane efficiency",
          parts=("graph", "stack", "issue", "efficiency")),
    # tensor cores
    Panel("mma", "MMA: tensor-core fragments",
          "Who holds each element of mma.sync and wgmma operands, and how ldmatrix feeds them",
          parts=("fragment-a", "fragment-b", "fragment-c", "feed", "warpgroup", "descriptor",
                 "completion", "hierarchy")),
)

PANEL_IDS: tuple[str, ...] = tuple(p.id for p in PANELS)


def panel(panel_id: str) -> Panel:
    for p in PANELS:
        if p.id == panel_id:
            return p
    raise KeyError(panel_id)
