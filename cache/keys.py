"""Stable cache keys: what an artifact depends on, digested.

Two keys name one artifact:

* the **raw key** digests the kernel's bytes, the device file's bytes and the rest (below),
  with no parsing, so a repeated compile of the very same files is answered before xDSL is
  even imported. A kernel that imports its device (`import("...")`) has no raw key: the bytes
  it depends on are not all in view without parsing.
* the **canonical key** digests the kernel as dfsched prints it after parsing (no locations,
  comments, whitespace or SSA names) and the device definition as printed after resolving
  its import, so a reformatted kernel or a moved checkout gets the same artifact.

Both also digest the pass pipeline text, the bound scalars, the xDSL version and a digest of
dfsched's own source files (so an editable install never serves artifacts of older code).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from functools import lru_cache

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_SUFFIXES = (".py", ".mlir")
NOT_SOURCE = {"tests", "benchmarks", "examples", "docs", "build", "__pycache__"}


def digest_text(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


@lru_cache(maxsize=4)
def source_digest(root: str = PACKAGE_ROOT) -> str:
    """A digest of every `.py` and shipped `.mlir` file of the dfsched package at `root`
    (paths relative to it: a moved checkout has the same digest)."""
    hasher = hashlib.sha256()
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders
                               if not d.startswith(".") and d not in NOT_SOURCE and not d.endswith(".egg-info"))
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(folder, name)
                hasher.update(os.path.relpath(path, root).replace(os.sep, "/").encode() + b"\0")
                with open(path, "rb") as stream:
                    hasher.update(hashlib.sha256(stream.read()).digest())
    return hasher.hexdigest()


def installed_version(package: str) -> str:
    """The version of an installed package, from its `.dist-info` folder's name.

    `importlib.metadata` costs about 0.1 s to import (it pulls in the `email` package): more
    than a whole cache hit. The folder beside the package holds the same answer.
    """
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        prefix = package.replace("-", "_") + "-"
        for name in os.listdir(site):
            if name.startswith(prefix) and name.endswith(".dist-info"):
                return name[len(prefix):-len(".dist-info")]
    from importlib import metadata

    return metadata.version(package)


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """The versions an artifact was built with (part of every key and of the manifest)."""
    from dfsched import __version__

    return {"dfsched": __version__, "xdsl": installed_version("xdsl"), "source": source_digest()}


def _key(kind: str, parts: dict) -> str:
    payload = json.dumps({"kind": kind, **parts, "versions": versions()}, sort_keys=True)
    return digest_text(payload)


def raw_key(kernel: bytes, device: tuple[str, bytes] | None, pipeline: str,
            binds: dict[str, object]) -> str | None:
    """The key of the exact bytes given; None when the kernel imports a file of its own."""
    if b"import(" in kernel:
        return None
    return _key("raw", {
        "kernel": digest_text(kernel),
        "device": None if device is None else [device[0], digest_text(device[1])],
        "pipeline": pipeline,
        "binds": binds,
    })


def canonical_key(kernel_text: str, device_text: str, pipeline: str, binds: dict[str, object]) -> str:
    """The key of the parsed kernel (device declaration included) and its device definition."""
    return _key("canonical", {
        "kernel": digest_text(kernel_text),
        "device": digest_text(device_text),
        "pipeline": pipeline,
        "binds": binds,
    })
