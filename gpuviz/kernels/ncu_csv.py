"""Reading Nsight Compute's ``--csv --page raw`` output: one row per profiled kernel launch.

The profiler writes its own notes (``==PROF==``, ``==WARNING==``) and the program's output into
the same stream; the table starts at the header row whose first cell is ``ID``, followed by a row
of units. Values are strings with thousands separators in some locales; :func:`number` reads them.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path


def read_rows(text: str) -> list[dict[str, str]]:
    """The profiled launches of one ncu --csv --page raw output, in launch order."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return []
    table = [line for line in lines[start:] if line.startswith('"')]
    reader = csv.reader(io.StringIO("\n".join(table)))
    header = next(reader)
    rows = []
    for i, cells in enumerate(reader):
        if i == 0 and cells and cells[0] == "":  # the units row
            continue
        rows.append(dict(zip(header, cells, strict=False)))
    rows.sort(key=lambda r: int(r.get("ID", "0")))
    return rows


def read_file(path: str | Path) -> list[dict[str, str]]:
    """The launches of one output file, read bounded (a FIFO or device is refused at once)."""
    from gpuviz.kernels.measure_input import read_text

    return read_rows(read_text(path))


def number(value: str) -> float:
    return float(value.replace(",", "")) if value not in ("", "n/a") else float("nan")
