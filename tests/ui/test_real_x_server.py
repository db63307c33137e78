"""Start the real application in a real X server (Xvfb), take a screenshot from outside, and
check that the launch figure is drawn, not a blank window."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("Xvfb", "xdotool", "import")

pytestmark = pytest.mark.xvfb


def _free_display() -> int:
    for n in range(97, 140):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number")


@pytest.fixture
def xserver():
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (tools/system-deps.sh installs them)")
    n = _free_display()
    server = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1600x1000x24", "-noreset", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 15
    while not Path(f"/tmp/.X11-unix/X{n}").exists():
        if time.time() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    yield f":{n}"
    server.terminate()
    server.wait(timeout=10)


def test_the_app_draws_the_launch_figure_in_a_real_x_server(xserver, tmp_path):
    env = dict(os.environ, DISPLAY=xserver, QT_QPA_PLATFORM="xcb",
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_RUNTIME_DIR=str(tmp_path))
    app = subprocess.Popen([sys.executable, "-m", "gpuviz"], env=env, cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.time() + 60
        while True:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.pid),
                                    "--name", "gpuviz"], env=env, capture_output=True, text=True)
            if found.returncode == 0 and found.stdout.strip():
                break
            if app.poll() is not None:
                pytest.fail(f"the app exited: {app.stderr.read().decode()[-2000:]}")
            if time.time() > deadline:
                pytest.fail("no gpuviz window appeared within 60 s")
            time.sleep(0.2)
        shot = tmp_path / "screen.png"
        deadline = time.time() + 60  # a loaded machine paints late: look until it has painted
        while True:
            subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True,
                           timeout=60)
            try:
                _check_screenshot(shot)
                break
            except AssertionError:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
    finally:
        os.killpg(app.pid, signal.SIGTERM)
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(app.pid, signal.SIGKILL)


def _check_screenshot(path: Path) -> None:
    import numpy as np
    from PySide6.QtGui import QImage

    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
    assert not image.isNull()
    w, h = image.width(), image.height()
    px = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())
    px = px[:, : w * 3].reshape(h, w, 3).astype(int)
    assert px.std() > 20, "the screen is blank"
    # the valid-thread blue of the screen theme (#0072B2) fills the valid lanes and blocks
    blue = (np.abs(px - np.array([0x00, 0x72, 0xB2])).sum(axis=2) < 30).sum()
    assert blue > 2000, f"only {blue} pixels of the valid-lane colour: the launch figure is not drawn"
    # and the screen theme's masked grey of the masked lanes and quantization slots
    from gpuviz.figures.theme import THEMES

    masked = THEMES["screen"].color("masked")
    grey = (np.abs(px - np.array([int(masked[i:i + 2], 16) for i in (1, 3, 5)])).sum(axis=2)
            < 12).sum()
    assert grey > 2000, "masked cells are missing"


@pytest.fixture
def xserver_with_wm(tmp_path):
    """Xvfb at a projector's 1280×720 with a window manager (openbox), so that full screen,
    maximizing and window sizes behave as on a desktop."""
    missing = [t for t in (*TOOLS, "openbox") if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    n = _free_display()
    server = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x720x24", "-noreset",
                               "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.time() + 15
    while not Path(f"/tmp/.X11-unix/X{n}").exists():
        if time.time() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    env = dict(os.environ, DISPLAY=f":{n}", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_RUNTIME_DIR=str(tmp_path), HOME=str(tmp_path))
    wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    yield env
    wm.terminate()
    wm.wait(timeout=10)
    server.terminate()
    server.wait(timeout=10)


def test_a_walk_through_the_lecture_hall_with_real_x_input(xserver_with_wm, tmp_path):
    """One start of the application under a window manager at 1280×720, driven by real key
    presses and clicks (``real_x_walk.py``): the step keys past both ends with a spin box
    focused, Ctrl+Z from that spin box, a click that only selects, F5 and Esc keeping the
    playback frame, the dark theme and the layout, F11, and a question veiling the figure and
    the controls' answer until PageDown."""
    env = dict(xserver_with_wm, QT_QPA_PLATFORM="xcb")
    out = tmp_path / "walk.json"
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "real_x_walk.py"),
                           str(out)], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert out.exists(), proc.stderr[-2000:]
    seen = json.loads(out.read_text())
    assert proc.returncode == 0, seen.get("error") or proc.stderr[-2000:]
    keys = seen["page_keys"]
    assert keys["focus_in_spin_box"], "the click did not focus the spin box"
    assert keys["step_past_the_end"] == keys["last"], "PageDown did not reach the last step"
    assert keys["tiles_at_the_end"] == keys["tiles_of_the_step"] \
        and keys["tiles_at_the_start"] == keys["tiles_before"], f"a step key edited: {keys}"
    assert keys["step_before_the_start"] == -1
    assert not keys["modified_at_the_end"] and not keys["modified_at_the_start"]
    undo = seen["undo"]
    assert undo["typed"] == 8 and undo["focus_in_spin_box"], undo
    assert undo["after_ctrl_z"] == undo["before"] and not undo["modified"], \
        f"Ctrl+Z in the spin box did not undo the lecture's edit: {undo}"
    click = seen["click"]
    assert click.get("selected"), f"a click did not select: {click}"
    assert click["same_state"] and click["step"] == click["step_before"] \
        and not click["modified"], f"a click changed the lecture: {click}"
    f5, esc = seen["f5"], seen["esc"]
    assert f5["active"] and f5["full_screen"] and f5["frame"] == 5, f5
    assert f5["dark"] and f5["figure_dark"], "F5 ignored the dark theme"
    # while the figures were laid out, the room saw the curtain in its background and
    # nothing else (with the window's updates off it saw the windowed picture, stretched)
    assert f5["waited"], f5
    assert all(c == [f5["room_background"]] for c in f5["covered"]), f5["covered"][:3]
    assert not esc["active"] and esc["frame"] == 5 and esc["theme"] == "dark", esc
    assert esc["same_layout"], "F5 and Esc left the docks split differently"
    f11 = seen["f11"]
    assert f11["full"] == f11["screen"], "F11 did not fill the screen"
    assert f11["back"] == f11["windowed"], "F11 again did not give the window back"
    veiled, revealed = seen["veiled"], seen["revealed"]
    assert veiled["step"] == veiled["ask"] and veiled["veiled"], veiled
    assert veiled["figure_veiled"] and veiled["figure_pixels"] == 0, "the figure shows"
    assert not veiled["measured_shown"] and not veiled["summary_shown"], \
        "the controls column gives the answer"
    assert not veiled["step_title_in_window_title"] and not veiled["step_title_in_step_bar"]
    assert not revealed["veiled"] and revealed["measured_shown"]
    assert revealed["figure_pixels"] > 1000, "PageDown did not reveal the figure"
