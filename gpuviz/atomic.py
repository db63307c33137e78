"""Writing a file atomically, for every writer in gpuviz (scenarios, exported figures and
animations, measurement files): a crash never leaves half a file, and nothing the user owns is
lost. Standard library only, so that any layer may use it."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash never leaves half a file, and nothing the user
    owns is lost (see :func:`atomic_writer`)."""
    with atomic_writer(path) as f:
        f.write(data)


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, put in place only when the ``with`` block ends
    without an exception (a streamed animation is written frame by frame through it):

    - a symbolic link stays a link: its target is written (the link's folder never gets a copy);
    - an existing file keeps its permission bits, owner and group (as far as this user may);
    - a new file gets the permissions the umask allows (0644 with the usual umask);
    - the data goes to a temporary file beside the target, is flushed and fsynced, renamed over
      the target, and the folder is fsynced so the rename itself survives a crash; the temporary
      file never outlives a failure;
    - a file with several hard links is rewritten in place, so that every link keeps seeing the
      one file (a rename would split them): the new content is written and fsynced to a
      temporary file first, the space is reserved, then the file is overwritten, truncated and
      fsynced (the temporary copy is kept, and named in the error, only if that overwrite is
      interrupted);
    - a folder, a pipe (FIFO), a device or a socket is refused before anything is written, with
      an error naming the target (a pipe was silently replaced by a regular file);
    - never inside the installed gpuviz package (the bundled scenarios and resources);
    - never over an input being read (:func:`protecting`), through any link.
    """
    target, existing = checked_target(path)
    in_place = existing is not None and existing.st_nlink > 1
    try:  # the temporary name stays short: a target of NAME_MAX bytes must still be legal
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as e:
        raise _naming(e, path) from None
    try:
        if existing is not None:
            os.fchmod(fd, stat.S_IMODE(existing.st_mode))
            _keep_owner(fd, existing)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if in_place:
            _copy_in_place(tmp, target, path)
        else:
            os.replace(tmp, target)
    except BaseException as e:
        if os.path.exists(tmp) and not getattr(e, "keeps_copy", False):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.filename in (None, tmp):
            raise _naming(e, path) from None
        raise
    _fsync_folder(target.parent)


def checked_target(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """The file ``path`` names (links followed) and what is there now, once it is known that
    :func:`atomic_writer` may write it: raises, naming ``path``, for the installed package, a
    folder, a pipe, a device or a socket, and an input being read (:func:`protecting`). A
    writer that builds its data first calls it first too, so a refusal costs no build."""
    target = Path(os.path.realpath(path))
    refuse_package_target(target)
    try:
        existing: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        if stat.S_ISDIR(existing.st_mode):
            raise IsADirectoryError(errno.EISDIR, "this is a folder, not a file", str(path))
        raise OSError(errno.EINVAL, f"this is {file_kind(existing.st_mode)}, not a regular file; "
                                    "nothing was written", str(path))
    if existing is not None and (existing.st_dev, existing.st_ino) in _inputs:
        raise OSError(errno.EINVAL, "this is the input being exported (the same file, or a link "
                                    "to it); nothing was written, so it is kept", str(path))
    return target, existing


_inputs: set[tuple[int, int]] = set()  # (device, inode) of the files being read


@contextmanager
def protecting(paths: Iterable[str | os.PathLike[str] | None]) -> Iterator[None]:
    """While inside, never write over the files at ``paths`` (the scenarios being exported): a
    target that is one of them, through a symbolic or a hard link, is refused."""
    added = set()
    for path in paths:
        try:
            st = os.stat(path) if path is not None else None
        except OSError:
            continue
        if st is not None and (st.st_dev, st.st_ino) not in _inputs:
            added.add((st.st_dev, st.st_ino))
    _inputs.update(added)
    try:
        yield
    finally:
        _inputs.difference_update(added)


def _naming(e: OSError, path: str | os.PathLike[str]) -> OSError:
    """``e`` as an error about ``path`` (the user's target), not about a temporary file."""
    out = OSError(e.errno, e.strerror or str(e), str(path))
    if getattr(e, "keeps_copy", False):
        out.keeps_copy = True  # type: ignore[attr-defined]
    return out


def file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _keep_owner(fd: int, existing: os.stat_result) -> None:
    if (existing.st_uid, existing.st_gid) == (os.getuid(), os.getgid()):
        return
    for uid, gid in ((existing.st_uid, existing.st_gid), (-1, existing.st_gid)):
        try:
            os.fchown(fd, uid, gid)
            return
        except OSError:  # only root gives a file away; a member of its group may keep the group
            continue


def _copy_in_place(tmp: str, target: Path, path: str | os.PathLike[str]) -> None:
    """Overwrite the hard-linked ``target`` with the fsynced ``tmp``, then remove ``tmp``."""
    with open(tmp, "rb") as src:
        data = src.read()
    with open(target, "r+b") as f:  # fails (read-only, immutable) before anything is changed
        if hasattr(os, "posix_fallocate") and data:
            try:
                os.posix_fallocate(f.fileno(), 0, len(data))  # no ENOSPC half-way through
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, getattr(errno, "ENOTSUP", -1)):
                    raise
        try:
            f.write(data)
            f.truncate()
            f.flush()
            os.fsync(f.fileno())
        except OSError as e:  # the file is half overwritten: the whole new content stays in tmp
            kept = OSError(e.errno, f"{e.strerror}; the new content is kept in {tmp}", str(path))
            kept.keeps_copy = True  # type: ignore[attr-defined]
            raise kept from None
    os.unlink(tmp)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder
        pass
    finally:
        os.close(fd)


def package_folders() -> list[Path]:
    """The installed folders that gpuviz reads and must never write: its bundled scenarios and
    resources."""
    from importlib import resources

    out = []
    for name in ("gpuviz.scenarios", "gpuviz.resources"):
        try:
            out.append(Path(os.path.realpath(str(resources.files(name)))))
        except (ModuleNotFoundError, TypeError, OSError):
            continue
    return out


def refuse_package_target(target: Path) -> None:
    """PermissionError when ``target`` (resolved) lies inside :func:`package_folders`."""
    resolved = Path(os.path.realpath(target))
    for folder in package_folders():
        if resolved == folder or folder in resolved.parents:
            raise PermissionError(errno.EACCES, "this is inside the installed gpuviz package "
                                                "(its bundled files are read-only); save a copy "
                                                "in another folder", str(target))
