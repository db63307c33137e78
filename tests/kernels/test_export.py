"""Kernel export: every bundled scenario of the exportable panels writes a program that compiles
for sm_90, with its run script, README and case file."""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gpuviz.kernels import PANELS, export_kernel, exportable, render
from gpuviz.scenario import bundled_scenarios, load_scenario

NVCC = shutil.which("nvcc") or (shutil.which("nvcc", path="/usr/local/cuda/bin"))


def bundled_exports():
    out = []
    for path in bundled_scenarios():
        sc = load_scenario(path)
        for pid in exportable(sc.panels):
            out.append((path, sc, pid))
    return out


def test_every_exportable_panel_has_bundled_scenarios():
    assert {pid for _, _, pid in bundled_exports()} == set(PANELS)


def export_all(tmp_path: Path) -> list[tuple[Path, str]]:
    written = []
    for path, sc, pid in bundled_exports():
        out = tmp_path / f"{path.stem}-{pid}"
        try:
            files = export_kernel(sc, pid, out, name=path.stem)
        except ValueError as e:
            assert "64" in str(e)  # only the AMD wavefront scenario cannot be CUDA
            continue
        written.append((files[0], pid))
    return written


def test_export_writes_source_script_readme_and_case(tmp_path):
    written = export_all(tmp_path)
    assert len(written) >= 16
    for cu, pid in written:
        folder = cu.parent
        run = (folder / "run.sh").read_text()
        build = ("nvcc -O3 -gencode=arch=compute_90a,code=sm_90a" if pid == "mma"  # wgmma
                 else "nvcc -arch=sm_90 -O3")
        assert build in run and "ncu --clock-control none" in run
        assert "cuobjdump -sass" in run and "--metrics " in run
        readme = (folder / "README.md").read_text().strip().split("\n\n")
        assert len(readme) == 3
        case = json.loads((folder / "case.json").read_text())[0]
        assert case["panel"] == pid and "section" in case
        src = cu.read_text()
        assert "CHECK(cudaDeviceSynchronize())" in src and "CHECK(cudaGetLastError())" in src


def test_kernel_comments_speak_of_lanes_banks_sectors_tiles(tmp_path):
    sc = load_scenario(next(p for p in bundled_scenarios() if p.stem == "banks-padded33"))
    src = render(sc, "banks", "k").body
    assert "lane  1: bytes 132–135, bank 1" in src  # row 1 of 33 words: word 33, bank 1
    sc = load_scenario(next(p for p in bundled_scenarios() if p.stem == "sectors-shifted"))
    src = render(sc, "sectors", "k").body
    assert "lane 31: bytes 128–131, sector 4" in src


def test_the_measured_instruction_is_inline_ptx_of_the_right_width():
    sc = load_scenario(next(p for p in bundled_scenarios() if p.stem == "banks-wide-access"))
    k = render(sc, "banks", "k")
    assert 'ld.shared.v2.u32' in k.body and k.sass == (r"LDS\.64",)
    assert k.metrics[0] == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"


@pytest.mark.skipif(NVCC is None, reason="nvcc (the CUDA compiler) is not installed here; the "
                                         "exported kernels are compiled where it is")
@pytest.mark.slow
def test_every_export_compiles_for_sm_90(tmp_path):
    """Every bundled scenario's kernel, mma's for sm_90a (wgmma), as its run.sh builds it: the
    device code of each (``-cubin``: the front end and ptxas, where a scenario's shapes and
    constants matter) and the whole program, host code included (``-c``), of the first export
    of each panel (the host code differs between a panel's exports only in its constants)."""
    written = export_all(tmp_path)
    whole = {pid: cu for cu, pid in reversed(written)}  # the first export of each panel

    def build(item):
        cu, pid = item
        arch = "-gencode=arch=compute_90a,code=sm_90a" if pid == "mma" else "-arch=sm_90"
        out = ["-c", str(cu), "-o", str(cu.with_suffix(".o"))] if whole[pid] == cu else \
            ["-cubin", str(cu), "-o", str(cu.with_suffix(".cubin"))]
        proc = subprocess.run([NVCC, arch, *out], capture_output=True, text=True, timeout=600)
        return cu, proc

    with ThreadPoolExecutor(max_workers=4) as pool:
        for cu, proc in pool.map(build, written):
            assert proc.returncode == 0, f"{cu.name}: {proc.stderr}"
            assert "warning" not in proc.stderr.lower(), f"{cu.name}: {proc.stderr}"
    assert len(whole) == len(PANELS)


def test_a_real_size_traversal_exports_its_own_k_step(tmp_path):
    """8 KiB tiles (the real-size lecture's K steps of 32): the kernel walks K in steps of 32 and
    its K is the model's k_tiles × 32 = N, not × 64."""
    from gpuviz.kernels import render
    from gpuviz.scenario import load_scenario
    from gpuviz.scenario.bundled import scenario_dir

    sc = load_scenario(scenario_dir() / "traversal-h200-real-sizes.json")
    src = render(sc, "traversal", "real").body
    assert "constexpr int BK = 32;" in src
    assert "constexpr int kM = 8192, kN = 8192, kK = 8192;" in src
