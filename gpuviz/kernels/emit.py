"""The shared part of every exported kernel: file header, error checks, run script, README.

A panel module (``gpuviz.kernels.<panel id>``) turns its panel's parameters into a
:class:`KernelSource`: the CUDA C++ body (kernel and ``main``), the nvcc flags, the profiler
metrics that measure what the model predicts, and the SASS instructions that must appear.
:func:`write` lays the files out: ``<name>.cu``, ``run.sh`` (build, SASS check, profile,
import), ``README.md`` (three lines) and ``case.json`` (what ``gpuviz measure import`` needs to
compare the profile with the model).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ARCH = "sm_90"

CHECK_MACRO = r"""#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// Every CUDA call is checked: a failure prints the call and the error, and the program stops.
#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,       \
                         cudaGetErrorString(err_));                                         \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)
"""


@dataclass(frozen=True)
class KernelSource:
    name: str  # file stem, e.g. "banks-stride1"
    title: str  # one line: what the kernel performs
    summary: list[str]  # comment lines under the title: the model's prediction in words
    body: str  # CUDA C++ after the common header
    metrics: tuple[str, ...]  # ncu metrics that measure what the model predicts
    sass: tuple[str, ...]  # regular expressions of SASS that must appear (the measured instr.)
    nvcc_flags: tuple[str, ...] = ()
    ncu_flags: tuple[str, ...] = ("--cache-control", "none")
    kernel_filter: str | None = None  # ncu -k: profile only this kernel
    case: dict[str, Any] = field(default_factory=dict)  # for gpuviz measure import
    arch: str = ARCH  # the target named in the comments; nvcc_flags may name it exactly


def source_text(k: KernelSource) -> str:
    lines = [f"// {k.title}", "//"]
    lines += [f"// {s}" if s else "//" for s in k.summary]
    lines += ["//", f"// Build and profile: see run.sh beside this file (nvcc -arch={k.arch}).",
              "// Written by gpuviz from a scenario; edit freely.", ""]
    return "\n".join(lines) + "\n" + CHECK_MACRO + "\n" + k.body.strip() + "\n"


def build_command(k: KernelSource) -> str:
    flags = " ".join(k.nvcc_flags)
    arch = "" if any(f.startswith("-gencode") for f in k.nvcc_flags) else f"-arch={k.arch} "
    return f"nvcc {arch}-O3 {flags + ' ' if flags else ''}-o {k.name} {k.name}.cu"


def ncu_command(k: KernelSource) -> str:
    parts = ["ncu", "--clock-control", "none", *k.ncu_flags, "--csv", "--page", "raw"]
    if k.kernel_filter:
        parts += ["-k", k.kernel_filter]
    parts += ["--metrics", ",".join(k.metrics), f"./{k.name}"]
    return " ".join(parts)


def run_script(k: KernelSource) -> str:
    sass = "|".join(k.sass)
    return f"""#!/bin/sh
# Build, check the SASS, profile, and compare with gpuviz's model.
set -e
cd "$(dirname "$0")"
{build_command(k)}
# The measured instruction must be in the machine code, neither deleted nor merged nor widened:
cuobjdump -sass {k.name} | grep -m 1 -E '{sass}'
./{k.name}
# --clock-control none leaves the GPU's clocks as they are.
{ncu_command(k)} > {k.name}-ncu.csv
if command -v gpuviz >/dev/null; then
  gpuviz measure import {k.name}-ncu.csv --cases case.json --out {k.name}-measured.json
  gpuviz measure compare {k.name}-measured.json
fi
"""


def readme(k: KernelSource) -> str:
    return (f"{k.title}\n\n"
            f"Run `sh run.sh` on a machine with an NVIDIA GPU of compute capability 9.0, nvcc "
            f"and Nsight Compute: it builds {k.name}.cu, checks the SASS and profiles it.\n\n"
            f"Compare the metrics ({', '.join(m.split('.')[0] for m in k.metrics)}) with "
            f"the model, or run `gpuviz measure import {k.name}-ncu.csv --cases case.json`.\n")


def write(k: KernelSource, out: Path) -> list[Path]:
    from gpuviz.atomic import write_atomic

    out.mkdir(parents=True, exist_ok=True)
    files = {
        f"{k.name}.cu": source_text(k),
        "run.sh": run_script(k),
        "README.md": readme(k),
        "case.json": json.dumps([k.case], indent=1, ensure_ascii=False) + "\n",
    }
    paths = []
    for name, text in files.items():
        path = out / name
        write_atomic(path, text.encode("utf-8"))  # a pipe or folder there is refused at once
        paths.append(path)
    (out / "run.sh").chmod(0o755)
    return paths


def c_array(values: list[int] | tuple[int, ...], per_line: int = 16, indent: str = "    ") -> str:
    """Integers as the body of a C array initializer, ``per_line`` a line."""
    vals = [str(int(v)) for v in values]
    rows = [", ".join(vals[i:i + per_line]) for i in range(0, len(vals), per_line)]
    return (",\n" + indent).join(rows)


def stem(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "kernel"
