"""Kernel export: a self-contained CUDA C++ program performing exactly a scenario's access.

``gpuviz kernel SCENARIO [--panel ID] --out DIR`` (and File ▸ Export Kernel…) call
:func:`export_kernel`. One module per panel id with ``kernel=True`` in the registry renders its
panel's parameters (``gpuviz.kernels.<id>.render``); :mod:`gpuviz.kernels.emit`
writes the source, the run script with the build and ``ncu`` commands, a three-line README and
``case.json`` for ``gpuviz measure import``. Qt-free.
"""

from __future__ import annotations

from pathlib import Path

from gpuviz.kernels.emit import KernelSource, stem, write
from gpuviz.registry import KERNEL_PANELS, panel

PANELS = KERNEL_PANELS  # the registry's panels with ``kernel=True``


def exportable(panels: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in panels if p in PANELS)


def render(scenario, panel_id: str, name: str) -> KernelSource:
    """The kernel for one panel of a scenario (its effective, linked parameters)."""
    from gpuviz.kernels.cases import section_json
    from gpuviz.scenario.compute import effective_params

    if panel_id not in PANELS:
        raise ValueError(f"no kernel export for panel {panel_id!r} (panels with one: "
                         f"{', '.join(PANELS)})")
    params = effective_params(scenario, panel_id)
    module = panel(panel_id).kernel_module
    title = f"{scenario.title} — {panel_id}"
    k = module.render(params, name, title)
    case = {**k.case, "section": section_json(params)}
    return KernelSource(**{**k.__dict__, "case": case})


def export_kernel(scenario, panel_id: str, out: str | Path, name: str | None = None) -> list[Path]:
    """Write ``<name>.cu``, ``run.sh``, ``README.md`` and ``case.json`` into ``out``."""
    k = render(scenario, panel_id, stem(name or f"{scenario.title}-{panel_id}"))
    return write(k, Path(out))
