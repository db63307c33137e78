"""Writing a file atomically, for every writer in gpuviz (scenarios, exported figures and
animations, measurement files): a crash never leaves half a file, and nothing the user owns is
lost. Standard library only, so that any layer may use it."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash never leaves half a file, and nothing the user
    owns is lost:

    - a symbolic link stays a link: its target is written (the link's folder never gets a copy);
    - an existing file keeps its permission bits, owner and group (as far as this user may);
    - a new file gets the permissions the umask allows (0644 with the usual umask);
    - the data goes to a temporary file beside the target, is flushed and fsynced, renamed over
      the target, and the folder is fsynced so the rename itself survives a crash;
    - a file with several hard links is rewritten in place, so that every link keeps seeing the
      one file (a rename would split them): the new content is written and fsynced to a
      temporary file first (kept if the in-place write is interrupted), the space is reserved,
      then the file is overwritten, truncated and fsynced;
    - never inside the installed gpuviz package (the bundled scenarios and resources).
    """
    target = Path(os.path.realpath(path))
    refuse_package_target(target)
    try:
        existing: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        existing = None
    if existing is not None and stat.S_ISREG(existing.st_mode) and existing.st_nlink > 1:
        _write_in_place(target, data)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        if existing is not None and stat.S_ISREG(existing.st_mode):
            os.fchmod(fd, stat.S_IMODE(existing.st_mode))
            _keep_owner(fd, existing)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_folder(target.parent)


def _keep_owner(fd: int, existing: os.stat_result) -> None:
    if (existing.st_uid, existing.st_gid) == (os.getuid(), os.getgid()):
        return
    for uid, gid in ((existing.st_uid, existing.st_gid), (-1, existing.st_gid)):
        try:
            os.fchown(fd, uid, gid)
            return
        except OSError:  # only root gives a file away; a member of its group may keep the group
            continue


def _write_in_place(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    with open(target, "r+b") as f:
        if hasattr(os, "posix_fallocate") and data:
            try:
                os.posix_fallocate(f.fileno(), 0, len(data))  # no ENOSPC half-way through
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, getattr(errno, "ENOTSUP", -1)):
                    os.unlink(tmp)
                    raise
        f.write(data)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())
    os.unlink(tmp)
    _fsync_folder(target.parent)


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
