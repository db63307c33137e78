"""Architecture presets: data files in ``gpuviz/resources/arch/<name>.json``, each value with its
source. A scenario names a preset by file stem (``"h100-sxm"``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_ARCH = "h100-sxm"


def _arch_dir():
    return resources.files("gpuviz") / "resources" / "arch"


@cache
def preset_names() -> tuple[str, ...]:
    return tuple(sorted(p.name[:-5] for p in _arch_dir().iterdir() if p.name.endswith(".json")))


@cache
def load_preset(name: str) -> dict[str, Any]:
    """The preset's raw data: ``{"name", "vendor", "fields": {key: {"value", "source"}}}``."""
    if name not in preset_names():
        raise KeyError(name)
    return json.loads((_arch_dir() / f"{name}.json").read_text(encoding="utf-8"))


def preset_value(name: str, key: str) -> Any:
    return load_preset(name)["fields"][key]["value"]
