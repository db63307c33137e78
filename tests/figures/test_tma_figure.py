"""The tma figure prints the model's numbers: the physical chunks, the refused rule, the
bytes each barrier expects."""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures import tma as figure
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import theme
from gpuviz.models import tma


def texts(params, part, target=SINGLE):
    fig = figure.build(tma.compute(params), frozenset(), theme("print"),
                       replace(target, parts=(part,)))
    return " ".join(fig.texts())


def test_placement_prints_each_rows_physical_chunks():
    row5 = [t for t in texts(replace(tma.TmaParams(), smem_offset=384), "placement").split("row")
            if t.strip().startswith("5 at")]
    assert row5 and "0 1 2 3 4 5 6 7" in row5[0]  # absolute line 8: phase 0
    row5 = [t for t in texts(tma.TmaParams(), "placement").split("row")
            if t.strip().startswith("5 at")]
    assert "5 4 7 6 1 0 3 2" in row5[0]  # chunk c lands in c ^ 5


def test_refused_map_names_its_rule_and_cluster_its_bytes():
    bad = replace(tma.TmaParams(), box_dims=(128, 8))
    assert "refused: box_dims[0]" in texts(bad, "tensor-map")
    assert "2,048" in texts(tma.TmaParams(), "cluster", SLIDE)
