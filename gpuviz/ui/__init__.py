"""The application: main window, docks, document, painter on screen (Qt lives only here and in
the PDF/PNG part of export).

The Qt-free core that every window draws with is imported here, before any ``gpuviz.ui``
module imports Qt: once PySide is loaded it reads the source of every module named in an import
after it (looking for its ``__feature__`` switches: a module whose source names PySide6 gets
the default selection 0, any other is ignored, -1), a fraction of a millisecond each, which
start-up need not pay for the core's modules and the standard library under them. What the
reading would find is then told to PySide up front (``_told_to_pyside``): gpuviz selects no
``__feature__`` anywhere, so its modules take the default and every module already loaded,
imported before Qt, is ignored; the reading of some 70 modules (9 ms of start-up) is spared."""

import os
import sys

import gpuviz.figures.layout
import gpuviz.figures.scene
import gpuviz.scenario
import gpuviz.ui.panel_extras
import gpuviz.ui.redraw_plan
import gpuviz.ui.view_layout  # noqa: F401


def _told_to_pyside() -> None:
    import PySide6  # noqa: F401  (loads its import hook and the table the hook fills)

    known = getattr(sys.modules.get("shibokensupport.feature"), "pyside_feature_dict", None)
    if not isinstance(known, dict):
        return  # another PySide: it reads the sources as before
    for name in list(sys.modules):
        known.setdefault(name, -1)
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # gpuviz/
    top = os.path.dirname(package_dir)
    for folder, dirs, files in os.walk(package_dir):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        package = os.path.relpath(folder, top).replace(os.sep, ".")
        known.setdefault(package, 0)
        for f in files:
            if f.endswith(".py") and f != "__init__.py":
                known.setdefault(f"{package}.{f[:-3]}", 0)


_told_to_pyside()
