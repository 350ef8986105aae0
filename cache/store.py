"""The artifact store: one plain folder per artifact, written atomically, verified on read.

Layout under the cache folder (`$DFSCHED_CACHE_DIR`, else the platform's user cache folder):

    entries/<key[:2]>/<key>/   global.mlir, local_schedule_N.mlir, final.mlir, manifest.json
    aliases/<raw[:2]>/<raw>    the canonical key the raw key (exact input bytes) stands for
    locks/<key[:2]>/<key>.lock one compile per key at a time (filelock), across processes
    tmp/                       entries being written; renamed into entries/ when complete

`manifest.json` lists every file of the entry with its SHA-256 and carries a digest of itself;
an entry whose files do not match is corrupt: never served, removed and recompiled. An entry's
last use is the modification time of its manifest (touched on every hit); entries beyond
`DFSCHED_CACHE_MAX_MB` (default 1024) are evicted least recently used first.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.json"
FORMAT = 1
DEFAULT_MAX_MB = 1024
STALE_TMP_SECONDS = 3600


def default_root() -> Path:
    """`$DFSCHED_CACHE_DIR`, else the user cache folder of this platform."""
    configured = os.environ.get("DFSCHED_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("dfsched", appauthor=False))


def max_bytes() -> int:
    """The size cap from `DFSCHED_CACHE_MAX_MB` (MiB; default 1024)."""
    text = os.environ.get("DFSCHED_CACHE_MAX_MB", "")
    try:
        megabytes = float(text) if text else DEFAULT_MAX_MB
    except ValueError:
        megabytes = DEFAULT_MAX_MB
    return int(max(megabytes, 0) * 1024 * 1024)


def manifest_digest(manifest: dict) -> str:
    """The digest a manifest records of itself (computed without that field)."""
    body = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


class CorruptEntry(Exception):
    """An entry whose files do not match its manifest (or that has no readable manifest)."""


@dataclass
class Entry:
    key: str
    path: Path
    files: dict[str, str]
    manifest: dict


class Store:
    def __init__(self, root: str | os.PathLike[str] | None = None):
        self.root = Path(root) if root is not None else default_root()

    # -- places --------------------------------------------------------------
    def entry_dir(self, key: str) -> Path:
        return self.root / "entries" / key[:2] / key

    def _alias_file(self, raw: str) -> Path:
        return self.root / "aliases" / raw[:2] / raw

    def lock(self, key: str):
        """A lock held while `key` is compiled and written (threads and processes)."""
        from filelock import FileLock

        path = self.root / "locks" / key[:2] / f"{key}.lock"
        path.parent.mkdir(parents=True, exist_ok=True)
        return FileLock(str(path))

    # -- reading -------------------------------------------------------------
    def key_for_raw(self, raw: str) -> str | None:
        try:
            key = self._alias_file(raw).read_text().strip()
        except OSError:
            return None
        return key if len(key) == 64 else None

    def read(self, key: str) -> Entry:
        """The verified entry of `key`; FileNotFoundError when absent, CorruptEntry when damaged."""
        folder = self.entry_dir(key)
        try:
            manifest_text = (folder / MANIFEST).read_text()
        except FileNotFoundError:
            if folder.exists():
                raise CorruptEntry(f"{key}: no {MANIFEST}") from None
            raise
        except (OSError, UnicodeDecodeError) as exc:
            raise CorruptEntry(f"{key}: unreadable {MANIFEST}: {exc}") from None
        try:
            manifest = json.loads(manifest_text)
        except ValueError:
            raise CorruptEntry(f"{key}: {MANIFEST} is not JSON") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or manifest.get("key") != key:
            raise CorruptEntry(f"{key}: {MANIFEST} is of another format or key")
        if manifest.get("manifest_sha256") != manifest_digest(manifest):
            raise CorruptEntry(f"{key}: {MANIFEST} was edited")
        files: dict[str, str] = {}
        for name, facts in manifest.get("files", {}).items():
            try:
                data = (folder / name).read_bytes()
            except OSError:
                raise CorruptEntry(f"{key}: {name} is missing") from None
            if hashlib.sha256(data).hexdigest() != facts.get("sha256"):
                raise CorruptEntry(f"{key}: {name} does not match its digest")
            try:
                files[name] = data.decode()
            except UnicodeDecodeError:
                raise CorruptEntry(f"{key}: {name} is not UTF-8") from None
        return Entry(key, folder, files, manifest)

    def touch(self, entry: Entry) -> None:
        """Record a use (the LRU clock); a read-only store is still served."""
        try:
            os.utime(entry.path / MANIFEST)
        except OSError:
            pass

    # -- writing -------------------------------------------------------------
    def write(self, key: str, files: dict[str, str], manifest: dict, raw: str | None = None) -> Entry:
        """Write an entry: files into a temporary folder, then one rename into place."""
        manifest = dict(manifest, format=FORMAT, key=key, files={
            name: {"sha256": hashlib.sha256(text.encode()).hexdigest(), "bytes": len(text.encode())}
            for name, text in files.items()
        })
        manifest["manifest_sha256"] = manifest_digest(manifest)
        final = self.entry_dir(key)
        staging_root = self.root / "tmp"
        staging_root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f"{key[:16]}.", dir=staging_root))
        try:
            for name, text in files.items():
                (staging / name).write_text(text)
            (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
            final.parent.mkdir(parents=True, exist_ok=True)
            if final.exists():  # a corrupt entry being replaced
                shutil.rmtree(final, ignore_errors=True)
            os.rename(staging, final)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
        if raw is not None:
            self.write_alias(raw, key)
        return Entry(key, final, dict(files), manifest)

    def write_alias(self, raw: str, key: str) -> None:
        alias = self._alias_file(raw)
        alias.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=alias.parent, prefix=".alias.")
        with os.fdopen(handle, "w") as stream:
            stream.write(key + "\n")
        os.replace(temp, alias)

    def remove(self, key: str) -> None:
        shutil.rmtree(self.entry_dir(key), ignore_errors=True)

    # -- inspection and upkeep -----------------------------------------------
    def keys(self) -> list[str]:
        entries = self.root / "entries"
        if not entries.is_dir():
            return []
        return sorted(p.name for shard in entries.iterdir() if shard.is_dir() for p in shard.iterdir())

    def size_of(self, key: str) -> int:
        folder = self.entry_dir(key)
        try:
            return sum(f.stat().st_size for f in folder.iterdir())
        except OSError:
            return 0

    def last_use(self, key: str) -> float:
        try:
            return (self.entry_dir(key) / MANIFEST).stat().st_mtime
        except OSError:
            return 0.0

    def prune(self, limit: int | None = None, keep: str | None = None) -> list[str]:
        """Evict least recently used entries until the store fits `limit` bytes; drop stale leftovers.

        `keep` (the entry just written) is never evicted, even alone beyond the cap. Returns the
        evicted keys. Aliases pointing at evicted entries are left: they lead to a miss, and the
        next compile rewrites them.
        """
        limit = max_bytes() if limit is None else limit
        self._drop_stale_tmp()
        entries = [(self.last_use(k), k, self.size_of(k)) for k in self.keys()]
        total = sum(size for _, _, size in entries)
        evicted = []
        for _, key, size in sorted(entries):
            if total <= limit:
                break
            if key == keep:
                continue
            self.remove(key)
            total -= size
            evicted.append(key)
        return evicted

    def _drop_stale_tmp(self) -> None:
        staging_root = self.root / "tmp"
        if not staging_root.is_dir():
            return
        now = time.time()
        for folder in staging_root.iterdir():
            try:
                if now - folder.stat().st_mtime > STALE_TMP_SECONDS:
                    shutil.rmtree(folder, ignore_errors=True)
            except OSError:
                pass

    def clear(self) -> int:
        """Remove every entry, alias, lock and leftover; returns the number of entries removed."""
        count = len(self.keys())
        for sub in ("entries", "aliases", "tmp"):
            shutil.rmtree(self.root / sub, ignore_errors=True)
        return count
