"""Running gpuviz on hostile input as a user would: a subprocess with an address-space limit and
a timeout, checked for the promises every command keeps."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

MEMORY_LIMIT = 2 * 1024**3  # bytes of address space
TIMEOUT = 20  # seconds per command


def _limit_memory(limit: int = MEMORY_LIMIT) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def gpuviz(*args: object, timeout: float = TIMEOUT, memory: int = MEMORY_LIMIT,
           **popen) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONWARNINGS="default")
    env.pop("DISPLAY", None)
    env.pop("GPUVIZ_DEBUG", None)
    popen.setdefault("stdin", subprocess.DEVNULL)
    popen.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-m", "gpuviz", *map(str, args)], env=env,
                          timeout=timeout, preexec_fn=lambda: _limit_memory(memory), **popen)


def text(stream: bytes) -> str:
    return stream.decode("utf-8", errors="backslashreplace")


def assert_clean(proc: subprocess.CompletedProcess, allowed=(0, 2)) -> None:
    """Exit 0 or 2, and neither a traceback nor a Python warning on standard error."""
    err = text(proc.stderr)
    assert proc.returncode in allowed, f"exit {proc.returncode}: {err[-2000:]}"
    assert "Traceback" not in err, err[-4000:]
    assert "Warning:" not in err, err[-2000:]
    assert "internal error" not in err, err[-2000:]


def assert_terminal_safe(stream: bytes) -> None:
    """No control character but newline reaches the terminal (an escape sequence in a file is
    shown, never obeyed)."""
    s = text(stream)
    bad = [c for c in s if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0]
    assert not bad, f"control characters {bad[:5]!r} in {s[:300]!r}"


def assert_svgs_well_formed(folder: Path) -> int:
    count = 0
    for svg in folder.glob("*.svg"):
        ET.parse(svg)  # raises ParseError on anything not well-formed
        count += 1
    return count


def assert_json(proc: subprocess.CompletedProcess) -> object:
    return json.loads(proc.stdout.decode("utf-8"))
