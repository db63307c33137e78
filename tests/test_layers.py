"""DESIGN.md's layers, checked: models, scenario and figures never import Qt, and an SVG export
runs with Qt made unimportable."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QT = ("PySide6", "pyqtgraph", "shiboken6")
QT_FREE = ("models", "scenario", "figures", "lecture")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_qt_free_packages_import_no_qt_and_no_ui():
    offenders = []
    for pkg in QT_FREE:
        for path in (ROOT / "gpuviz" / pkg).rglob("*.py"):
            for name in _imports(path):
                top = name.split(".")[0]
                if top in QT or name.startswith("gpuviz.ui") or name.startswith("gpuviz.export"):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, offenders


def test_models_import_only_numpy_networkx_stdlib_and_models():
    allowed_third_party = {"numpy", "networkx"}
    offenders = []
    for path in (ROOT / "gpuviz" / "models").rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if (top == "gpuviz" and not name.startswith("gpuviz.models")) or (top != "gpuviz" and top not in allowed_third_party and top not in sys.stdlib_module_names):
                offenders.append(f"{path.name} imports {name}")
    assert not offenders, offenders


SCRIPT = r"""
import sys, importlib, pkgutil, tempfile, pathlib

class NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "pyqtgraph", "shiboken6"):
            raise ImportError(f"{name} is not allowed here")
        return None

sys.meta_path.insert(0, NoQt())
import gpuviz
for pkg in ("models", "scenario", "figures"):
    mod = importlib.import_module(f"gpuviz.{pkg}")
    for info in pkgutil.iter_modules(mod.__path__):
        importlib.import_module(f"gpuviz.{pkg}.{info.name}")
from gpuviz.cli import main
from gpuviz.scenario import bundled_scenarios
out = tempfile.mkdtemp()
for path in bundled_scenarios():
    assert main(["export", str(path), "--out", out, "--format", "svg"]) == 0, path
    assert main(["compute", str(path)]) == 0, path
assert not any(m.split(".")[0] in ("PySide6", "pyqtgraph") for m in sys.modules), "Qt was imported"
print("ok", len(list(pathlib.Path(out).iterdir())))
"""


def test_svg_export_and_compute_run_with_qt_unimportable():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1].startswith("ok")


def test_the_import_graph_has_no_circle():
    """No module imports, directly or through others, a module that imports it back: lazy
    imports inside functions and imports made only for type annotations (``if TYPE_CHECKING:``)
    included."""
    import grimp

    graph = grimp.build_graph("gpuviz", exclude_type_checking_imports=False)
    done: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        path.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported in path:
                circles.append([*path[path.index(imported):], imported])
            elif imported not in done:
                visit(imported, path)
        path.pop()
        done.add(module)

    for module in sorted(graph.modules):
        if module not in done:
            visit(module, [])
    assert not circles, circles


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


#: What a file must hold to take an underscored name from another module (parsing every file
#: takes seconds on a loaded machine; these find the few worth parsing)
_PRIVATE_IMPORT = re.compile(r"^\s*from (?:gpuviz|\.)\S* import [^\n]*(?:\(|\\\s*$|\b_[A-Za-z])",
                             re.M)
_PRIVATE_ATTRIBUTE = re.compile(r"(?<![\w.])(?!self\.|cls\.)[A-Za-z_]\w*\._[A-Za-z]")


def _private_uses(source: str) -> list[str]:
    """Every underscored name one module takes from another: ``from gpuviz.x import _y``, and
    ``x._y`` where ``x`` names a gpuviz module (``import gpuviz.x as x``, ``from gpuviz import
    x``). Dunder names (``__version__``) are public."""
    if not (_PRIVATE_IMPORT.search(source) or _PRIVATE_ATTRIBUTE.search(source)):
        return []
    modules: dict[str, str] = {}
    found, attributes = [], []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                "gpuviz")):
            for a in node.names:
                if _private(a.name):
                    found.append(f"line {node.lineno}: from {node.module} import {a.name}")
                elif node.module and _is_module(f"{node.module}.{a.name}"):
                    modules[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("gpuviz") and a.asname:
                    modules[a.asname] = a.name
        elif isinstance(node, ast.Attribute) and _private(node.attr) and \
                isinstance(node.value, ast.Name):
            attributes.append(node)
    found += [f"line {n.lineno}: {modules[n.value.id]}.{n.attr}" for n in attributes
              if n.value.id in modules]  # type: ignore[attr-defined]
    return found


def test_no_module_takes_an_underscored_name_from_another():
    """A name shared between modules is public; an underscore means "this module's own"."""
    offenders = [f"{path.relative_to(ROOT)} {use}" for path in sorted((ROOT / "gpuviz").rglob(
        "*.py")) for use in _private_uses(path.read_text(encoding="utf-8"))]
    assert not offenders, offenders


def test_an_underscored_name_taken_from_another_module_is_found():
    assert _private_uses("from gpuviz.scenario.decode import BAD, _merge\n") == [
        "line 1: from gpuviz.scenario.decode import _merge"]
    assert _private_uses("from gpuviz import keys\nkeys._escape('a')\n") == [
        "line 2: gpuviz.keys._escape"]
    assert _private_uses("from gpuviz import __version__\nself._x = 1\n") == []


def _window_uses(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The members of the window a window module uses, and those it assigns: attributes of a
    name ``window`` or ``w`` and of ``self.window``."""
    used, assigned = set(), set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        if (isinstance(v, ast.Name) and v.id in ("window", "w")) or (
                isinstance(v, ast.Attribute) and v.attr == "window"
                and isinstance(v.value, ast.Name) and v.value.id == "self"):
            used.add(node.attr)
            if isinstance(node.ctx, ast.Store):
                assigned.add(node.attr)
    return used, assigned


def test_the_window_api_declares_what_the_window_modules_use_and_main_window_has_it():
    """``ui/window_api.WindowApi`` stands for ``MainWindow`` in the modules the window is made of
    (so they do not import it back): each member they use is declared, and each declared member
    is MainWindow's (defined in its class, set on it by itself or by a window module, or Qt's)."""
    from PySide6.QtWidgets import QMainWindow

    from gpuviz.ui.window_api import MEMBERS

    modules = [p for p in sorted((ROOT / "gpuviz" / "ui").glob("*.py"))
               if "WindowApi" in p.read_text(encoding="utf-8") and p.name != "window_api.py"]
    assert len(modules) >= 8
    undeclared, defined = [], set()
    for path in modules:
        used, assigned = _window_uses(ast.parse(path.read_text(encoding="utf-8")))
        undeclared += [f"{path.name}: {name}" for name in sorted(used - MEMBERS)]
        defined |= assigned
    assert not undeclared, undeclared
    main = ast.parse((ROOT / "gpuviz" / "ui" / "main_window.py").read_text(encoding="utf-8"))
    cls = next(n for n in main.body if isinstance(n, ast.ClassDef) and n.name == "MainWindow")
    defined |= {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    defined |= {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute)
                and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name)
                and n.value.id == "self"}
    missing = sorted(m for m in MEMBERS if m not in defined and not hasattr(QMainWindow, m))
    assert not missing, missing

