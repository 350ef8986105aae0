"""The artifact cache: stable keys, verified entries, one compile per key, eviction, fallbacks."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dfsched
from dfsched.cache import keys
from dfsched.cache.store import MANIFEST, Store

ROOT = Path(dfsched.__file__).resolve().parent
ADD = ROOT / "examples" / "add.mlir"
ARGS = ROOT / "examples" / "mul_args.mlir"
SAMPLE = ROOT / "arch" / "devices" / "sample_device.mlir"


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """One cache folder holding `add` compiled for the sample device (compiled once per module)."""
    folder = tmp_path_factory.mktemp("cache")
    artifact = dfsched.compile(ADD, "sample", cache=folder)
    return folder, artifact


def copy_store(folder: Path, tmp_path: Path) -> Path:
    target = tmp_path / "cache"
    shutil.copytree(folder, target)
    return target


# ---------------------------------------------------------------------------
# The artifact
# ---------------------------------------------------------------------------


def test_artifact_files_and_manifest(warm):
    folder, artifact = warm
    assert not artifact.hit and artifact.path == Store(folder).entry_dir(artifact.key)
    assert set(artifact.files) == {"global.mlir", "local_schedule_0.mlir"}
    assert artifact.programs == {"local_schedule_0.mlir": artifact.files["local_schedule_0.mlir"]}
    assert "module @local_schedule_0" in artifact.final_ir
    manifest = json.loads((artifact.path / MANIFEST).read_text())
    assert manifest["key"] == artifact.key
    assert manifest["device"]["reference"] == "dfsched:sample_device.mlir"
    assert manifest["versions"]["xdsl"] == "0.74.0" and manifest["report"] is None
    assert manifest["programs"][0]["file"] == "local_schedule_0.mlir" and manifest["programs"][0]["units"] > 0
    for name in ("global.mlir", "local_schedule_0.mlir", "final.mlir"):
        data = (artifact.path / name).read_bytes()
        assert manifest["files"][name]["sha256"] == hashlib.sha256(data).hexdigest()
    # no path of the machine in anything the artifact holds
    for name in os.listdir(artifact.path):
        assert str(ROOT) not in (artifact.path / name).read_text()


def test_launch_table_maps_arguments_to_symbols(tmp_path):
    artifact = dfsched.compile(ARGS, "sample", cache=tmp_path)
    (launch,) = artifact.manifest["launch"]
    assert launch["kernel"] == "mul" and launch["grid"] == [4]
    assert [a["symbol"] for a in launch["arguments"]] == [-1, -2, -3]
    assert all(f"symbol_id = {s} : si64" in artifact.final_ir for s in (-1, -2, -3))


def test_the_driver_writes_the_cached_texts(warm, tmp_path):
    folder, artifact = warm
    env = dict(os.environ, DFSCHED_CACHE_DIR=str(folder))
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "dfsched.tools.driver", "-v", "-kEmitDFIR", "--device=sample",
                          str(ADD), f"--split-dfir-output-dir={out}", "-o", str(tmp_path / "final.mlir")],
                         env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert f"cache hit {artifact.key}" in run.stderr
    assert (out / "global.mlir").read_text() == artifact.files["global.mlir"]
    assert (tmp_path / "final.mlir").read_text() == artifact.final_ir


# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------


def test_reformatted_kernel_and_renamed_values_hit(warm):
    folder, artifact = warm
    text = ADD.read_text()
    reformatted = "// a comment\n" + text.replace("  ", "    ").replace("%c0", "%zero")
    assert reformatted != text and "%zero" in reformatted
    again = dfsched.compile(reformatted, "sample", cache=folder)
    assert again.hit and again.key == artifact.key and dict(again.files) == dict(artifact.files)


def test_device_by_path_or_name_and_moved_checkout_same_key(warm, tmp_path):
    folder, artifact = warm
    assert dfsched.compile(ADD, SAMPLE, cache=folder).key == artifact.key
    # the kernel copied elsewhere: same key
    moved = tmp_path / "elsewhere" / "k.mlir"
    moved.parent.mkdir()
    shutil.copy(ADD, moved)
    assert dfsched.compile(moved, "sample", cache=folder).key == artifact.key
    # dfsched's sources in two places digest the same
    ignore = shutil.ignore_patterns(".*", "tests", "benchmarks", "examples", "docs", "__pycache__", "*.egg-info")
    for name in ("a", "b"):
        shutil.copytree(ROOT, tmp_path / name / "dfsched", ignore=ignore)
    digest_a = keys.source_digest(str(tmp_path / "a" / "dfsched"))
    assert digest_a == keys.source_digest(str(tmp_path / "b" / "dfsched")) == keys.source_digest()


def test_a_device_file_anywhere_gives_one_key(tmp_path):
    """A non-shipped device is referenced by digest: two copies give one artifact."""
    keys_seen = set()
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(SAMPLE, tmp_path / name / "dev.mlir")
        artifact = dfsched.compile(ADD, tmp_path / name / "dev.mlir", cache=tmp_path / "cache")
        assert "sha256:" in artifact.final_ir and str(tmp_path) not in artifact.final_ir
        keys_seen.add(artifact.key)
    assert len(keys_seen) == 1 and artifact.hit


def test_what_changes_the_key(monkeypatch):
    base = keys.canonical_key("kernel", "device", "pipeline", {})
    assert keys.canonical_key("kernel", "device", "pipeline", {}) == base
    assert keys.canonical_key("kernel", "device2", "pipeline", {}) != base
    assert keys.canonical_key("kernel", "device", "pipeline{opt=1}", {}) != base
    assert keys.canonical_key("kernel", "device", "pipeline", {"n": 4}) != base
    assert keys.canonical_key("kernel", "device", "pipeline", {"n": 8}) != keys.canonical_key(
        "kernel", "device", "pipeline", {"n": 4})
    monkeypatch.setattr(keys, "versions", lambda: {"dfsched": "9", "xdsl": "0.74.0", "source": "x"})
    assert keys.canonical_key("kernel", "device", "pipeline", {}) != base
    # a kernel that imports a file of its own has no raw key (its bytes are not all in view)
    assert keys.raw_key(b'ktdf_arch.device @d import("x.mlir")', None, "p", {}) is None


def test_changed_device_is_another_artifact(warm, tmp_path):
    folder, artifact = warm
    other = dfsched.compile(ADD, "quad_corelet", cache=copy_store(folder, tmp_path))
    assert not other.hit and other.key != artifact.key


def test_other_version_is_a_miss(warm, tmp_path, monkeypatch):
    folder, artifact = warm
    monkeypatch.setattr(keys, "versions", lambda: {"dfsched": "0.0.1", "xdsl": "0.74.0", "source": "old"})
    again = dfsched.compile(ADD, "sample", cache=copy_store(folder, tmp_path))
    assert not again.hit and again.key != artifact.key


# ---------------------------------------------------------------------------
# Damaged entries, interrupted writes, eviction, unusable folders
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["truncate", "edit", "manifest", "remove"])
def test_a_damaged_entry_is_recompiled(warm, tmp_path, damage):
    folder, artifact = warm
    store_dir = copy_store(folder, tmp_path)
    entry = Store(store_dir).entry_dir(artifact.key)
    program = entry / "local_schedule_0.mlir"
    if damage == "truncate":
        program.write_bytes(program.read_bytes()[:100])
    elif damage == "edit":
        program.write_text(program.read_text().replace("dataflow", "dataflOw", 1))
    elif damage == "manifest":
        manifest = json.loads((entry / MANIFEST).read_text())
        manifest["launch"] = []
        (entry / MANIFEST).write_text(json.dumps(manifest))
    else:
        (entry / "global.mlir").unlink()
    verify = subprocess.run([sys.executable, "-m", "dfsched.tools.driver", "cache", "verify"],
                            env=dict(os.environ, DFSCHED_CACHE_DIR=str(store_dir)), capture_output=True, text=True)
    assert verify.returncode == 1 and f"corrupt: {artifact.key}" in verify.stdout
    again = dfsched.compile(ADD, "sample", cache=store_dir)
    assert not again.hit and dict(again.files) == dict(artifact.files) and again.final_ir == artifact.final_ir
    assert Store(store_dir).read(artifact.key).files["local_schedule_0.mlir"] == artifact.files["local_schedule_0.mlir"]


def test_an_interrupted_write_leaves_no_entry(tmp_path, monkeypatch):
    store = Store(tmp_path)
    real_write = Path.write_text
    calls = []

    def interrupted(self, text, *args, **kwargs):
        calls.append(self)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_write(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", interrupted)
    key = "ab" * 32
    with pytest.raises(KeyboardInterrupt):
        store.write(key, {"global.mlir": "a\n", "local_schedule_0.mlir": "b\n"}, {})
    monkeypatch.setattr(Path, "write_text", real_write)
    assert not store.entry_dir(key).exists() and store.keys() == []
    assert list((tmp_path / "tmp").iterdir()) == []
    with pytest.raises(FileNotFoundError):
        store.read(key)
    # a write killed outright leaves a folder in tmp/ only, dropped by prune once stale
    leftover = tmp_path / "tmp" / "killed"
    leftover.mkdir()
    os.utime(leftover, (time.time() - 7200, time.time() - 7200))
    store.prune()
    assert not leftover.exists()


def test_eviction_least_recently_used_first(tmp_path, monkeypatch):
    store = Store(tmp_path)
    written = []
    for i in range(4):
        key = f"{i:02d}" * 32
        store.write(key, {"global.mlir": "x" * 100_000}, {})
        os.utime(store.entry_dir(key) / MANIFEST, (1000 + i, 1000 + i))
        written.append(key)
    store.touch(store.read(written[0]))  # used just now: the most recent
    monkeypatch.setenv("DFSCHED_CACHE_MAX_MB", str(0.25))  # room for two entries
    evicted = store.prune()
    assert evicted == [written[1], written[2]]
    assert store.keys() == sorted([written[0], written[3]])


def test_compiling_evicts_beyond_the_cap(warm, tmp_path, monkeypatch):
    folder, artifact = warm
    store_dir = copy_store(folder, tmp_path)
    monkeypatch.setenv("DFSCHED_CACHE_MAX_MB", "0.01")  # less than one entry: the new one stays
    other = dfsched.compile(ADD, "quad_corelet", cache=store_dir)
    assert Store(store_dir).keys() == [other.key]


def test_an_unusable_cache_folder_falls_back_with_one_warning(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    first = dfsched.compile(ADD, "sample", cache=blocker / "cache")
    second = dfsched.compile(ADD, "sample", cache=blocker / "cache")
    assert not first.hit and not second.hit and first.path is None
    warnings = [line for line in capsys.readouterr().err.splitlines() if "unusable" in line]
    assert len(warnings) == 1 and "compiling without it" in warnings[0]


def test_bad_kernel_is_a_located_error_and_nothing_is_stored(tmp_path):
    with pytest.raises(dfsched.CompileError, match=r"bad.mlir:1:\d+: error"):
        dfsched.compile("func.func @f() { %0 = arith.constant 1 : i32 i32 }", "sample", cache=tmp_path,
                        name="bad.mlir")
    with pytest.raises(dfsched.CompileError, match="invalid value"):
        dfsched.compile(ADD, "sample", binds={"n": "four"}, cache=tmp_path)
    assert Store(tmp_path).keys() == []


# ---------------------------------------------------------------------------
# Concurrency
# ---------------------------------------------------------------------------

WORKER = """
import hashlib, sys, dfsched
a = dfsched.compile(sys.argv[1], "sample", cache=sys.argv[2])
digest = hashlib.sha256(repr(sorted(a.files.items())).encode() + a.final_ir.encode()).hexdigest()
print("hit" if a.hit else "miss", a.key, digest)
"""


def test_eight_processes_compile_one_key_once(tmp_path):
    kernel = tmp_path / "k.mlir"
    shutil.copy(ADD, kernel)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(kernel), str(tmp_path / "cache")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(8)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        results.append(out.split())
    assert sorted(r[0] for r in results) == ["hit"] * 7 + ["miss"]
    assert len({(r[1], r[2]) for r in results}) == 1
    assert len(Store(tmp_path / "cache").keys()) == 1


def test_threads_compiling_one_key_compile_once(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    text = ADD.read_text()
    with ThreadPoolExecutor(max_workers=4) as pool:
        artifacts = list(pool.map(lambda i: dfsched.compile(text, "sample", cache=tmp_path), range(4)))
    assert sorted(a.hit for a in artifacts) == [False, True, True, True]
    assert len({(a.key, a.final_ir, tuple(sorted(a.files.items()))) for a in artifacts}) == 1
