"""Saving never loses what a user owns: permissions, owner, symbolic and hard links, the
bundled scenarios, and the rename itself (the folder is fsynced)."""

from __future__ import annotations

import os
import stat

import pytest

from gpuviz.atomic import package_folders, write_atomic
from gpuviz.scenario import Scenario, load_scenario, save_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_a_private_file_stays_private(tmp_path):
    target = tmp_path / "s.json"
    target.write_text("old")
    target.chmod(0o600)
    save_scenario(Scenario(title="new"), target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert load_scenario(target).title == "new"


def test_unusual_permission_bits_are_kept(tmp_path):
    target = tmp_path / "s.json"
    target.write_text("old")
    target.chmod(0o640)
    save_scenario(Scenario(), target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path):
    real = tmp_path / "lectures" / "real.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    save_scenario(Scenario(title="through the link"), link)
    assert link.is_symlink()
    assert load_scenario(real).title == "through the link"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lectures", "link.json"]
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.json"]


def test_a_chain_of_symlinks_and_a_dangling_one(tmp_path):
    real = tmp_path / "real.json"
    (tmp_path / "b.json").symlink_to(real)  # dangling until the save creates the target
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    save_scenario(Scenario(title="t"), tmp_path / "a.json")
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()
    assert load_scenario(real).title == "t"


def test_hard_links_keep_sharing_one_file(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text("old content that is longer than what replaces it " * 40)
    os.link(one, two)
    one.chmod(0o604)
    save_scenario(Scenario(title="shared"), one)
    assert os.stat(one).st_ino == os.stat(two).st_ino
    assert os.stat(one).st_nlink == 2
    assert load_scenario(two).title == "shared"
    assert stat.S_IMODE(os.stat(two).st_mode) == 0o604
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.json", "two.json"]


def test_a_failed_write_to_a_hard_linked_file_keeps_it_whole(tmp_path, monkeypatch):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text('{"version": 1, "title": "old"}')
    os.link(one, two)

    def disk_full(fd, offset, length):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("gpuviz.atomic.os.posix_fallocate", disk_full, raising=False)
    with pytest.raises(OSError):
        write_atomic(one, b'{"version": 1, "title": "new"}' + b" " * 100)
    assert load_scenario(two).title == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.json", "two.json"]


def test_the_file_and_its_folder_are_fsynced(tmp_path, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def record(fd):
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr("gpuviz.atomic.os.fsync", record)
    save_scenario(Scenario(), tmp_path / "s.json")
    assert synced == ["file", "folder"]


@pytest.mark.parametrize("name", ["launch-n130.json", "brand-new.json"])
def test_never_writes_inside_the_installed_package(name):
    target = scenario_dir() / name
    before = target.read_bytes() if target.exists() else None
    with pytest.raises(PermissionError, match="inside the installed gpuviz package"):
        save_scenario(Scenario(title="overwritten"), target)
    assert (target.read_bytes() if target.exists() else None) == before


def test_a_link_into_the_package_is_refused_too(tmp_path):
    link = tmp_path / "innocent.json"
    link.symlink_to(scenario_dir() / "launch-n130.json")
    before = link.read_bytes()
    with pytest.raises(PermissionError):
        save_scenario(Scenario(title="overwritten"), link)
    assert link.read_bytes() == before
    assert scenario_dir().resolve() in package_folders()


def test_text_that_is_not_unicode_is_refused_before_anything_is_written(tmp_path):
    target = tmp_path / "s.json"
    target.write_text("old")
    with pytest.raises(ValueError, match="lone surrogate"):
        save_scenario(Scenario(title="half \ud800 a pair"), target)
    assert target.read_text() == "old"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="only root can give a file to another user")
def test_owner_and_group_are_kept(tmp_path):
    target = tmp_path / "s.json"
    target.write_text("old")
    os.chown(target, 4321, 4322)
    save_scenario(Scenario(), target)
    info = os.stat(target)
    assert (info.st_uid, info.st_gid) == (4321, 4322)
