"""`dfsched build` (local processes and Ray) and `dfsched cache` commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dfsched
from dfsched.cache.store import Store

ROOT = Path(dfsched.__file__).resolve().parent
BAD = "module {\n  func.func @bad() attributes {grid = [1]} {\n    %0 = arith.constant 1 : i32 i32\n  }\n}\n"


def dfsched_cli(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dfsched.tools.driver", *args], capture_output=True, text=True,
                          env=dict(os.environ, DFSCHED_CACHE_DIR=str(cache)), timeout=900)


@pytest.fixture
def kernels(tmp_path):
    folder = tmp_path / "kernels"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "add.mlir", folder / "add.mlir")
    shutil.copy(ROOT / "examples" / "add_2tile.mlir", folder / "sub" / "add_2tile.mlir")
    (folder / "bad.mlir").write_text(BAD)
    return folder


def test_build_a_folder_with_a_failing_kernel(kernels, tmp_path):
    cache = tmp_path / "cache"
    cold = dfsched_cli(["build", str(kernels), "--device", "sample", "--jobs", "2"], cache)
    assert cold.returncode == 1, cold.stderr
    lines = cold.stdout.splitlines()
    rows = {name: next(line for line in lines if name in line and "│" in line)
            for name in ("add.mlir", "add_2tile.mlir", "bad.mlir")}
    assert "miss" in rows["add.mlir"] and "miss" in rows["add_2tile.mlir"] and "failed" in rows["bad.mlir"]
    assert f"{kernels / 'bad.mlir'}:3:33: error: unregistered operation 'i32'" in cold.stdout
    assert "3 kernels: 0 hits, 2 misses, 1 failed" in cold.stdout
    assert len(Store(cache).keys()) == 2
    warm = dfsched_cli(["build", str(kernels), "--device", "sample", "--jobs", "1"], cache)
    assert warm.returncode == 1 and "3 kernels: 2 hits, 0 misses, 1 failed" in warm.stdout


def test_build_usage_errors(tmp_path):
    assert dfsched_cli(["build", str(tmp_path)], tmp_path / "c").returncode == 2  # no kernels
    bad_bind = dfsched_cli(["build", str(tmp_path), "--bind", "n=four"], tmp_path / "c")
    assert bad_bind.returncode == 2 and "not a number" in bad_bind.stderr


def test_cache_commands(kernels, tmp_path):
    cache = tmp_path / "cache"
    dfsched_cli(["build", str(kernels / "add.mlir"), "--device", "sample", "--jobs", "1"], cache)
    stats = dfsched_cli(["cache", "stats"], cache)
    assert stats.returncode == 0 and "entries: 1" in stats.stdout and str(cache) in stats.stdout
    listing = dfsched_cli(["cache", "list"], cache)
    assert "add  sample_device  programs=1" in listing.stdout
    assert dfsched_cli(["cache", "verify"], cache).returncode == 0
    assert "evicted 0 entries" in dfsched_cli(["cache", "prune"], cache).stdout
    assert "evicted 1 entries" in dfsched_cli(["cache", "prune", "--max-mb", "0"], cache).stdout
    dfsched_cli(["build", str(kernels / "add.mlir"), "--device", "sample", "--jobs", "1"], cache)
    assert "removed 1 entries" in dfsched_cli(["cache", "clear"], cache).stdout
    assert Store(cache).keys() == []


def test_build_on_a_local_ray_with_two_cpus(kernels, tmp_path):
    try:
        import ray  # noqa: F401
    except ImportError:
        pytest.skip("Ray is not installed (pip install -e '.[ray]'): dfsched build --ray is not tested")
    (kernels / "bad.mlir").unlink()
    cache = tmp_path / "cache"
    run = dfsched_cli(["build", str(kernels), "--device", "sample", "--ray", "--jobs", "2"], cache)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kernels: 0 hits, 2 misses, 0 failed" in run.stdout
    assert len(Store(cache).keys()) == 2
