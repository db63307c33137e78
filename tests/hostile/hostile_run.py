"""Running gpuviz on hostile input as a user would: a subprocess with an address-space limit and
a timeout, or the same command in this process under the same caps (``gpuviz_here``), checked
for the promises every command keeps."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
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


# --- the same command in this process ---------------------------------------------------------
# Starting ``python -m gpuviz`` costs about 0.3 s a run before gpuviz reads its input. Where the
# behaviour under test is not the process's own (its standard streams, a pipe, a signal, an
# environment without a display), ``gpuviz_here`` runs the command through ``cli.main`` in this
# process instead and gives the same answer: the exit status (argparse's SystemExit included),
# standard output and error as bytes, written through file descriptors 1 and 2 and encoded as a
# child's are (C.UTF-8: surrogateescape on output, backslashreplace on error), every Python
# warning said on standard error (as PYTHONWARNINGS=default, but each time), an exception that
# escapes ``main`` printed as the interpreter prints it (a traceback, exit 1), and the caps kept:
# the address space may grow by no more than a fresh process under ``memory`` could (its start
# counted as BASELINE), its peak resident memory is checked against ``memory``, and the run must
# finish within ``timeout`` seconds. ``hostile_table.py`` runs the same cases as capped processes.

BASELINE = 256 * 1024**2  # a fresh gpuviz process's address space before it reads input (~150 MB)


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise LookupError(field)


def _reset_peak_resident() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")  # resets VmHWM, the peak resident set (Linux 4.0)
        return True
    except OSError:
        return False


@contextlib.contextmanager
def _address_space_growth(limit: int):
    """RLIMIT_AS lowered to this process's present size plus ``limit`` for the block."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _status_kib("VmSize") + limit
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextlib.contextmanager
def _standard_streams():
    """File descriptors 0, 1 and 2 and sys.stdin/stdout/stderr as a child started with stdin
    from /dev/null and both outputs captured has them; yields the two capture files."""
    with (tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err,
          open(os.devnull, "rb") as null):
        saved = {fd: os.dup(fd) for fd in (0, 1, 2)}
        streams = sys.stdin, sys.stdout, sys.stderr
        for stream in streams[1:]:
            with contextlib.suppress(Exception):
                stream.flush()
        os.dup2(null.fileno(), 0)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8",
                                     errors="surrogateescape")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="surrogateescape")
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        try:
            yield out, err
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            sys.stdin, sys.stdout, sys.stderr = streams
            for fd, copy in saved.items():
                os.dup2(copy, fd)
                os.close(copy)


def gpuviz_here(*args: object, timeout: float = TIMEOUT,
                memory: int = MEMORY_LIMIT) -> subprocess.CompletedProcess:
    """``gpuviz args`` run by ``cli.main`` in this process, answered as ``gpuviz`` would be."""
    from gpuviz import cli

    argv = [str(a) for a in args]
    env = {name: os.environ.pop(name) for name in ("GPUVIZ_DEBUG", "DISPLAY") if name in os.environ}
    rss = _status_kib("VmRSS")
    measured = _reset_peak_resident()
    started = time.perf_counter()
    try:
        with _standard_streams() as (out, err), warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                with _address_space_growth(memory - BASELINE):
                    status = cli.main(argv)
            except SystemExit as stop:  # argparse's refusals and --help
                code = stop.code
                status = code if isinstance(code, int) else (0 if code is None else 1)
                if code is not None and not isinstance(code, int):
                    print(code, file=sys.stderr)
            except Exception:  # escaped main: the interpreter would print it and exit 1
                traceback.print_exc()
                status = 1
            for w in said:
                sys.stderr.write(warnings.formatwarning(w.message, w.category, w.filename,
                                                        w.lineno))
            sys.stdout.flush()
            sys.stderr.flush()
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
    finally:
        os.environ.update(env)
    elapsed = time.perf_counter() - started
    assert elapsed <= timeout, f"gpuviz {' '.join(argv)[:200]}: {elapsed:.1f} s, over {timeout} s"
    if measured:
        peak = _status_kib("VmHWM") - rss
        assert peak <= memory - BASELINE, (f"gpuviz {' '.join(argv)[:200]}: "
                                           f"{peak / 1024**2:.0f} MB more resident memory")
    return subprocess.CompletedProcess(argv, 0 if status is None else status, stdout, stderr)
