"""The wgmma descriptor's base offset at a start that is not 1024-byte aligned, to settle on the
card: for each start (0, 128, 384, 640), the mma panel's wgmma program (``gpuviz kernel``) with
B placed under the 128-byte swizzle of the absolute address, once with the model's descriptor
(base offset 0) and once with the PTX ISA's formula, base offset (start >> 7) & 7, ORed into the
descriptor's bits 49-51 (PTX ISA, Matrix Descriptor Format). A variant whose product agrees with
the host's is the one the hardware reads. The tma panel's ``wgmma_descriptor.base_offset`` uses
the formula; the mma panel encodes 0.

    .venv/bin/python tools/wgmma_base_offset.py OUT_DIR    # writes OUT_DIR/<start>/{base0,isa}.cu
    then build each with nvcc -gencode=arch=compute_90a,code=sm_90a -O2 and run
    tools/device/wgmma_base_offset.sh from OUT_DIR on the card.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

STARTS = (0, 128, 384, 640)


def scenario(start: int) -> dict:
    return {"version": 1, "panels": ["mma"],
            "mma": {"show": ["warpgroup"], "warpgroup": {
                "n": 64, "first_warp": 0, "block_warps": 8, "swizzle": "128B",
                "start_address": start}}}


def with_base_offset(source: str, base: int) -> str:
    """``source`` with ``base`` ORed into every B descriptor of ``kBDesc``."""
    def patch(m: re.Match[str]) -> str:
        values = re.findall(r"0x([0-9a-f]{16})ull", m.group(0))
        return m.group(1) + ", ".join(f"0x{int(v, 16) | (base << 49):016x}ull"
                                      for v in values) + "};"
    out, n = re.subn(r"(__constant__ unsigned long long kBDesc\[\d+\] = \{)[^}]*\};", patch,
                     source)
    if n != 1:
        raise ValueError("no kBDesc table in the generated program")
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    for start in STARTS:
        with tempfile.TemporaryDirectory() as tmp:
            case = Path(tmp) / f"wg{start}.json"
            case.write_text(json.dumps(scenario(start)), encoding="utf-8")
            subprocess.run([sys.executable, "-m", "gpuviz", "kernel", str(case), "--out",
                            str(Path(tmp) / "k")], check=True, capture_output=True)
            source = (Path(tmp) / "k" / f"wg{start}.cu").read_text(encoding="utf-8")
        folder = out / str(start)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "base0.cu").write_text(source, encoding="utf-8")
        (folder / "isa.cu").write_text(with_base_offset(source, (start >> 7) & 7),
                                       encoding="utf-8")
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
