"""`dfsched cache stats|list|verify|clear|prune`: look after the artifact cache.

* `stats`: the folder, the number of entries, their size against the cap;
* `list`: one line per entry (key, kernel, device, programs, size, last use), most recent first;
* `verify`: reads every entry as a compile would; names each corrupt one, exit 1 if any;
* `clear`: removes every entry;
* `prune [--max-mb N]`: evicts least recently used entries down to the cap
  (`DFSCHED_CACHE_MAX_MB`, default 1024), and drops leftovers of interrupted writes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from dfsched.cache.store import CorruptEntry, Store, max_bytes


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.2f} MiB"


def stats(store: Store) -> int:
    keys = store.keys()
    total = sum(store.size_of(k) for k in keys)
    print(f"folder:  {store.root}")
    print(f"entries: {len(keys)}")
    print(f"size:    {_megabytes(total)} of {_megabytes(max_bytes())} (DFSCHED_CACHE_MAX_MB)")
    return 0


def list_entries(store: Store) -> int:
    rows = sorted(((store.last_use(k), k) for k in store.keys()), reverse=True)
    for used, key in rows:
        try:
            manifest = store.read(key).manifest
        except (CorruptEntry, OSError):
            print(f"{key}  CORRUPT")
            continue
        kernels = ",".join(k["kernel"] for k in manifest.get("launch", [])) or "-"
        device = (manifest.get("device") or {}).get("name") or "-"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(used))
        print(f"{key}  {kernels}  {device}  programs={len(manifest.get('programs', []))}  "
              f"{store.size_of(key)} B  {when}")
    return 0


def verify(store: Store) -> int:
    bad = 0
    keys = store.keys()
    for key in keys:
        try:
            store.read(key)
        except (CorruptEntry, OSError) as exc:
            bad += 1
            print(f"corrupt: {exc}")
    print(f"{len(keys) - bad} of {len(keys)} entries intact")
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="dfsched cache", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("stats", "list", "verify", "clear"):
        sub.add_parser(name)
    prune = sub.add_parser("prune")
    prune.add_argument("--max-mb", type=float, default=None, help="cap to prune to (default: DFSCHED_CACHE_MAX_MB)")
    args = ap.parse_args(argv)
    store = Store()
    try:
        if args.command == "stats":
            return stats(store)
        if args.command == "list":
            return list_entries(store)
        if args.command == "verify":
            return verify(store)
        if args.command == "clear":
            print(f"removed {store.clear()} entries from {store.root}")
            return 0
        limit = None if args.max_mb is None else int(args.max_mb * 1024 * 1024)
        evicted = store.prune(limit)
        print(f"evicted {len(evicted)} entries")
        return 0
    except OSError as exc:
        print(f"dfsched cache: error: {store.root}: {exc.strerror or exc}", file=sys.stderr)
        return 1
