"""The layout designs a view's search chose, remembered across sessions.

A figure laid out for a view searches a dozen arrangements and design widths (20-130 ms). The
next session, the same panel in the same theme and view shape is drawn first with the design
chosen last time (one build), and the search runs after the first frame, off the GUI thread;
it replaces the picture only if the content now calls for another design.

Kept in the application's settings, per panel, the most recent first, a few dozen at most."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from gpuviz.figures.targets import DESIGN_FACTORS, Design, Target

KEPT = 24  # designs per panel (theme × view shape)
KINDS = ("stacked", "beside")


class DesignMemory:
    def __init__(self, settings: QSettings):
        self.settings = settings
        self._entries: dict[str, list[tuple[str, Design]]] = {}

    @staticmethod
    def _where(theme: str, target: Target) -> str:
        return f"{theme} {target.width:g} {target.aspect:g}"

    def _read(self, panel_id: str) -> list[tuple[str, Design]]:
        known = self._entries.get(panel_id)
        if known is not None:
            return known
        raw = self.settings.value(f"designs/{panel_id}", "")
        entries: list[tuple[str, Design]] = []
        for part in str(raw).split(";") if isinstance(raw, str) else ():
            where, _, design = part.rpartition("=")
            kind, _, factor = design.partition(":")
            try:
                value = float(factor)
            except ValueError:
                continue  # a damaged entry is forgotten, not an error
            if where and kind in KINDS and value in DESIGN_FACTORS:
                entries.append((where, (kind, value)))
        self._entries[panel_id] = entries[:KEPT]
        return self._entries[panel_id]

    def recall(self, panel_id: str, theme: str, target: Target) -> Design | None:
        """The design last chosen for this panel, theme and view shape, if any."""
        if target.aspect is None or target.width is None:
            return None
        where = self._where(theme, target)
        return next((d for w, d in self._read(panel_id) if w == where), None)

    def keep(self, panel_id: str, theme: str, target: Target, design: Design) -> None:
        """Remember ``design`` as this panel's search result for ``theme`` and ``target``."""
        if target.aspect is None or target.width is None:
            return
        where = self._where(theme, target)
        entries = self._read(panel_id)
        if entries and entries[0] == (where, design):
            return
        others = [e for e in entries if e[0] != where]
        entries[:] = [(where, design), *others[:KEPT - 1]]
        self.settings.setValue(f"designs/{panel_id}",
                               ";".join(f"{w}={k}:{f:g}" for w, (k, f) in entries))
