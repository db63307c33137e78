"""A headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``):
load a file, press keys, evaluate script, take screenshots, and collect console errors.

No driver library: the protocol is JSON messages separated by NUL bytes on file descriptors 3
(to the browser) and 4 (from it)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio",
         "--remote-debugging-pipe"]
KEYS = {"PageDown": 34, "PageUp": 33, "ArrowRight": 39, "ArrowLeft": 37, "ArrowDown": 40,
        "ArrowUp": 38, "Home": 36, "End": 35, " ": 32}


class Browser:
    def __init__(self, width: int = 1280, height: int = 720, *, dark: bool = False,
                 mobile: bool = False) -> None:
        assert CHROMIUM, "chromium is not installed"
        self.profile = tempfile.mkdtemp(prefix="gpuviz-chromium-")
        to_r, to_w = os.pipe()      # we write, the browser reads on fd 3
        from_r, from_w = os.pipe()  # the browser writes on fd 4, we read

        def child() -> None:
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=child, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.out = os.fdopen(to_w, "wb", buffering=0)
        self.inp = os.fdopen(from_r, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                  height=height, deviceScaleFactor=1, mobile=mobile)
        self.call("Emulation.setEmulatedMedia", session=True, features=[
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])

    # -- the protocol -------------------------------------------------------------------
    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self.out.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise TimeoutError(method)

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self.buf:
            chunk = self.inp.read(1 << 16)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    # -- what a test does ---------------------------------------------------------------
    def open(self, path: Path) -> None:
        self.call("Page.navigate", session=True, url=path.resolve().as_uri())
        self.wait_for("document.readyState === 'complete'")

    def wait_for(self, expression: str, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.eval(expression):
                return
            time.sleep(0.05)
        raise TimeoutError(expression)

    def eval(self, expression: str) -> Any:
        reply = self.call("Runtime.evaluate", session=True, expression=expression,
                          returnByValue=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(reply["exceptionDetails"])
        return reply["result"].get("value")

    def press(self, key: str) -> None:
        code = KEYS[key]
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code,
                      text=key if kind == "keyDown" and key == " " else "")

    def click(self, selector: str) -> None:
        self.eval(f"document.querySelector({json.dumps(selector)}).click()")

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.call("Page.captureScreenshot", session=True,
                                          format="png")["data"])
        path.write_bytes(data)
        return data

    def pdf(self) -> bytes:
        return base64.b64decode(self.call("Page.printToPDF", session=True)["data"])

    def console_errors(self) -> list[str]:
        errors = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(str(params.get("exceptionDetails", {}).get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                errors.append(" ".join(str(a.get("value")) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append(str(params["entry"].get("text")))
        return errors

    def close(self) -> None:
        with contextlib.suppress(OSError, EOFError, TimeoutError, RuntimeError):
            self.call("Browser.close")
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.out.close()
        self.inp.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
