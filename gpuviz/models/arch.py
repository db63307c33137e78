"""Architecture presets: data files in ``resources/arch/<name>.json`` (installed as the package
``gpuviz.resources``), each value with its source. A scenario names a preset by file stem (``"h100-sxm"``).

Each file is ``{"name", "vendor", "compute_capability", "fields": {key: {"value", "source"}}}``.
Every preset carries every key of :data:`ARCH_KEYS`; a quantity that does not apply to an
architecture (the NVIDIA register-allocation unit on AMD CDNA, say) has the value ``null`` and a
source that says why. ``tests/models/test_arch.py`` checks that every value names its source.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_ARCH = "h100-sxm"

#: The quantities every preset states, in display order.
ARCH_KEYS = (
    "sm_count", "warp_size", "max_warps_per_sm", "max_threads_per_sm", "max_blocks_per_sm",
    "max_threads_per_block", "registers_per_sm", "registers_per_block", "max_registers_per_thread",
    "register_allocation_unit", "register_allocation_granularity", "scheduler_partitions",
    "shared_memory_per_sm", "shared_memory_per_block", "shared_memory_per_block_optin",
    "shared_memory_allocation_unit", "shared_memory_reserved_per_block", "l2_bytes",
    "memory_bytes", "memory_bandwidth_gbps", "fp16_dense_tflops", "bf16_dense_tflops",
    "fp32_tflops",
)


def _arch_dir():
    return resources.files("gpuviz.resources") / "arch"


@cache
def preset_names() -> tuple[str, ...]:
    return tuple(sorted(p.name[:-5] for p in _arch_dir().iterdir() if p.name.endswith(".json")))


@cache
def load_preset(name: str) -> dict[str, Any]:
    """The preset's raw data: ``{"name", "vendor", "fields": {key: {"value", "source"}}}``."""
    if name not in preset_names():
        raise KeyError(name)
    return json.loads((_arch_dir() / f"{name}.json").read_text(encoding="utf-8"))


def preset_title(name: str) -> str:
    """The preset's product name, e.g. ``"NVIDIA H100 SXM5 80 GB (GH100)"``."""
    return load_preset(name)["name"]


def preset_value(name: str, key: str) -> Any:
    """One value of a preset (the traversal panel's L2 size, say)."""
    return load_preset(name)["fields"][key]["value"]


def preset_values(name: str) -> dict[str, Any]:
    """Every value of a preset by key (sources left out)."""
    return {k: v["value"] for k, v in load_preset(name)["fields"].items()}
