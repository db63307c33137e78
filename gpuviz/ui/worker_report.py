"""Reports from worker threads (a model's computation, a layout search, the traversal sweep,
gallery thumbnails) go back to the GUI by queued signals. The object that carries them can be
gone by the time the work ends: its dock closed, another scenario opened, the application
quitting. Then the report is dropped, and the work told to stop, instead of raising
"Signal source has been deleted" on the worker. :class:`Job` runs one piece of Qt-free work
(a dock's model computation or layout search) that way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal


def report(signal: Any, *args: object) -> bool:
    """Emit ``signal`` with ``args``; False when its object no longer exists."""
    try:
        signal.emit(*args)
    except RuntimeError:  # the C++ object behind the signal was deleted
        return False
    return True


class JobSignals(QObject):
    done = Signal(int, object, str)


class Job(QRunnable):
    """Qt-free work on the thread pool (a model's computation, a layout search); its result or
    error comes back by a queued signal, tagged with the generation that asked for it."""

    def __init__(self, work: Callable[[], object], generation: int):
        super().__init__()
        self.work, self.generation = work, generation
        self.signals = JobSignals()

    def run(self) -> None:
        try:
            result = self.work()
        except Exception as exc:  # reported in the dock, never raised on a worker
            report(self.signals.done, self.generation, None, f"{type(exc).__name__}: {exc}")
        else:
            report(self.signals.done, self.generation, result, "")
