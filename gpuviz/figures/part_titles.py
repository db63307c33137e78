"""What a figure of some of its parts is headed with inside full chrome: the parts' own name
("Occupancy limits"), not the whole figure's title and subtitle again (at a journal column
those took 30–57 % of a small part's height)."""

from __future__ import annotations

from collections.abc import Sequence

from gpuviz.registry import panel

# a part's name where the panel's short name and the part's id do not read as one
# ("Barriers hazards", "Banks rack", "MMA fragment a")
NAMES: dict[tuple[str, str], str] = {
    ("sectors", "map"): "Sector map",
    ("sectors", "receipt"): "Sector receipt",
    ("sectors", "sweep"): "Sector stride sweep",
    ("banks", "lanes"): "Lanes to banks",
    ("banks", "rack"): "Bank queues",
    ("banks", "receipt"): "Bank receipt",
    ("swizzle", "logical"): "Swizzle: logical chunks",
    ("swizzle", "physical"): "Swizzle: physical chunks",
    ("swizzle", "banks"): "Swizzle: banks",
    ("swizzle", "readers"): "Swizzle: readers",
    ("tma", "ring"): "TMA stage ring",
    ("traversal", "resident"): "Traversal: resident tiles",
    ("traversal", "loads"): "Traversal: loads step by step",
    ("traversal", "sweep"): "Traversal: capacity sweep",
    ("barrier", "interleaving"): "Barrier interleaving",
    ("barrier", "slots"): "Barrier slots",
    ("barrier", "hazards"): "Barrier hazards",
    ("reduction", "block"): "Reduction across the block",
    ("occupancy", "slots"): "Occupancy: warp slots",
    ("scheduler", "utilisation"): "Scheduler: issue slots over time",
    ("scheduler", "warps"): "Scheduler: warps to hide the latency",
    ("divergence", "graph"): "Divergence: control-flow graph",
    ("divergence", "stack"): "Divergence: the SIMT stack",
    ("divergence", "issue"): "Divergence: issue order",
    ("divergence", "efficiency"): "Divergence: lane efficiency",
    ("mma", "fragment-a"): "MMA fragment A",
    ("mma", "fragment-b"): "MMA fragment B",
    ("mma", "fragment-c"): "MMA fragments C and D",
    ("mma", "feed"): "MMA fragment feed (ldmatrix)",
    ("mma", "descriptor"): "MMA: wgmma descriptor",
    ("mma", "completion"): "MMA: wgmma completion",
    ("gemm", "intensity"): "GEMM arithmetic intensity",
}


def part_title(panel_id: str, parts: Sequence[str]) -> str:
    """The heading of the panel's ``parts`` drawn without the rest: one part's name
    ("Occupancy limits": the panel's short name and the part's, or :data:`NAMES`), several
    listed ("Occupancy: limits and cliffs")."""
    short = panel(panel_id).title.split(":")[0]
    if len(parts) == 1:
        return NAMES.get((panel_id, parts[0]), f"{short} {parts[0].replace('-', ' ')}")
    names = [p.replace("-", " ") for p in parts]
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{short}: {listed}"
