"""Reading a scenario file's bytes, bounded: a regular file of at most :data:`MAX_BYTES`, never
more read than that (``/dev/zero`` ends at once), never a wait on a FIFO."""

from __future__ import annotations

import os
import stat

from gpuviz.atomic import file_kind
from gpuviz.scenario.problems import Problem, ScenarioError

MAX_BYTES = 8 * 1024 * 1024


def read_limited(path: str | os.PathLike[str], source: str | None = None,
                 what: str = "a scenario", suffix: str = ".json") -> bytes:
    """The bytes of a regular file of at most :data:`MAX_BYTES`, or a ScenarioError. Never reads
    more than the limit (``/dev/zero`` and the like end at once), and never waits on a FIFO.
    ``what`` names the kind of file in the messages (a scenario, a measurement file, …)."""
    source = str(path) if source is None else source
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ScenarioError(source, [Problem("$", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError(source, [Problem("$", f"this is a folder, not {what} file")]) from None
    except (OSError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e)
        raise ScenarioError(source, [Problem("$", f"cannot read the file ({why})")]) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ScenarioError(source, [Problem("$", f"this is a folder, not {what} file")])
        if not stat.S_ISREG(info.st_mode):
            raise ScenarioError(source, [Problem("$", f"this is {file_kind(info.st_mode)}, not a "
                                                      f"regular file; {what} is a {suffix} file")])
        if info.st_size > MAX_BYTES:
            raise ScenarioError(source, [Problem("$", too_big(info.st_size, what=what))])
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_BYTES:  # it grew while being read
            raise ScenarioError(source, [Problem("$", too_big(total, "at least ", what))])
        return b"".join(chunks)
    except OSError as e:
        raise ScenarioError(source, [Problem("$", f"cannot read the file ({e.strerror})")]) from None
    finally:
        os.close(fd)


def too_big(size: int, prefix: str = "", what: str = "a scenario") -> str:
    return f"the file is {prefix}{size:,} bytes; {what} is at most {MAX_BYTES:,} bytes"
