"""Checking a sample of a kernel's compute tiles (`dfsched-run --check --tiles N`).

A kernel over a large grid repeats the same schedule on every tile. When the tiles do not
communicate, each tile's outputs depend on the inputs alone, so running a few tiles through
every engine checks the schedule as well as running all of them, in a fraction of the time.

* `sampled_tiles(total, n, seed)`: the first tile, the last, and seeded random others: `n` in
  all, sorted (every tile when `n >= total`).
* `why_all_tiles(module, reference)`: why every tile must be checked, or None when a sample
  will do. Tiles communicate when the kernel holds an inter-tile op (`ktdp.inter_tile_*`) or
  reaches another tile's scratchpad (`#ktdp.memory_space<ct_local, ct_id = N>`); they share
  outputs when two tiles wrote the same global bytes in the reference run (with identical
  values, or the race tracking refuses the kernel): the reference keeps only the last writer's
  bytes, so a sample holding an earlier writer alone would be compared with the wrong bytes.
* `sampled_outputs(reference, inputs, tiles)`: what the reference's outputs are when only
  `tiles` run: the bytes those tiles wrote, the inputs everywhere else. The engines run the
  same tiles (`tiles=` of the ScheduleIR interpreter and the DataflowIR simulator), so their
  outputs compare with these exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from dfsched.interp.memory import Memory


def sampled_tiles(total: int, n: int, seed: int) -> tuple[int, ...]:
    if n >= total:
        return tuple(range(total))
    if n == 1:
        return (0,)
    middle = np.random.default_rng(seed).choice(np.arange(1, total - 1), size=n - 2, replace=False)
    return tuple(sorted({0, total - 1, *(int(t) for t in middle)}))


def _communicating_op(module: Operation) -> str | None:
    for op in module.walk():
        name = op.name
        if name.startswith("ktdp.inter_tile_"):
            return f"the kernel holds inter-tile ops ('{name}')"
        for attr in (*op.attributes.values(), *op.properties.values()):
            if getattr(attr, "name", None) == "ktdp.memory_space" and getattr(attr, "ct_id", None) is not None \
                    and attr.ct_id.data >= 0:
                return f"a tile reaches another tile's scratchpad ('{name}' with ct_id = {attr.ct_id.data})"
        for result in op.results:
            space = getattr(result.type, "memory_space", None)
            if getattr(space, "name", None) == "ktdp.memory_space" and space.ct_id.data >= 0:
                return f"a tile reaches another tile's scratchpad ('{name}' with ct_id = {space.ct_id.data})"
    return None


def why_all_tiles(module: Operation, reference: Any) -> str | None:
    """Why a sample of tiles would not check the kernel (None: a sample will do)."""
    found = _communicating_op(module)
    if found is not None:
        return found
    memory: Memory = reference.global_memory
    if not memory.track_races:
        return "the reference run did not record which tile wrote which bytes"
    if memory.shared_write is not None:
        address, tile, other = memory.shared_write
        return f"compute tiles {other} and {tile} write the same output bytes (address {address} of the global memory)"
    return None


def sampled_outputs(reference: Any, inputs: dict[str, Any], tiles: tuple[int, ...]) -> dict[str, np.ndarray]:
    """The reference's outputs as if only `tiles` had run (see the module docstring)."""
    from dfsched.interp.ktir import place_inputs

    source: Memory = reference.global_memory
    memory = Memory("global memory", source.unit, source.limit)
    place_inputs(memory, reference.layout, inputs)
    chosen = np.asarray(tiles, dtype=np.int32)
    for number, shadow in source.races.pages.items():
        mine = np.isin(shadow.writer, chosen)
        if mine.any():
            cells = source.pages[number]
            memory._page(number)[mine] = cells[mine]  # noqa: SLF001 - a page of the same geometry
    return {b.key: memory.fetch(b.address, b.shape, b.element) for b in reference.layout.global_buffers()}


__all__ = ["sampled_outputs", "sampled_tiles", "why_all_tiles"]
