"""A small tmpfs for tests of a full or read-only disk (root only; the test is skipped where
mounting is not allowed)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def mounted_tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """``folder`` (created) with a tmpfs of ``size`` (``mount``'s ``size=``: ``64k``, ``8m``)
    mounted on it while the generator runs; unmounted after."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
