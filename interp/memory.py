"""The interpreter's memory model: flat memories, strided views over them, access tiles.

Memories
--------
A `Memory` is flat and addressed in one of two units, chosen per run:

* ``"byte"`` (the interpreter's default): address *a* names one byte; the element at
  coordinate `c` of a view starts at byte ``offset + sum(c[k] * strides[k]) * itemsize``:
  the view's offset is a byte address and its strides count elements. This is the unit
  dfsched's examples and its lowering passes (address assignment) use.
* ``"element"``: address *a* names one element slot, whatever the element type; a view
  puts coordinate `c` at address ``offset + sum(c[k] * strides[k])``. Each slot is a
  64-bit cell holding the bits of one element (`dtypes.ElementType.to_bits`). This is the
  unit some upstream KTIR assumes (its add example puts 96x64 f16 matrices 6144 apart).

Elements are stored as their bits (`dtypes.ElementType.to_bits`, little-endian in byte
mode), so memory written through one element type reads back through another as a bit
cast (a fused pair read through an `f16` view gives its first value).

There is one global memory (HBM/DDR, `#ktdp.memory_space<global>`, shared by all
compute tiles) and one scratchpad per compute tile (`#ktdp.memory_space<ct_local>`:
the executing tile's; `ct_local, ct_id = N`: tile N's, N the row-major tile index).
Memory that was never written reads as zero.

Race detection: with `track_races`, a `races.Shadow` beside the memory remembers which tile
wrote each slot and which tiles read it (the compute-tile rule of `races.py`). A tile that
reads a slot another tile wrote, or changes a slot another tile read or wrote, makes the
result depend on the order tiles run in; the memory raises `RaceError` (the interpreter turns
it into a located error on the load/store). Storing the bytes a slot already holds is no
race (tiles writing identical values agree in any order); the memory remembers the first slot
a second tile wrote so (`shared_write`): such tiles share outputs, and a sample of them cannot
be checked alone (`tile_sample.py`).

Views and tiles
---------------
`StridedView` (from `ktdp.construct_memory_view`) maps *global* coordinates to
addresses: its `coordinate_set` says which global coordinates it holds; the local
coordinate is the global one minus the set's lower corner (so a plain view whose set
starts at 0 is indexed directly). `DistributedView` (from
`ktdp.construct_distributed_memory_view`) sends each coordinate to the first part whose
coordinate set contains it. `AccessTile` is an array of coordinates (shape = tile shape
+ (rank,)) over a view or a tensor, with an optional mask of points that exist.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir.affine import AffineMap, AffineSet

from dfsched.interp.dtypes import ElementType
from dfsched.interp.races import NONE, RaceError, Shadow
from dfsched.interp.sets import box, compiled_map, eval_set, linear_form

UNITS = ("element", "byte")


class MemoryAccessError(Exception):
    """An access outside a memory, a view's sizes or its coordinate set."""


def tile_race(memory: str, address: int, tile: int, other: int, what: str) -> RaceError:
    """Two compute tiles touch the same memory slot and one of them writes it."""
    return RaceError(f"{what} of {memory} address {address} by compute tile {tile} races with compute tile "
                     f"{other}: the result depends on the order the tiles run in", memory, address, tile, other)


NO_TILE = NONE
# an access of more elements is made in chunks of this many, in element order, so its
# temporaries (byte slots, page numbers, race shadows: several times 8 bytes per byte) stay
# bounded; a race in it is reported in the first chunk that has one (Decision 66)
CHUNK_ELEMENTS = 1 << 20
GENERATE_LIMIT = 1 << 26  # elements of generated-on-touch buffers a run may touch (ktir: max_elements)


def unique_sorted(values) -> np.ndarray:
    """`np.unique(values)` by sorting: numpy 2.4's hash-based `unique` takes seconds on the
    million-element address arrays the interpreters handle (13 s for 3M int64)."""
    flat = np.sort(np.asarray(values).reshape(-1))
    if flat.size < 2:
        return flat
    keep = np.empty(flat.size, dtype=bool)
    keep[0] = True
    np.not_equal(flat[1:], flat[:-1], out=keep[1:])
    return flat[keep]


def overlaps(a, b) -> bool:
    """Whether the integer arrays `a` and `b` share a value (`np.intersect1d(a, b).size`, by sorting)."""
    a = np.asarray(a).reshape(-1)
    b = np.asarray(b).reshape(-1)
    if not a.size or not b.size:
        return False
    sa = np.sort(a)
    at = np.searchsorted(sa, b)
    np.minimum(at, sa.size - 1, out=at)
    return bool(np.any(sa[at] == b))


class Memory:
    """One flat memory (see the module docstring for the address units).

    Storage is paged (4096 slots a page, allocated on first write), so kernels may use
    sparse, large addresses. `size` bounds the addresses (None: unbounded). A `probe`
    memory stores nothing and reads zeros: the interpreter's layout dry run uses it.
    """

    PAGE_BITS = 12
    PAGE = 1 << PAGE_BITS

    def __init__(
        self,
        name: str,
        unit: str = "byte",
        size: int | None = None,
        *,
        probe: bool = False,
        track_races: bool = False,
        cell_bits: int = 64,
        tiles: int | None = None,
        page_bits: int = PAGE_BITS,
    ):
        if unit not in UNITS:
            raise ValueError(f"address unit must be one of {UNITS}, not {unit!r}")
        self.PAGE_BITS, self.PAGE = page_bits, 1 << page_bits  # the simulator's memories take 64 KiB pages
        self.name = name
        self.unit = unit
        self.limit = size
        self.probe = probe
        self.track_races = track_races
        # an element-unit slot holds the bits of the widest element type stored (`cell_bits`);
        # race bookkeeping needs int16 tile numbers for fewer than 32768 tiles
        self._cell = _UINT_BYTES[max(1, cell_bits // 8)] if unit == "element" else np.uint8
        tile_dtype = np.int16 if tiles is not None and tiles < (1 << 15) else np.int32
        # with track_races: which tile last wrote and which tiles read each slot
        self.races = Shadow(page_bits, epochs=False, shared_reads=True, actor_dtype=tile_dtype) if track_races else None
        # with track_races: the first slot a second tile wrote (identical bytes, else a race), as
        # (address, that tile, the tile that wrote it before); the shadow keeps the last writer only
        self.shared_write: tuple[int, int, int] | None = None
        self._tile_dtype = tile_dtype
        # page number -> cells
        self.pages: dict[int, np.ndarray] = {}
        # per page (with track_races): the last tile that read each slot, and how many tiles did
        self._readers: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # inputs generated on first touch: (first address, end address, element type, source)
        self.generated: list[tuple[int, int, ElementType, GeneratedInput]] = []
        self.generated_elements = 0  # made so far; more than `generate_limit` is an error
        self.generate_limit: int | None = GENERATE_LIMIT

    # -- pages --------------------------------------------------------------------------------

    def _page(self, number: int) -> np.ndarray:
        page = self.pages.get(number)
        if page is None:
            page = self.pages[number] = np.zeros(self.PAGE, dtype=self._cell)
            if self.generated:
                self._fill(number, page)
        return page

    def _peek(self, number: int):
        """The page if it holds anything (a generated input's page is made on this first touch)."""
        page = self.pages.get(number)
        if page is None and self.generated and self._generated_in(number):
            page = self._page(number)
        return page

    # -- inputs generated on first touch ------------------------------------------------------

    def generate(self, address: int, source: GeneratedInput) -> None:
        """Let `source` (row-major, from `address`) fill each page it covers on first touch."""
        end = address + source.count * self.element_step(source.element)
        self.generated.append((address, end, source.element, source))

    def _generated_in(self, number: int) -> bool:
        first, end = number << self.PAGE_BITS, (number + 1) << self.PAGE_BITS
        return any(a < end and first < b for a, b, _, _ in self.generated)

    def _fill(self, number: int, cells: np.ndarray) -> None:
        """Write the generated elements that fall in page `number` into its fresh `cells`."""
        page_first, page_end = number << self.PAGE_BITS, (number + 1) << self.PAGE_BITS
        for first, end, et, source in self.generated:
            if not (first < page_end and page_first < end):
                continue
            step = self.element_step(et)
            lo = max(0, (page_first - first) // step)
            hi = min(source.count, -(-(page_end - first) // step))
            count = hi - lo
            self.generated_elements += count
            if self.generate_limit is not None and self.generated_elements > self.generate_limit:
                raise MemoryAccessError(
                    f"the run touched more than {self.generate_limit} elements of buffers generated on first "
                    f"touch (max_elements)")
            bits = et.to_bits(source.values(lo, count))
            if self.unit == "element":
                raw = bits.astype(self._cell)
            else:
                raw = np.ascontiguousarray(bits.astype(_UINT_BYTES[et.itemsize])).view(np.uint8)
            at = first + lo * step  # address of raw[0]
            start, stop = max(at, page_first), min(at + raw.size, page_end)
            cells[start - page_first: stop - page_first] = raw[start - at: stop - at]

    def generated_source(self, address: int) -> GeneratedInput | None:
        return next((g for a, _, _, g in self.generated if a == address), None)

    def _by_page(self, flat: np.ndarray):
        """(page, selection, in-page offsets) for each page `flat` slots fall in (a selection
        is a slice or an index array into `flat`): one sort, not one pass per page."""
        numbers = flat >> self.PAGE_BITS
        offsets = flat & (self.PAGE - 1)
        if flat.size == 0:
            return
        first, last = int(numbers.min()), int(numbers.max())
        if first == last:
            yield first, slice(None), offsets
            return
        # group by page with one stable sort (a mask per page is quadratic on big accesses)
        order = np.argsort(numbers, kind="stable")
        ordered = numbers[order]
        cuts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), flat.size]
        for start, stop in zip(cuts[:-1], cuts[1:]):
            sel = order[start:stop]
            yield int(ordered[start]), sel, offsets[sel]

    def _check_range(self, flat: np.ndarray) -> None:
        if flat.size == 0:
            return
        lo, hi = int(flat.min()), int(flat.max())
        if lo < 0:
            raise MemoryAccessError(f"address {lo} is below the start of {self.name}")
        if self.limit is not None and hi >= self.limit:
            raise MemoryAccessError(f"address {hi} is past the end of {self.name} (size {self.limit})")

    def _slots(self, addresses: np.ndarray, et: ElementType) -> np.ndarray:
        """Memory slots of each element: shape = addresses.shape (+ (itemsize,) in byte mode)."""
        addresses = np.asarray(addresses, dtype=np.int64)
        if self.unit == "element":
            return addresses
        return addresses[..., None] + np.arange(et.itemsize, dtype=np.int64)

    def _load_slots(self, slots: np.ndarray, tile: int | None) -> np.ndarray:
        flat = slots.reshape(-1)
        self._check_range(flat)
        out = np.zeros(flat.shape, dtype=self._cell)
        for number, sel, offsets in self._by_page(flat):
            page = self._peek(number)
            if self.races is not None and tile is not None:
                self._check_read(number, offsets, tile)
            if page is not None:
                out[sel] = page[offsets]
        return out.reshape(slots.shape)

    def _store_slots(self, slots: np.ndarray, raw: np.ndarray, tile: int | None) -> None:
        flat = slots.reshape(-1)
        values = raw.reshape(-1)
        self._check_range(flat)
        for number, sel, offsets in self._by_page(flat):
            page = self._page(number)
            if self.races is not None and tile is not None:
                self._check_write(page, number, offsets, tile, values[sel])
            page[offsets] = values[sel]

    def slots_touched(self) -> tuple[int, int]:
        """(slots read, counted once per tile that read them; slots some tile wrote), tracked with
        `track_races` only: a kernel's compulsory traffic, each tile reading each of its input
        bytes once (tiles share no scratchpad) and each output byte written once."""
        if not self.track_races:
            raise ValueError(f"{self.name} does not track which tiles touch it")
        read = sum(int(count.sum()) for _, count in self._readers.values())
        written = sum(int(np.count_nonzero(page.writer != NO_TILE)) for page in self.races.pages.values())
        return read, written

    # -- races ------------------------------------------------------------------------------

    @staticmethod
    def _offset_at(offsets, i: int) -> int:
        """The i-th in-page offset of `offsets` (an index array, or a slice of the page)."""
        return offsets.start + i if isinstance(offsets, slice) else int(offsets[i])

    def _check_read(self, number: int, offsets, tile: int) -> None:
        found = self.races.read(self.races.page(number), offsets, tile)
        if found is not None:
            raise tile_race(self.name, (number << self.PAGE_BITS) + self._offset_at(offsets, found.index), tile,
                            found.other, "read")
        last, count = self._readers.setdefault(
            number, (np.full(self.PAGE, NO_TILE, dtype=self._tile_dtype), np.zeros(self.PAGE, np.int32)))
        new = last[offsets] != tile  # tiles run one after the other: a tile's reads are contiguous
        count[offsets] += new
        last[offsets] = tile

    def _check_write(self, cells, number: int, offsets, tile: int, raw) -> None:
        """A write races with another tile's access to a slot only if it changes the slot:
        tiles storing identical bytes to one place agree whatever their order."""
        shadow = self.races.page(number)
        shared = None  # (index in the access, earlier writer) of a slot another tile wrote before
        if self.shared_write is None:  # looked up before the write replaces the writers
            earlier = shadow.writer[offsets]
            again = (earlier != NO_TILE) & (earlier != tile)
            if again.any():
                k = int(np.argmax(again))
                shared = k, int(earlier[k])
        found = self.races.write(shadow, offsets, tile, changes=cells[offsets] != raw)
        if found is not None:
            raise tile_race(self.name, (number << self.PAGE_BITS) + self._offset_at(offsets, found.index), tile,
                            found.other, "write")
        if shared is not None:  # no race: the bytes were identical
            self.shared_write = ((number << self.PAGE_BITS) + self._offset_at(offsets, shared[0]), tile, shared[1])

    # -- access -----------------------------------------------------------------------------

    def _run_start(self, addresses: np.ndarray, et: ElementType, consecutive: bool) -> int | None:
        """The first address when `addresses` are consecutive elements (the caller may know
        it: `consecutive`), else None: such an access is one slice per page."""
        n = addresses.size
        if n == 0:
            return None
        flat = addresses.reshape(-1)
        if consecutive or n == 1:
            return int(flat[0])
        step = self.element_step(et)
        if int(flat[-1]) - int(flat[0]) != (n - 1) * step or not bool(np.all(np.diff(flat) == step)):
            return None
        return int(flat[0])

    def read(self, addresses, et: ElementType, tile: int | None = None, *, consecutive: bool = False) -> np.ndarray:
        """The elements (of type `et`) at `addresses` (any shape); `consecutive`: the caller
        knows they are consecutive elements."""
        addresses = np.asarray(addresses, dtype=np.int64)
        if self.probe:
            return et.zeros(addresses.shape)
        start = self._run_start(addresses, et, consecutive)
        if start is not None:
            return self.read_run(start, addresses.size, et, tile).reshape(addresses.shape)
        if addresses.size > CHUNK_ELEMENTS:  # bounded temporaries (slots, pages, shadows)
            flat = addresses.reshape(-1)
            out = et.zeros(flat.shape)
            for at in range(0, flat.size, CHUNK_ELEMENTS):
                out[at:at + CHUNK_ELEMENTS] = self.read(flat[at:at + CHUNK_ELEMENTS], et, tile)
            return out.reshape(addresses.shape)
        raw = self._load_slots(self._slots(addresses, et), tile)
        if self.unit == "byte":
            raw = np.ascontiguousarray(raw).view(_UINT_BYTES[et.itemsize]).reshape(addresses.shape)
        return et.from_bits(raw)

    def write(self, addresses, values, et: ElementType, tile: int | None = None, *, consecutive: bool = False) -> None:
        addresses = np.asarray(addresses, dtype=np.int64)
        if self.probe:
            return
        start = self._run_start(addresses, et, consecutive)
        if start is not None:
            values = np.asarray(values)
            flat = values.reshape(-1) if values.size == addresses.size else np.broadcast_to(values, addresses.shape).reshape(-1)
            self.write_run(start, flat, et, addresses.size, tile)
            return
        if addresses.size > CHUNK_ELEMENTS:  # bounded temporaries, in element order
            flat = addresses.reshape(-1)
            values = np.broadcast_to(np.asarray(values), addresses.shape).reshape(-1)
            for at in range(0, flat.size, CHUNK_ELEMENTS):
                self.write(flat[at:at + CHUNK_ELEMENTS], values[at:at + CHUNK_ELEMENTS], et, tile)
            return
        bits = np.broadcast_to(et.to_bits(values), addresses.shape)
        slots = self._slots(addresses, et)
        if self.unit == "element":
            raw = bits.astype(self._cell)
        else:
            raw = np.ascontiguousarray(bits.astype(_UINT_BYTES[et.itemsize])).view(np.uint8)
        self._store_slots(slots, raw, tile)

    # -- contiguous runs (fast paths of `read`/`write` for consecutive elements) -------------

    def _run_pages(self, start: int, count: int, et: ElementType):
        """(page number, in-page slice, first index in the run's slots) of each page the slots
        of `count` consecutive elements from address `start` fall in, in address order; the
        range is checked as `read`/`write` check it. None: empty, the caller takes the
        general path."""
        if count <= 0:
            return None
        width = 1 if self.unit == "element" else et.itemsize
        first, last = start, start + count * width - 1
        if first < 0:
            raise MemoryAccessError(f"address {first} is below the start of {self.name}")
        if self.limit is not None and last >= self.limit:
            raise MemoryAccessError(f"address {last} is past the end of {self.name} (size {self.limit})")
        bits, mask = self.PAGE_BITS, self.PAGE - 1
        out = []
        at = first
        while at <= last:
            number = at >> bits
            stop = min(last, (number << bits) | mask)
            out.append((number, slice(at & mask, (stop & mask) + 1), at - first))
            at = stop + 1
        return out, last - first + 1

    def read_run(self, start: int, count: int, et: ElementType, tile: int | None = None) -> np.ndarray | None:
        """`read(contiguous(start, count, et), et, tile)`, without building the addresses; None
        when there is nothing to read (the caller takes the general path)."""
        if count <= 0:
            return None
        if self.probe:
            return et.zeros((count,))
        if self.unit == "byte" and (tile is None or self.races is None) and start >= 0:  # one page: one copy
            last = start + count * et.itemsize - 1
            number = start >> self.PAGE_BITS
            if last >> self.PAGE_BITS == number and (self.limit is None or last < self.limit) \
                    and et.kind in _PLAIN_KINDS and et.bits == 8 * et.dtype.itemsize:
                page = self._peek(number)
                if page is not None:
                    return page[start & (self.PAGE - 1): (last & (self.PAGE - 1)) + 1].copy().view(et.dtype)
        pages, n = self._run_pages(start, count, et)
        if len(pages) == 1:
            number, offsets, _ = pages[0]
            page = self._peek(number)
            if self.races is not None and tile is not None:
                self._check_read(number, offsets, tile)
            if page is not None and self.unit == "byte" and et.kind in _PLAIN_KINDS and et.bits == 8 * et.dtype.itemsize:
                return page[offsets].copy().view(et.dtype)  # what `from_bits` of the bytes gives, in one copy
            raw = np.zeros(n, dtype=self._cell) if page is None else page[offsets].copy()
        else:
            raw = np.zeros(n, dtype=self._cell)
            for number, offsets, at in pages:
                page = self._peek(number)
                if self.races is not None and tile is not None:
                    self._check_read(number, offsets, tile)
                if page is not None:
                    raw[at : at + offsets.stop - offsets.start] = page[offsets]
        if self.unit == "byte":
            raw = raw.view(_UINT_BYTES[et.itemsize])
        return et.from_bits(raw)

    def write_run(self, start: int, values, et: ElementType, count: int, tile: int | None = None) -> bool:
        """`write(contiguous(start, count, et), values, et, tile)`, without building the
        addresses; False when there is nothing to write (the caller takes the general path)."""
        if count <= 0:
            return False
        if self.probe:
            return True
        if self.unit == "byte" and (tile is None or self.races is None) and start >= 0 \
                and et.kind in _PLAIN_KINDS and et.bits == 8 * et.dtype.itemsize:  # one page: one copy
            last = start + count * et.itemsize - 1
            number = start >> self.PAGE_BITS
            if last >> self.PAGE_BITS == number and (self.limit is None or last < self.limit):
                flat = np.asarray(values).astype(et.dtype, copy=False)
                if flat.shape == (count,):  # (`to_bits`' bytes: the values cast to the type, reinterpreted)
                    mask = self.PAGE - 1
                    self._page(number)[start & mask: (last & mask) + 1] = np.ascontiguousarray(flat).view(np.uint8)
                    return True
        bits = et.to_bits(values)
        if bits.shape != (count,):
            bits = np.broadcast_to(bits, (count,))
        if self.unit == "element":
            raw = bits.astype(self._cell, copy=False)
        else:
            raw = np.ascontiguousarray(bits.astype(_UINT_BYTES[et.itemsize], copy=False)).view(np.uint8)
        pages, _ = self._run_pages(start, count, et)
        for number, offsets, at in pages:
            page = self._page(number)
            part = raw[at : at + offsets.stop - offsets.start]
            if self.races is not None and tile is not None:
                self._check_write(page, number, offsets, tile, part)
            page[offsets] = part
        return True

    def place(self, address: int, array, et: ElementType) -> None:
        """Store `array` contiguously (row-major) from `address` (no race bookkeeping); a
        `GeneratedInput` is made page by page on first touch instead."""
        if isinstance(array, GeneratedInput):
            self.generate(address, array)
            return
        flat = np.asarray(array).reshape(-1)
        if not self.write_run(address, flat, et, flat.size):
            self.write(self.contiguous(address, flat.size, et), flat, et)

    def fetch(self, address: int, shape: tuple[int, ...], et: ElementType):
        """Read a row-major array of `shape` stored contiguously from `address`; a buffer
        generated on touch gives a `TouchedBuffer` (its touched pages), not the whole array."""
        source = self.generated_source(address) if self.generated else None
        if source is not None:
            return TouchedBuffer.of(self, address, source)
        n = int(np.prod(shape, dtype=np.int64))
        run = self.read_run(address, n, et)
        if run is not None:
            return run.reshape(shape)
        return self.read(self.contiguous(address, n, et), et).reshape(shape)

    def fetch_run(self, address: int, count: int, et: ElementType) -> np.ndarray:
        """`count` consecutive elements from `address` (a generated buffer's pages made as needed)."""
        run = self.read_run(address, count, et)
        return run if run is not None else et.zeros((0,))

    def contiguous(self, address: int, count: int, et: ElementType) -> np.ndarray:
        step = 1 if self.unit == "element" else et.itemsize
        return address + step * np.arange(count, dtype=np.int64)

    def element_step(self, et: ElementType) -> int:
        """Address distance between consecutive elements of a dense array of `et`."""
        return 1 if self.unit == "element" else et.itemsize


_UINT_BYTES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_PLAIN_KINDS = frozenset({"float", "int", "uint", "index"})  # `ElementType.from_bits` only reinterprets their bits


# ---------------------------------------------------------------------------------------
# buffers too large to hold: generated on first touch
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GeneratedInput:
    """The seeded input of a buffer too large to hold as an array (a paged KV pool): element i
    depends only on (seed, key, i), so every engine makes the same values for the pages it
    touches, whatever it touches first. Same distributions as `ktir.make_inputs`."""

    shape: tuple[int, ...]
    element: ElementType
    seed: int
    key: str
    low: float = -1.0
    high: float = 1.0

    BLOCK = 1 << 12  # elements drawn from one generator

    @property
    def count(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def size(self) -> int:
        return self.count

    def _block(self, k: int) -> np.ndarray:
        import zlib

        rng = np.random.default_rng([self.seed, zlib.crc32(self.key.encode()), k])
        n = min(self.BLOCK, self.count - k * self.BLOCK)
        et = self.element
        if et.is_fused:
            data = rng.uniform(self.low, self.high, n) + 1j * rng.uniform(self.low, self.high, n)
        elif et.is_float:
            data = rng.uniform(self.low, self.high, n)
        elif et.kind == "bool":
            data = rng.integers(0, 2, n)
        else:
            data = rng.integers(0, 8, n)
        return np.asarray(et.cast(data))

    def values(self, first: int, count: int) -> np.ndarray:
        """Elements [first, first + count) of the row-major buffer."""
        if count <= 0:
            return self.element.zeros((0,))
        blocks = range(first // self.BLOCK, (first + count - 1) // self.BLOCK + 1)
        data = np.concatenate([self._block(k) for k in blocks])
        skip = first - blocks[0] * self.BLOCK
        return data[skip: skip + count]


@dataclass
class TouchedBuffer:
    """The contents of a generated-on-touch buffer after a run, as far as the run touched it:
    `runs` = [(first element, values)] of the pages it touched, in order; elsewhere the buffer
    still holds its generated input. `values(first, count)` reads any part (making untouched
    pages as their input)."""

    shape: tuple[int, ...]
    element: ElementType
    runs: list[tuple[int, np.ndarray]]
    read: Any  # (first element, count) -> values

    @staticmethod
    def of(memory: Memory, address: int, source: GeneratedInput) -> TouchedBuffer:
        step = memory.element_step(source.element)
        end = address + source.count * step
        spans: list[tuple[int, int]] = []
        for number in sorted(memory.pages):
            first, last = max(address, number << memory.PAGE_BITS), min(end, (number + 1) << memory.PAGE_BITS)
            if first >= last:
                continue
            lo, hi = (first - address) // step, -(-(last - address) // step)
            if spans and spans[-1][1] >= lo:
                spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
            else:
                spans.append((lo, hi))

        def read(first: int, count: int) -> np.ndarray:
            return memory.fetch_run(address + first * step, count, source.element)

        return TouchedBuffer(source.shape, source.element, [(lo, read(lo, hi - lo)) for lo, hi in spans], read)

    @property
    def dtype(self):
        return self.element.dtype

    @property
    def touched(self) -> int:
        return sum(v.size for _, v in self.runs)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self) -> str:
        return f"TouchedBuffer({list(self.shape)} {self.element.name}, {self.touched} element(s) touched)"


# ---------------------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------------------


def _linear(s: AffineSet, symbols: tuple[int, ...]) -> bool:
    """Whether every constraint of `s` is linear in its dims (so its integer points are the
    points of a convex polyhedron)."""
    key = (s, symbols)
    found = _LINEAR.get(key)
    if found is None:
        n = s.num_dims
        found = _LINEAR[key] = all(
            linear_form(c.lhs, n, list(symbols)) is not None and linear_form(c.rhs, n, list(symbols)) is not None
            for c in s.constraints
        )
    return found


_LINEAR: dict[Any, bool] = {}
_BOXES: dict[Any, Any] = {}


def _box_set(s: AffineSet, symbols: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """[lo, hi] per dim when `s` is exactly a box (every constraint bounds one dim), else None."""
    key = (s, symbols)
    if key not in _BOXES:
        n = s.num_dims
        result = None
        forms = [(linear_form(c.lhs, n, list(symbols)), linear_form(c.rhs, n, list(symbols))) for c in s.constraints]
        if all(a is not None and b is not None and sum(1 for x, y in zip(a[0], b[0]) if x != y) <= 1 for a, b in forms):
            bounds = box(s, list(symbols))
            if all(lo is not None and hi is not None for lo, hi in bounds):
                result = bounds
        if len(_BOXES) > 4096:
            _BOXES.clear()
        _BOXES[key] = result
    return _BOXES[key]


@dataclass
class StridedView:
    """A memref value of every interpreter: `ktdp.construct_memory_view`'s in the KTIR
    reference, buffers in the ScheduleIR interpreter (`BufferView`), memory views in the
    DataflowIR simulator.

    The element at local coordinate `c` starts at ``offset + (c . strides) * step`` (`step`:
    the memory's address step per element). A DataflowIR layout map that is not linear sets
    `layout` instead: the offset in elements is then ``layout(c)`` and `strides` are unused
    (such views only take `addresses`/`element_offsets`).
    """

    memory: Memory
    space: str  # "global" | "ct_local" (interpreters); the memory unit's kind (simulator)
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    et: ElementType
    coordinate_set: AffineSet | None = None
    set_symbols: tuple[int, ...] = ()
    lower: tuple[int, ...] = ()  # lower corner of coordinate_set
    tile_owner: int | None = None  # the tile whose scratchpad this is (ct_local)
    layout: AffineMap | None = None  # element offset of a local coordinate when not strided
    unit_name: str = ""  # the simulated memory unit holding it (DataflowIR simulator)

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def contains(self, coords: np.ndarray) -> np.ndarray:
        """Which global coordinates this view holds (its coordinate set, else its sizes)."""
        if self.coordinate_set is not None:
            return eval_set(self.coordinate_set, coords, self.set_symbols)
        local = coords - np.asarray(self.lower or (0,) * self.rank, dtype=np.int64)
        return np.all((local >= 0) & (local < np.asarray(self.sizes, dtype=np.int64)), axis=-1)

    def addresses(self, coords: np.ndarray) -> np.ndarray:
        """Addresses of global coordinates `coords` (last axis = rank), bounds-checked."""
        coords = np.asarray(coords, dtype=np.int64)
        if self.lower and any(self.lower):
            local = coords - np.asarray(self.lower, dtype=np.int64)
        else:
            local = coords
        outside = np.zeros(local.shape[:-1], dtype=bool)
        for k, size in enumerate(self.sizes):  # a dimension at a time: no (points, rank) temporaries
            column = local[..., k]
            outside |= (column < 0) | (column >= size)
        if outside.any():
            i = np.unravel_index(int(np.argmax(outside)), outside.shape)
            raise MemoryAccessError(
                f"coordinate {tuple(int(x) for x in coords[i])} is outside the view's sizes "
                f"{list(self.sizes)}" + (f" (local coordinate {tuple(int(x) for x in local[i])})" if self.lower and any(self.lower) else "")
            )
        return self.offset + self.element_offsets(local) * self.memory.element_step(self.et)

    def element_offsets(self, local: np.ndarray) -> np.ndarray:
        """Offsets in elements from `offset` of local coordinates (last axis = rank), unchecked."""
        local = np.asarray(local, dtype=np.int64)
        if self.layout is None:
            out = np.zeros(local.shape[:-1], dtype=np.int64)
            for k, stride in enumerate(self.strides):
                out += local[..., k] * stride
            return out
        dims = [local[..., k] for k in range(local.shape[-1])]
        value = compiled_map(self.layout, checked=False)(dims, [0] * self.layout.num_symbols)[0]
        return np.broadcast_to(np.asarray(value), local.shape[:-1]).astype(np.int64)

    def box_addresses(self, start: tuple[int, ...], shape: tuple[int, ...]) -> np.ndarray | None:
        """Addresses of the box of global coordinates `start + [0, shape)` when all of it lies
        in this view (its sizes and its coordinate set), else None. A set of linear
        constraints is convex, so its corners decide; other sets answer None."""
        rank = len(self.sizes)
        if len(start) != rank or any(n <= 0 for n in shape):
            return None
        lower = self.lower or (0,) * rank
        for first, n, low, size in zip(start, shape, lower, self.sizes):
            if first - low < 0 or first - low + n > size:
                return None
        if self.coordinate_set is not None:
            bounds = self.__dict__.get("_set_box", False)
            if bounds is False:
                bounds = self.__dict__["_set_box"] = _box_set(self.coordinate_set, self.set_symbols)
            if bounds is not None:
                if all(lo <= a and a + n - 1 <= hi for (lo, hi), a, n in zip(bounds, start, shape)):
                    return self._box_addresses(start, shape, lower)
                return None
            if not _linear(self.coordinate_set, self.set_symbols):
                return None
            corners = np.array(list(itertools.product(*((a, a + n - 1) for a, n in zip(start, shape)))), dtype=np.int64)
            if not eval_set(self.coordinate_set, corners, self.set_symbols).all():
                return None
        return self._box_addresses(start, shape, lower)

    def _box_addresses(self, start, shape, lower) -> np.ndarray:
        step = self.memory.element_step(self.et)
        addresses = np.full((1,) * self.rank, self.offset, dtype=np.int64)
        for k, (first, n, low, stride) in enumerate(zip(start, shape, lower, self.strides)):
            axis = (np.arange(n, dtype=np.int64) + (first - low)) * (stride * step)
            addresses = addresses + axis.reshape((1,) * k + (n,) + (1,) * (self.rank - k - 1))
        return addresses

    def extent(self) -> tuple[int, int] | None:
        """[first, last] address this view can touch (None if empty)."""
        if any(s <= 0 for s in self.sizes):
            return None
        lo = hi = 0
        for size, stride in zip(self.sizes, self.strides):
            span = (size - 1) * stride
            lo += min(0, span)
            hi += max(0, span)
        step = self.memory.element_step(self.et)
        return self.offset + lo * step, self.offset + hi * step + (step - 1)

    def is_dense_row_major(self) -> bool:
        expect = 1
        for size, stride in reversed(list(zip(self.sizes, self.strides))):
            if size != 1 and stride != expect:
                return False
            expect *= size
        return True

    # -- element access -------------------------------------------------------------------

    def read(self, coords: np.ndarray, tile: int | None, check_set: bool = True) -> np.ndarray:
        if check_set:
            self._check_set(coords)
        return self.memory.read(self.addresses(coords), self.et, tile)

    def write(self, coords: np.ndarray, values: Any, tile: int | None, check_set: bool = True) -> None:
        if check_set:
            self._check_set(coords)
        self.memory.write(self.addresses(coords), values, self.et, tile)

    def _check_set(self, coords: np.ndarray) -> None:
        if self.coordinate_set is None or coords.size == 0:
            return
        inside = eval_set(self.coordinate_set, coords, self.set_symbols)
        if not inside.all():
            i = np.unravel_index(int(np.argmax(~inside)), inside.shape)
            raise MemoryAccessError(
                f"coordinate {tuple(int(x) for x in coords[i])} is outside the view's coordinate_set"
            )


@dataclass
class DistributedView:
    """A memref value built by `ktdp.construct_distributed_memory_view`."""

    parts: list[StridedView]
    et: ElementType
    rank: int

    def _route(self, coords: np.ndarray) -> np.ndarray:
        """Index of the part holding each coordinate (first match)."""
        owner = np.full(coords.shape[:-1], -1, dtype=np.int64)
        for i, part in enumerate(self.parts):
            hit = (owner < 0) & part.contains(coords)
            owner[hit] = i
        if (owner < 0).any():
            i = np.unravel_index(int(np.argmax(owner < 0)), owner.shape)
            raise MemoryAccessError(
                f"coordinate {tuple(int(x) for x in coords[i])} is in no part of the distributed view"
            )
        return owner

    def read(self, coords: np.ndarray, tile: int | None, check_set: bool = True) -> np.ndarray:
        coords = np.asarray(coords, dtype=np.int64)
        owner = self._route(coords)
        out = self.et.zeros(coords.shape[:-1])
        for i, part in enumerate(self.parts):
            sel = owner == i
            if sel.any():
                out[sel] = self.et.cast(part.read(coords[sel], tile, check_set=False))
        return out

    def write(self, coords: np.ndarray, values: Any, tile: int | None, check_set: bool = True) -> None:
        coords = np.asarray(coords, dtype=np.int64)
        owner = self._route(coords)
        values = np.broadcast_to(np.asarray(values), coords.shape[:-1])
        for i, part in enumerate(self.parts):
            sel = owner == i
            if sel.any():
                part.write(coords[sel], values[sel], tile, check_set=False)


@dataclass
class AccessTile:
    """Coordinates into `base` (a view or a tensor): `coords.shape = tile shape + (rank,)`.

    `mask` (tile shape, or None for all) marks the points that exist: a load gives zero
    where the mask is False and a store leaves those places alone.
    """

    base: Any  # StridedView | DistributedView | np.ndarray
    coords: np.ndarray
    mask: np.ndarray | None = None
    box_start: tuple[int, ...] | None = None  # coords is the whole box from here, row-major

    @property
    def shape(self) -> tuple[int, ...]:
        return self.coords.shape[:-1]
