"""Start the real application in a real X server (Xvfb), take a screenshot from outside, and
check that the launch figure is drawn, not a blank window."""

from __future__ import annotations

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
        time.sleep(1.5)  # first paint
        shot = tmp_path / "screen.png"
        subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True, timeout=60)
        _check_screenshot(shot)
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
    # and the masked grey (#E4E7EB) of the masked lanes and quantization slots
    grey = (np.abs(px - np.array([0xE4, 0xE7, 0xEB])).sum(axis=2) < 12).sum()
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


def _geometry(env, wid: str) -> tuple[int, int]:
    out = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], env=env,
                         capture_output=True, text=True, check=True).stdout
    values = dict(line.split("=", 1) for line in out.split())
    return int(values["WIDTH"]), int(values["HEIGHT"])


def test_under_a_window_manager_f11_toggles_full_screen_and_page_down_steps(xserver_with_wm):
    """F11 (as the README says) fills the screen and gives it back; PageDown, sent from
    outside like a presenter remote, steps the lecture: the window title never gains the
    modified mark."""
    env = dict(xserver_with_wm, QT_QPA_PLATFORM="xcb")
    app = subprocess.Popen([sys.executable, "-m", "gpuviz", str(ROOT / "scenarios" / "pipeline-double-buffer.json")], env=env,
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True)
    try:
        deadline = time.time() + 60
        wid = ""
        while not wid:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.pid),
                                    "--name", "gpuviz"], env=env, capture_output=True, text=True)
            wid = found.stdout.split()[0] if found.returncode == 0 and found.stdout.strip() else ""
            if app.poll() is not None:
                pytest.fail(f"the app exited: {app.stderr.read().decode()[-2000:]}")
            if time.time() > deadline:
                pytest.fail("no gpuviz window appeared within 60 s")
            time.sleep(0.2)
        time.sleep(2.0)  # first paint and the completed window (its shortcuts)
        windowed = _geometry(env, wid)
        subprocess.run(["xdotool", "windowactivate", "--sync", wid], env=env, check=False)
        subprocess.run(["xdotool", "key", "F11"], env=env, check=True)
        time.sleep(1.0)
        assert _geometry(env, wid) == (1280, 720), "F11 did not fill the screen"
        subprocess.run(["xdotool", "key", "F11"], env=env, check=True)
        time.sleep(1.0)
        assert _geometry(env, wid) == windowed, "F11 again did not give the window back"
        for _ in range(6):  # past the last of the three steps
            subprocess.run(["xdotool", "key", "Next"], env=env, check=True)
            time.sleep(0.2)
        title = subprocess.run(["xdotool", "getwindowname", wid], env=env, capture_output=True,
                               text=True).stdout
        assert "*" not in title, f"stepping edited the lecture: {title!r}"
    finally:
        os.killpg(app.pid, signal.SIGTERM)
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(app.pid, signal.SIGKILL)
