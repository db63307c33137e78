"""Reduction dock: the result, the exact sum and the float32 orders under the controls, and
any flag the variant raises (reads outside the mask, uninitialised shared entries)."""

from __future__ import annotations

from gpuviz.models.reduction import ReductionResult
from gpuviz.ui.panel_extras import PanelExtras


def _number(value: float) -> str:
    return f"{value:.10g}"


class ReductionExtras(PanelExtras):
    def summary_text(self, result: ReductionResult) -> str:
        value = "undefined" if result.result is None else _number(result.result)
        lines = [f"Lane 0 holds {value} (exact sum {_number(result.exact_sum)})"]
        lines += list(result.flags)
        if result.order_dependent:
            lines.append(f"float32 tree {_number(result.float32_tree_sum)} vs left to right "
                         f"{_number(result.float32_sequential_sum)}")
        return "\n".join(lines)
