"""The base-offset experiment's programs differ from the model's only in the B descriptor's
bits 49-51, which hold the PTX ISA's (start >> 7) & 7."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "wgmma_base_offset.py"


def _tool():
    spec = importlib.util.spec_from_file_location("wgmma_base_offset", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_isa_variant_sets_only_the_base_offset_bits(tmp_path):
    tool = _tool()
    assert tool.main([str(tmp_path)]) == 0
    for start in tool.STARTS:
        base0 = (tmp_path / str(start) / "base0.cu").read_text(encoding="utf-8")
        isa = (tmp_path / str(start) / "isa.cu").read_text(encoding="utf-8")
        d0 = int(base0.split("kBDesc[1] = {0x")[1][:16], 16)
        d1 = int(isa.split("kBDesc[1] = {0x")[1][:16], 16)
        assert (d0 >> 49) & 7 == 0 and (d1 >> 49) & 7 == (start >> 7) & 7
        assert d0 == d1 & ~(7 << 49)
        hexes = (f"{d0:016x}", f"{d1:016x}")
        assert _blank(base0, hexes) == _blank(isa, hexes)  # nothing else differs


def _blank(text: str, hexes: tuple[str, ...]) -> str:
    for h in hexes:
        text = text.replace(h, "")
    return text
