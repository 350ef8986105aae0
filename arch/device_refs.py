"""How a declaration inserted by dfsched names its device file: never by a path of the machine.

`ensure-device-declaration` (and `dfsched --device`) write `ktdf_arch.device @d import("REF")`.
REF must be the same on every machine, so that the same kernel and device give byte-identical
output whatever the checkout's location (and so cached artifacts can be shared):

* a device shipped in `arch/devices` is named `dfsched:<file name>` (`dfsched:sample_device.mlir`);
* any other file is named by the SHA-256 of its bytes and its file name,
  `sha256:<64 hex digits>/<file name>`; the file name only says where to look for it.

`reference_for(path)` makes a reference and remembers the file for this process;
`file_for_reference(ref, folders)` finds the file again: the file remembered, else
`<folder>/<file name>` in the folders given (the declaring file's folder, the current
directory) whose bytes have that digest. A file with other bytes is never taken.

It imports nothing of xDSL: the artifact cache digests device files before parsing anything.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

SHIPPED_SCHEME = "dfsched:"
DIGEST_SCHEME = "sha256:"
DEVICES_DIR = Path(__file__).resolve().parent / "devices"

_KNOWN: dict[str, Path] = {}  # digest -> a file of this machine holding those bytes


def shipped_devices() -> dict[str, Path]:
    """Short name -> file of every device description shipped with dfsched."""
    out: dict[str, Path] = {}
    for path in sorted(DEVICES_DIR.glob("*.mlir")):
        out[path.stem] = path
        if path.stem.endswith("_device"):
            out.setdefault(path.stem[: -len("_device")], path)
    return out


def device_file_for(spec: str) -> Path | None:
    """The file `--device=spec` names: an existing file, else a shipped device's short name."""
    path = Path(spec)
    if path.is_file():
        return path
    return shipped_devices().get(spec) if os.sep not in spec else None


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def is_reference(raw: str) -> bool:
    """Whether an import string is a machine-independent reference (not a path)."""
    return raw.startswith(SHIPPED_SCHEME) or raw.startswith(DIGEST_SCHEME)


def reference_for(path: str | os.PathLike[str]) -> str:
    """The machine-independent reference of the device file at `path`."""
    real = Path(os.path.realpath(path))
    if real.parent == DEVICES_DIR:
        return SHIPPED_SCHEME + real.name
    digest = file_digest(real)
    _KNOWN[digest] = real
    return f"{DIGEST_SCHEME}{digest}/{real.name}"


def file_for_reference(raw: str, folders: list[Path]) -> Path | None:
    """The file a reference names, or None when none of the places holds it."""
    if raw.startswith(SHIPPED_SCHEME):
        name = raw[len(SHIPPED_SCHEME):]
        path = DEVICES_DIR / name
        return path if os.sep not in name and path.is_file() else None
    digest, _, name = raw[len(DIGEST_SCHEME):].partition("/")
    known = _KNOWN.get(digest)
    if known is not None and known.is_file() and file_digest(known) == digest:
        return known
    if not name or os.sep in name or name in (".", ".."):
        return None
    for folder in folders:
        candidate = folder / name
        if candidate.is_file() and file_digest(candidate) == digest:
            _KNOWN[digest] = candidate
            return candidate
    return None


def describe(raw: str) -> str:
    """Where a reference was looked for, for an error message."""
    if raw.startswith(SHIPPED_SCHEME):
        return f"no shipped device file '{raw[len(SHIPPED_SCHEME):]}'"
    digest, _, name = raw[len(DIGEST_SCHEME):].partition("/")
    return (f"no file '{name}' with SHA-256 {digest[:12]}... beside the declaring file or in the "
            "current directory")
