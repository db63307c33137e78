"""The one panel registry: every panel id, its title, and where its model, figure and dock live.

Adding a panel = one ``Panel(...)`` line here plus the modules it names (DESIGN.md, "One panel,
end to end"). Modules are named by dotted path and imported on first use, so that reading the
registry costs nothing and the command line never imports Qt.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Panel:
    id: str
    title: str
    summary: str

    @property
    def model(self) -> ModuleType:
        return _module(f"gpuviz.models.{self.id}")

    @property
    def figure(self) -> ModuleType:
        return _module(f"gpuviz.figures.{self.id}")

    @property
    def dock_module(self) -> str:
        return f"gpuviz.ui.panels.{self.id}"

    @property
    def params_type(self) -> type:
        """The frozen dataclass that is this panel's scenario section."""
        return self.model.PARAMS

    def compute(self, params: Any) -> Any:
        return self.model.compute(params)


@cache
def _module(name: str) -> ModuleType:
    return importlib.import_module(name)


PANELS: tuple[Panel, ...] = (
    Panel("launch", "Launch: grid, blocks, warps", "Grid / block / warp explorer with tile and wave quantization"),
    # memory access panels
    Panel("sectors", "Sectors: one warp's global load",
          "Lanes to the 32-byte sectors and 128-byte lines their addresses touch"),
    Panel("banks", "Banks: shared-memory bank queues",
          "Which bank serves each lane's word, broadcasts, and the service rounds"),
    Panel("swizzle", "Swizzle: XOR layout of a 1024-byte region",
          "Logical and physical 16-byte chunks and the banks one reader per row hits"),
    # reuse panels
    Panel("gemm", "GEMM: matrix multiplication as reuse",
          "Who owns which output, and what each owner loads, reads and reuses"),
    Panel("traversal", "Traversal: output-tile order and cache reuse",
          "Tile orders through an LRU cache: hits, loads and misses against capacity"),
    # time and synchronization panels
    Panel("pipeline", "Pipeline: buffer ownership over time",
          "Load and compute lanes, slot ownership bands and named waits"),
    Panel("barrier", "Barriers: producer and consumer",
          "The two barriers of a tiled kernel under an explicit interleaving"),
    Panel("reduction", "Reduction: warp shuffle tree",
          "Partial-sum ownership and contributor sets of a shuffle reduction"),
    # SIMT execution panels
    Panel("occupancy", "Occupancy: resident warps per SM",
          "Blocks per SM limited by warp slots, registers, shared memory and the block limit"),
    Panel("scheduler", "Scheduler: latency hiding, cycle by cycle",
          "One warp scheduler issuing from ready warps under GTO or loose round-robin"),
    Panel("divergence", "Divergence: reconvergence stack",
          "Immediate post-dominators, the pre-Volta SIMT stack and lane efficiency"),
)

PANEL_IDS: tuple[str, ...] = tuple(p.id for p in PANELS)


def panel(panel_id: str) -> Panel:
    for p in PANELS:
        if p.id == panel_id:
            return p
    raise KeyError(panel_id)
