"""The window's own entry point, ``gpuviz-app [SCENARIO]``: a GUI script (no console window on
Windows) for desktop entries and the bundled app. ``gpuviz`` with no command opens the same
window from a terminal."""

from __future__ import annotations

import gc
import sys


def main() -> int:
    gc.disable()  # until the window is complete (gpuviz.ui.app.start)
    from gpuviz.ui.app import run_app  # Qt only here

    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    return run_app(args[0] if args else None)


if __name__ == "__main__":
    sys.exit(main())
