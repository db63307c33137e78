"""The application: main window, docks, document, painter on screen (Qt lives only here and in
the PDF/PNG part of export).

The Qt-free core that every window draws with is imported here, before any ``gpuviz.ui``
module imports Qt: once PySide is loaded it reads the source of every module imported after
it (looking for its ``__feature__`` switches), a fraction of a millisecond each, which start-up
need not pay for the core's modules and the standard library under them."""

import gpuviz.figures.layout
import gpuviz.figures.scene
import gpuviz.scenario
import gpuviz.ui.panel_extras
import gpuviz.ui.redraw_plan
import gpuviz.ui.view_layout  # noqa: F401
