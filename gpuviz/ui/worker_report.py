"""Reports from worker threads (a model's computation, a layout search, the traversal sweep,
gallery thumbnails) go back to the GUI by queued signals. The object that carries them can be
gone by the time the work ends: its dock closed, another scenario opened, the application
quitting. Then the report is dropped, and the work told to stop, instead of raising
"Signal source has been deleted" on the worker."""

from __future__ import annotations

from typing import Any


def report(signal: Any, *args: object) -> bool:
    """Emit ``signal`` with ``args``; False when its object no longer exists."""
    try:
        signal.emit(*args)
    except RuntimeError:  # the C++ object behind the signal was deleted
        return False
    return True
