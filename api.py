"""`dfsched.compile`: a kernel and a device in, a cached DataflowIR artifact out.

    artifact = dfsched.compile("kernel.mlir", "sample")        # or the kernel's text
    artifact.files["global.mlir"], artifact.programs, artifact.manifest["launch"]

The first compile of a kernel runs `-ktir-to-dfir` and stores the result (`dfsched.cache`);
any later compile of the same kernel and device, in any process, reads it back. A repeat of
the very same bytes is found before anything is parsed (the raw key); a reformatted kernel
after parsing (the canonical key). Concurrent compiles of one key compile once. A cache
folder that cannot be written falls back to compiling without the cache, with one warning.

This module imports no xDSL at load time: `dfsched-opt` start-up does not pay for it, and a
hit on the raw key never imports it at all.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dfsched import pipeline
from dfsched.cache import keys

PIPELINE = ",".join(pipeline.KTIR_TO_DFIR)
FINAL = "final.mlir"
REPORT = "report.json"
BIND_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
DEFAULT_MAX_INPUT_BYTES = 256 * 2**20  # `dfsched.fileio`'s default, used before anything imported it

_warned_unusable: set[str] = set()


class CompileError(Exception):
    """The kernel does not compile; `str(error)` is the located diagnostic, as the tools print it."""


@dataclass(frozen=True)
class Artifact:
    """A compiled kernel: the split DataflowIR files, the final IR and the manifest."""

    key: str
    files: Mapping[str, str]
    """`global.mlir` and one `local_schedule_N.mlir` per program: what `dfsched -kEmitDFIR` writes."""
    final_ir: str
    """The whole module after the pipeline (what `dfsched -kEmitDFIR` prints)."""
    manifest: Mapping
    path: Path | None = None
    """The cache entry's folder (None when compiled without the cache)."""
    hit: bool = False
    """Whether it was read from the cache."""
    report: Mapping | None = None
    """What the scheduler decided (`dfsched --report`'s facts as JSON, `tools/report.py`)."""

    @property
    def global_ir(self) -> str:
        return self.files["global.mlir"]

    @property
    def programs(self) -> dict[str, str]:
        """File name -> text of every program file (`local_schedule_N.mlir`)."""
        return {name: text for name, text in self.files.items() if name != "global.mlir"}


def compile(kernel: str | os.PathLike[str], device: str | os.PathLike[str] | None = None,
            binds: Mapping[str, int | float] | None = None, cache: bool | str | os.PathLike[str] = True,
            *, name: str | None = None) -> Artifact:
    """Compile `kernel` (a path, or KTIR text) for `device` (a file or shipped name; None: the
    kernel's own declaration). `binds` fixes scalar arguments by name (part of the key).
    `cache`: True (the default store), False (no cache) or a cache folder. `name` names text
    input in diagnostics. Raises `CompileError` with a located diagnostic.
    """
    kernel_name, kernel_bytes = _read_kernel(kernel, name)
    device_spec = None if device is None else os.fspath(device)
    bound = _normalise_binds(binds)
    store = _open_store(cache)
    raw = _raw_key(kernel_bytes, device_spec, bound) if store is not None else None
    if raw is not None:
        artifact = _guarded(store, lambda: _read_by_raw(store, raw))
        if artifact is not None:
            return artifact
    return _compile_parsed(kernel_name, kernel_bytes, device_spec, bound, store, raw)


def lookup(kernel: str | os.PathLike[str], device: str | os.PathLike[str] | None = None,
           binds: Mapping[str, int | float] | None = None, cache: bool | str | os.PathLike[str] = True
           ) -> Artifact | None:
    """The cached artifact of exactly these bytes, or None; never parses nor compiles.

    `dfsched build` answers every kernel it can this way before starting any worker.
    """
    try:
        _, kernel_bytes = _read_kernel(kernel, None)
        bound = _normalise_binds(binds)
    except CompileError:
        return None
    store = _open_store(cache)
    raw = _raw_key(kernel_bytes, None if device is None else os.fspath(device), bound) if store else None
    return _guarded(store, lambda: _read_by_raw(store, raw)) if raw is not None else None


def _raw_key(kernel_bytes: bytes, device: str | None, binds: dict) -> str | None:
    device_input = _device_input(device)
    return keys.raw_key(kernel_bytes, device_input, PIPELINE, binds) if device_input is not False else None


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------


def _read_kernel(kernel: str | os.PathLike[str], name: str | None) -> tuple[str, bytes]:
    """(name, bytes) of a kernel path or text. Text is taken as given; a file must be a regular
    file within the input size limit (`dfsched.fileio`, `--max-input-mb`), checked before reading."""
    if isinstance(kernel, os.PathLike) or ("\n" not in kernel and os.path.isfile(kernel)):
        path = os.fspath(kernel)
        limit = getattr(sys.modules.get("dfsched.fileio"), "MAX_INPUT_BYTES", DEFAULT_MAX_INPUT_BYTES)
        try:
            with open(path, "rb") as stream:
                info = os.fstat(stream.fileno())
                if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                    what = "not a regular file" if not stat.S_ISREG(info.st_mode) else (
                        f"larger than the limit of {limit / 2**20:g} MB (--max-input-mb)")
                    raise CompileError(f"{path}:1:1: error: input is {what}")
                return name or path, stream.read()
        except OSError as exc:
            raise CompileError(f"error: could not open input file '{path}': {exc.strerror}") from None
    return name or "<kernel>", kernel.encode()


def _normalise_binds(binds: Mapping[str, int | float] | None) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for key, value in sorted((binds or {}).items()):
        if not isinstance(key, str) or not BIND_NAME.fullmatch(key):
            raise CompileError(f"error: invalid bind name {key!r} (expected an argument name)")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise CompileError(f"error: invalid value {value!r} for bind '{key}' (expected a number)")
        out[key] = value
    return out


def _device_input(spec: str | None) -> tuple[str, bytes] | None | bool:
    """(reference, bytes) of the `--device` file, None for no device, False if unreadable."""
    from dfsched.arch import device_refs

    if spec is None:
        return None
    path = device_refs.device_file_for(spec)
    if path is None:
        return False
    try:
        return device_refs.reference_for(path), path.read_bytes()
    except OSError:
        return False


# ---------------------------------------------------------------------------
# The store, and falling back when it cannot be used
# ---------------------------------------------------------------------------


def _open_store(cache):
    if cache is False or cache is None:
        return None
    from dfsched.cache.store import Store

    return Store(None if cache is True else cache)


def _guarded(store, action, default=None):
    """Run a store action; an unusable cache folder warns once and gives `default`."""
    try:
        return action()
    except OSError as exc:
        root = str(store.root)
        if root not in _warned_unusable:
            _warned_unusable.add(root)
            reason = exc.strerror or str(exc)
            print(f"warning: artifact cache '{root}' is unusable ({reason}); compiling without it",
                  file=sys.stderr)
        return default


def _read_by_raw(store, raw: str) -> Artifact | None:
    key = store.key_for_raw(raw)
    return _read_entry(store, key) if key is not None else None


def _read_entry(store, key: str) -> Artifact | None:
    """The verified artifact of `key`; a corrupt entry is removed and counts as a miss."""
    from dfsched.cache.store import CorruptEntry

    try:
        entry = store.read(key)
    except FileNotFoundError:
        return None
    except CorruptEntry:
        store.remove(key)
        return None
    store.touch(entry)
    files = {n: t for n, t in entry.files.items() if n not in (FINAL, REPORT)}
    report = json.loads(entry.files[REPORT]) if REPORT in entry.files else None
    return Artifact(key, files, entry.files.get(FINAL, ""), entry.manifest, entry.path, hit=True, report=report)


# ---------------------------------------------------------------------------
# Parsing, the canonical key, compiling
# ---------------------------------------------------------------------------


def _compile_parsed(kernel_name: str, kernel_bytes: bytes, device: str | None, binds: dict,
                    store, raw: str | None) -> Artifact:
    from xdsl.utils.exceptions import ParseError

    from dfsched import compat
    from dfsched.diagnostics import Diagnostic, DiagnosticError
    from dfsched.tools.driver import DfschedMain

    compat.thread_safe_implicit_builder()  # compile may run on several threads at once
    compat.fast_isolated_from_above()
    compat.fast_walks()

    args = ["--ktir-to-dfir", kernel_name] + ([f"--device={device}"] if device is not None else [])
    args += [f"--bind={name}={value}" for name, value in binds.items()]
    tool = DfschedMain(args)
    from dfsched.fileio import decode_source

    text = ""
    try:
        text = decode_source(kernel_bytes, kernel_name)
        tool.source_manager.add(kernel_name, text)
        module = tool.parse(kernel_name, text)
        tool.verify(module)
        kernel_text = tool._print(module)
        device_name, reference, device_text = _device_of(module)
        key = keys.canonical_key(kernel_text, device_text, PIPELINE, binds)
        if store is not None:
            artifact = _guarded(store, lambda: _read_entry(store, key))
            if artifact is not None:
                if raw is not None:
                    _guarded(store, lambda: store.write_alias(raw, key))
                return artifact
        return _compile_and_store(tool, module, key, binds, store, raw,
                                  {"name": device_name, "reference": reference,
                                   "sha256": keys.digest_text(device_text)}, (device, kernel_name, text))
    except DiagnosticError as exc:
        raise CompileError(exc.diagnostic.render(tool.source_manager)) from None
    except ParseError as exc:
        raise CompileError(compat.parse_error_diagnostic(exc, kernel_name, text).render(tool.source_manager)) \
            from None
    except CompileError:
        raise
    except Exception as exc:  # an internal error: reported like the tools do, no traceback
        diagnostic = Diagnostic("error", f"internal error: {type(exc).__name__}: {exc}", kernel_name, 1, 1)
        raise CompileError(diagnostic.render(tool.source_manager)) from None


def _device_of(module) -> tuple[str | None, str | None, str]:
    """Name, import text and printed definition of the module's device ('' when none)."""
    from dfsched.arch.loading import devices_in, resolve_device
    from dfsched.printing import module_to_string

    devices = devices_in(module)
    if len(devices) != 1:
        return None, None, ""
    declaration = devices[0]
    definition = resolve_device(declaration)
    return declaration.device_name, declaration.import_file, module_to_string(definition)


def _compile_and_store(tool, module, key: str, binds: dict, store, raw: str | None, device: dict,
                       source: tuple) -> Artifact:
    if store is None:
        return _run_pipeline(tool, module, key, binds, device, source)
    lock = _guarded(store, lambda: store.lock(key))
    if lock is None:
        return _run_pipeline(tool, module, key, binds, device, source)
    with lock:
        artifact = _guarded(store, lambda: _read_entry(store, key))  # compiled while we waited
        if artifact is not None:
            if raw is not None:
                _guarded(store, lambda: store.write_alias(raw, key))
            return artifact
        artifact = _run_pipeline(tool, module, key, binds, device, source)
        stored = {**artifact.files, FINAL: artifact.final_ir, REPORT: json.dumps(artifact.report, indent=2) + "\n"}
        written = _guarded(store, lambda: store.write(key, stored, dict(artifact.manifest), raw))
        _guarded(store, lambda: store.prune(keep=key))
    if written is None:
        return artifact
    return Artifact(key, artifact.files, artifact.final_ir, written.manifest, written.path, hit=False,
                    report=artifact.report)


def _run_pipeline(tool, module, key: str, binds: dict, device: dict, source: tuple) -> Artifact:
    """Run the pipeline on `module`; the artifact keeps what `--report` shows, so a cache hit
    can show it too (`source`: the device spec, kernel name and text the report reads)."""
    from dfsched.cache.manifest import launch_table, program_table
    from dfsched.passes.lowering.emit_split_dfir import split
    from dfsched.tools.report import ReportCollector

    device_spec, kernel_name, kernel_text = source
    collector = ReportCollector(device_spec)
    for request, instance in tool.front_door_passes() + tool.build_passes():  # binds: the front door
        collector.before_pass(request.name, module)
        tool.apply_pass(module, request, instance)
    report = collector.finish(module, kernel_name, kernel_text).as_json()
    final_ir = tool._print(module)
    files = split(module)
    manifest = {
        "versions": keys.versions(),
        "device": device,
        "pipeline": PIPELINE,
        "binds": binds,
        "launch": launch_table(module),
        "programs": program_table(module),
        "final": FINAL,
        "report": REPORT,
    }
    return Artifact(key, files, final_ir, manifest, report=report)
