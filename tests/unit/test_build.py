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


class _RecordingRay:
    """Ray's API as `run_ray` uses it, run in this process: each task runs when `wait` hands it
    back, and every call is recorded."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.calls: list[tuple] = []
        self.fail_on = fail_on

    def init(self, **options) -> None:
        self.calls.append(("init", options))

    def remote(self, function):
        ray = self

        class Task:
            @staticmethod
            def remote(*args):
                ray.calls.append(("submit", args[0]))
                return (function, args)
        return Task

    def wait(self, pending, num_returns):
        assert num_returns == 1
        return pending[:1], pending[1:]

    def get(self, refs):
        out = []
        for function, args in refs:
            if args[0] == self.fail_on:
                raise RuntimeError(f"task for {args[0]} died")
            out.append(function(*args))
        return out

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))


def test_run_ray_submits_every_kernel_and_always_shuts_down(monkeypatch):
    """`run_ray`'s use of Ray without starting one (the real local Ray is the opt-in
    `test_build_on_a_local_ray_with_two_cpus`: its daemons take 7 s idle, 50 s beside the other
    worker): a local Ray of the given CPUs or the cluster's address, one task per kernel, results
    as they complete, and `ray.shutdown()` even when a task fails."""
    from dfsched.tools import build

    monkeypatch.setattr(build, "build_one", lambda kernel, *args: {"kernel": kernel, "args": args})
    ray = _RecordingRay()
    monkeypatch.setitem(sys.modules, "ray", ray)
    results = list(build.run_ray(["a.mlir", "b.mlir"], None, 2, ("sample", (), None)))
    assert results == [{"kernel": "a.mlir", "args": ("sample", (), None)},
                       {"kernel": "b.mlir", "args": ("sample", (), None)}]
    assert ray.calls[0] == ("init", {"num_cpus": 2, "include_dashboard": False, "log_to_driver": False,
                                     "configure_logging": False})
    assert ray.calls[1:] == [("submit", "a.mlir"), ("submit", "b.mlir"), ("shutdown",)]

    ray = _RecordingRay(fail_on="b.mlir")
    monkeypatch.setitem(sys.modules, "ray", ray)
    with pytest.raises(RuntimeError, match="task for b.mlir died"):
        list(build.run_ray(["a.mlir", "b.mlir"], "ray://head:10001", None, ("sample", (), None)))
    assert ray.calls[0] == ("init", {"address": "ray://head:10001", "log_to_driver": False,
                                     "configure_logging": False})
    assert ray.calls[-1] == ("shutdown",)


@pytest.mark.slow
def test_build_on_a_local_ray_with_two_cpus(kernels, tmp_path):
    """A real local Ray (opt-in: its daemons start in about 7 s idle and 50 s beside the other
    pytest worker); the default run checks `run_ray`'s use of Ray in
    `test_run_ray_submits_every_kernel_and_always_shuts_down`."""
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
