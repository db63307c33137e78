"""The tma panel's exported kernel: every bundled tma scenario writes a program that compiles for
sm_90a (the bulk tensor copy, mbarrier transaction counts and clusters), with no warning."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from gpuviz.registry import PANEL_IDS

NVCC = shutil.which("nvcc") or shutil.which("nvcc", path="/usr/local/cuda/bin")

pytestmark = pytest.mark.skipif("tma" not in PANEL_IDS, reason="no tma panel registered")


def _tma_scenarios():
    from gpuviz.scenario import bundled_scenarios, load_scenario

    return [(p.stem, load_scenario(p)) for p in bundled_scenarios()
            if "tma" in load_scenario(p).panels]


@pytest.mark.skipif(NVCC is None, reason="nvcc (the CUDA compiler) is not installed here; the "
                                         "exported kernels are compiled where it is")
@pytest.mark.slow
def test_every_tma_export_compiles_for_sm_90a(tmp_path):
    from gpuviz.kernels import export_kernel

    scenarios = _tma_scenarios()
    assert scenarios, "no bundled scenario shows the tma panel"
    for i, (stem, scenario) in enumerate(scenarios):
        cu = export_kernel(scenario, "tma", tmp_path / stem, name=stem)[0]
        src = cu.read_text()
        assert "cp.async.bulk.tensor.2d" in src and "mbarrier.test_wait.parity" in src
        assert "cudaOccupancyMaxActiveClusters" in src
        # the whole program for the first, the device code (where the constants matter) for all
        out = ["-c", str(cu), "-o", str(cu.with_suffix(".o"))] if i == 0 else \
            ["-cubin", str(cu), "-o", str(cu.with_suffix(".cubin"))]
        proc = subprocess.run([NVCC, "-gencode=arch=compute_90a,code=sm_90a", *out],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"{stem}: {proc.stderr}"
        assert "warning" not in proc.stderr.lower(), f"{stem}: {proc.stderr}"
