"""The layout designs a view's search chose, remembered across sessions.

A figure laid out for a view searches a dozen arrangements and design widths (20-130 ms). The
next session, the same panel in the same theme and view shape is drawn first with the design
chosen last time (one build), and the search runs after the first frame, off the GUI thread;
it replaces the picture only if the content now calls for another design.

Kept in the application's settings, per panel, the most recent first, a few dozen at most.

A first start has no settings: on the default lecture it recalls the designs its views' layouts
chose on the screens of ``FIRST_DESIGNS`` (resources/first_designs.json, written by
tools/first_designs.py from the project's own files and checked against a fresh layout by
tests/ui/test_first_designs.py), so its first frame is built once, not searched; the table
names the scenario file's checksum and is ignored once the file differs."""

from __future__ import annotations

import json
import zlib
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QSettings

from gpuviz.figures.targets import DESIGN_FACTORS, Design, Target

KEPT = 24  # designs per panel (theme × view shape)
KINDS = ("stacked", "beside")
FIRST_DESIGNS = "first_designs.json"


def first_designs(path: Path | None) -> dict[str, str]:
    """The designs the default lecture's views were laid out with on common screens, as the
    settings keep them (panel id → entries), when ``path`` is the bundled default scenario as
    the table was made for; else none."""
    from gpuviz.scenario.bundled import default_scenario_path

    if path is None or Path(path) != default_scenario_path():
        return {}
    try:
        table = json.loads((resources.files("gpuviz.resources") / FIRST_DESIGNS)
                           .read_text(encoding="utf-8"))
        if table["scenario"] != Path(path).name \
                or table["crc32"] != zlib.crc32(Path(path).read_bytes()):
            return {}
        out: dict[str, list[str]] = {}
        for v in table["views"]:
            out.setdefault(v["panel"], []).append(
                f"{v['theme']} {v['width']:g} {v['aspect']:g}={v['design']}")
    except (OSError, ValueError, KeyError, TypeError):
        return {}  # a damaged table is no table: the first frame is searched
    return {pid: ";".join(entries) for pid, entries in out.items()}


class DesignMemory:
    def __init__(self, settings: QSettings, first: dict[str, str] | None = None):
        self.settings = settings
        self._entries: dict[str, list[tuple[str, Design]]] = {}
        self._first = first or {}  # recalled where the settings remember nothing

    @staticmethod
    def _where(theme: str, target: Target) -> str:
        return f"{theme} {target.width:g} {target.aspect:g}"

    def _read(self, panel_id: str) -> list[tuple[str, Design]]:
        known = self._entries.get(panel_id)
        if known is not None:
            return known
        raw = self.settings.value(f"designs/{panel_id}", "")
        self._entries[panel_id] = _parsed(raw)[:KEPT]
        return self._entries[panel_id]

    def recall(self, panel_id: str, theme: str, target: Target) -> Design | None:
        """The design last chosen for this panel, theme and view shape, if any (on a first
        start, the one the default lecture's layout chose: ``first_designs``)."""
        if not target.paged:
            return None
        where = self._where(theme, target)
        found = next((d for w, d in self._read(panel_id) if w == where), None)
        if found is None and panel_id in self._first:
            found = _nearest(_parsed(self._first[panel_id]), theme, target)
        return found

    def keep(self, panel_id: str, theme: str, target: Target, design: Design) -> None:
        """Remember ``design`` as this panel's search result for ``theme`` and ``target``."""
        if not target.paged:
            return
        where = self._where(theme, target)
        entries = self._read(panel_id)
        if entries and entries[0] == (where, design):
            return
        others = [e for e in entries if e[0] != where]
        entries[:] = [(where, design), *others[:KEPT - 1]]
        self.settings.setValue(f"designs/{panel_id}",
                               ";".join(f"{w}={k}:{f:g}" for w, (k, f) in entries))


# how far a view may be from one of the first-start table's (made offscreen, where a window has
# no frame) and still take its design: a window manager's title bar and panels leave a
# maximised window's view a few pixels shorter (1920×1080 under openbox: 383 mm at 1.75 where
# the table has 382 at 1.72; 1280×720: 233 at 1.74, the table 232 at 1.69); the table's
# shapes for one width lie 0.19 or more apart in aspect
FIRST_WIDTH_TOLERANCE = 0.015  # of the width
FIRST_ASPECT_TOLERANCE = 0.08


def _nearest(entries: list[tuple[str, Design]], theme: str, target: Target) -> Design | None:
    """The design of the entry for ``theme`` nearest ``target``'s shape, within the tolerances
    (the nearest in aspect, then in width); None where none is that near."""
    page_w, page_aspect = target.page[0], target.shape
    best: tuple[float, float, Design] | None = None
    for where, design in entries:
        name, _, shape = where.partition(" ")
        width, _, aspect = shape.partition(" ")
        try:
            dw, da = abs(float(width) - page_w), abs(float(aspect) - page_aspect)
        except ValueError:
            continue
        if name == theme and dw <= FIRST_WIDTH_TOLERANCE * page_w \
                and da <= FIRST_ASPECT_TOLERANCE and (best is None or (da, dw) < best[:2]):
            best = (da, dw, design)
    return best[2] if best else None


def _parsed(raw: object) -> list[tuple[str, Design]]:
    """Entries ``theme width aspect=kind:factor`` joined by ";" (a damaged one is forgotten,
    not an error)."""
    entries: list[tuple[str, Design]] = []
    for part in raw.split(";") if isinstance(raw, str) else ():
        where, _, design = part.rpartition("=")
        kind, _, factor = design.partition(":")
        try:
            value = float(factor)
        except ValueError:
            continue
        if where and kind in KINDS and value in DESIGN_FACTORS:
            entries.append((where, (kind, value)))
    return entries
