"""Writing a file: atomic, and with the permissions the user's umask gives."""
import os

import pytest

from attnviz.core import ScenarioError
from attnviz.core.files import atomic_write


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "s.json"
    target.write_text("old")

    def full_disk(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(ScenarioError, match="No space left"):
        atomic_write(target, b"new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["s.json"]


def test_a_saved_file_gets_the_usual_permissions_not_private_ones(tmp_path):
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "new.json", b"{}")
    finally:
        os.umask(umask)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o644
