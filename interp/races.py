"""Race checking of the three interpreters: one shadow memory of who last touched each slot.

Two accesses to one memory slot race when one of them writes and nothing orders them: the
result then depends on an order the program does not fix. Every interpreter checks that the
same way, with a `Shadow` beside each memory it checks: per slot, the last writer and the
last reader (an *actor* and the *epoch* it was in). Only what orders two actors differs:

* **Compute tiles** (KTIR reference, ScheduleIR interpreter; `memory.Memory(track_races=True)`):
  tiles never synchronise, so only a tile's own accesses are ordered (`UNORDERED` rule). A
  slot read by several tiles remembers `MANY` readers (a later write by any tile races).
  A write that stores the bytes a slot already holds is no race (tiles storing identical
  values agree in any order): the memory passes which slots the write changes.
* **`ktdf.parallel` instances** (ScheduleIR interpreter, `AccessLog`): corelets run the
  instances of one execution at the same time, so instances are unordered too; the log is
  replayed through a shadow, instance by instance, when the execution ends.
* **DataflowIR units** (`RaceTracker`, the simulator with `check_races`): every unit has a
  vector clock (one epoch per unit, its own starting at 1); a `sync_send` and every chunk a
  `send` pushes carry a copy of the sender's clock, after which the sender's epoch advances;
  a `sync_recv`, and a `receive` for the chunks it takes, merge the carried clocks into the
  receiver's (element-wise maximum). An access of unit u at epoch e is ordered before unit
  m's next access iff m's clock for u is >= e. Only the last reader is remembered: a write
  ordered after it but not after an earlier reader of another unit goes unnoticed. Launches
  are sequential, so the history starts afresh with each launch. A run that makes some
  accesses early (`dataflow_batch.py`) marks bytes two units read unordered (`watch_shared`),
  since which of them is the last reader may then differ: a write to one is `OrderUnknown`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NONE = -1  # no actor touched the slot
MANY = -2  # several tiles read the slot (compute-tile rule)
ORDERED = np.iinfo(np.int64).max  # an epoch limit nothing exceeds


class RaceError(Exception):
    """Two actors touch one slot, one of them writes, and nothing orders them."""

    def __init__(self, message: str, memory: str = "", address: int = -1, actor: int = NONE, other: int = NONE):
        super().__init__(message)
        self.memory, self.address, self.tile, self.other = memory, address, actor, other


class _Page:
    """A shadow page: per slot, the last writer and reader and (with epochs) their epochs.
    The race tracker defers the updates of accesses its block summaries found ordered
    (`pending`, see `_defer`); the arrays are brought up to date whenever they are read."""

    __slots__ = ("_writer", "_w_epoch", "_reader", "_r_epoch", "shared", "summary", "pending")

    def __init__(self, size: int, dtype, epochs: bool):
        self.shared = None  # RaceTracker.watch_shared: slots two units read unordered
        self.summary = None  # RaceTracker: `_Summary` of its blocks
        self.pending = None  # RaceTracker: accesses not yet written into the arrays
        self._writer = np.full(size, NONE, dtype=dtype)
        self._reader = np.full(size, NONE, dtype=dtype)
        self._w_epoch = np.zeros(size, dtype=np.int64) if epochs else None
        self._r_epoch = np.zeros(size, dtype=np.int64) if epochs else None

    @property
    def writer(self) -> np.ndarray:
        if self.pending:
            _flush(self)
        return self._writer

    @property
    def reader(self) -> np.ndarray:
        if self.pending:
            _flush(self)
        return self._reader

    @property
    def w_epoch(self) -> np.ndarray | None:
        if self.pending:
            _flush(self)
        return self._w_epoch

    @property
    def r_epoch(self) -> np.ndarray | None:
        if self.pending:
            _flush(self)
        return self._r_epoch


@dataclass(frozen=True)
class Conflict:
    """The first unordered access found: the index of the slot in the access, the other
    actor, and what it did ("write" or "read")."""

    index: int
    other: int
    what: str


class Shadow:
    """Last writer and last reader of every slot of one memory, paged like the memory.

    `epochs`: remember the epoch of each access (vector clocks); without, an access is ordered
    only after the same actor's (`UNORDERED` rule). `shared_reads`: a slot read by a second
    unordered actor remembers `MANY` readers instead of the last one.
    """

    def __init__(self, page_bits: int, *, epochs: bool, shared_reads: bool, actor_dtype=np.int32):
        self.PAGE_BITS = page_bits
        self.PAGE = 1 << page_bits
        self.MASK = self.PAGE - 1
        self.epochs = epochs
        self.shared_reads = shared_reads
        self.dtype = actor_dtype
        self.pages: dict[int, _Page] = {}

    def page(self, number: int) -> _Page:
        page = self.pages.get(number)
        if page is None:
            page = self.pages[number] = _Page(self.PAGE, self.dtype, self.epochs)
        return page

    # -- addressing --------------------------------------------------------------------------
    def spans(self, first: int, count: int):
        """(page number, in-page slice, address of the slice's first slot) of the slots
        [first, first + count), in address order."""
        at, end = first, first + count
        while at < end:
            number = at >> self.PAGE_BITS
            stop = min(end, (number + 1) << self.PAGE_BITS)
            yield number, slice(at & self.MASK, ((stop - 1) & self.MASK) + 1), at
            at = stop

    def by_page(self, slots: np.ndarray):
        """(page number, in-page offsets, the slots' addresses) per page `slots` fall in."""
        numbers = slots >> self.PAGE_BITS
        offsets = slots & self.MASK
        first, last = int(numbers[0]), int(numbers[-1])
        if first == last and (slots.size < 3 or int(numbers.min()) == int(numbers.max())):
            yield first, offsets, slots
            return
        from dfsched.interp.memory import unique_sorted  # (memory imports this module)

        for number in unique_sorted(numbers):
            sel = numbers == number
            yield int(number), offsets[sel], slots[sel]

    # -- checks (each records the access when it finds no conflict) ---------------------------
    @staticmethod
    def _first(bad: np.ndarray, seen: np.ndarray, what: str) -> Conflict | None:
        if not np.count_nonzero(bad):
            return None
        k = int(np.argmax(bad))
        return Conflict(k, int(seen[k]), what)

    def _unordered(self, seen: np.ndarray, epochs, actor: int, limits) -> np.ndarray:
        if limits is None:  # actors without synchronisation: only the same actor is ordered
            return (seen != NONE) & (seen != actor)
        return epochs > limits[seen + 1]

    def read(self, page: _Page, offsets, actor: int, epoch: int = 0, limits=None, fresh: bool = False) -> Conflict | None:
        """A read by `actor` of the slots `offsets` of `page`; `limits` (vector clocks): per
        actor + 1, the latest epoch ordered before this access (None: the unordered rule);
        `fresh`: the page was just made (nothing to check against)."""
        if not fresh:
            writers = page.writer[offsets]
            found = self._first(self._unordered(writers, page.w_epoch[offsets] if self.epochs else None, actor, limits),
                                writers, "write")
            if found is not None:
                return found
        if self.shared_reads:
            readers = page.reader[offsets]
            page.reader[offsets] = np.where((readers == NONE) | (readers == actor), actor, MANY)
        else:
            page.reader[offsets] = actor
        if self.epochs:
            page.r_epoch[offsets] = epoch
        return None

    def write(self, page: _Page, offsets, actor: int, epoch: int = 0, limits=None, changes=None) -> Conflict | None:
        """A write by `actor`; `changes` (or None: every slot): which slots it gives new bytes
        (a write of the same bytes races with nothing under the unordered rule)."""
        for seen, epochs, what in ((page.writer, page.w_epoch, "write"), (page.reader, page.r_epoch, "read")):
            actors = seen[offsets]
            bad = self._unordered(actors, epochs[offsets] if self.epochs else None, actor, limits)
            if changes is not None:
                bad &= changes
            found = self._first(bad, actors, what)
            if found is not None:
                return found
        page.writer[offsets] = actor
        if self.epochs:
            page.w_epoch[offsets] = epoch
            page.reader[offsets] = NONE
        return None

    def would_race(self, slots: np.ndarray, actor: int) -> bool:
        """Whether a write by `actor` to `slots` (changing every one) would race; records nothing."""
        for number, offsets, _ in self.by_page(slots):
            page = self.pages.get(number)
            if page is None:
                continue
            for seen in (page.writer[offsets], page.reader[offsets]):
                if np.any((seen != NONE) & (seen != actor)):
                    return True
        return False


def _changed_bytes(memory, addresses, values: np.ndarray, et) -> np.ndarray:
    """The byte addresses (sorted) whose bytes a write of `values` at the element addresses
    `addresses` changes: every byte of an element whose bits differ from what `memory` holds."""
    flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
    new = et.cast(np.asarray(values)).reshape(-1)
    old = memory.read(flat, et)
    old_bytes = np.ascontiguousarray(old).view(np.uint8).reshape(flat.size, -1)
    new_bytes = np.ascontiguousarray(new).view(np.uint8).reshape(flat.size, -1)
    differs = (old_bytes != new_bytes).any(axis=1)
    return np.sort((flat[differs][:, None] + np.arange(et.itemsize, dtype=np.int64)).reshape(-1))


BLOCK_BITS = 7  # the race tracker summarises a shadow page per 128-byte block (one 64-element f16 vector)


class _Summary:
    """Per block of a shadow page (`RaceTracker`), every actor that wrote or read a slot of it
    since the launch began, with its latest epoch: an access that every such actor's epoch is
    ordered before cannot race there, and needs no slot-by-slot check. It never forgets an
    actor (a slot's later access does not remove the earlier one), so it only ever sends an
    access to the slot-by-slot check that might have skipped it."""

    __slots__ = ("writers", "readers", "shared", "all_shared")

    def __init__(self, blocks: int):
        self.writers: list[dict[int, int] | None] = [None] * blocks
        self.readers: list[dict[int, int] | None] = [None] * blocks
        self.shared: set[int] = set()  # blocks with a slot in `_Page.shared`
        self.all_shared: set[tuple[int, int]] = set()  # in-page slices whose slots all are


def _ordered(summaries, b0: int, b1: int, me: int, clock: list[int]) -> bool:
    """Whether every actor `summaries` lists for blocks b0..b1 is `me` or ordered before it
    (`clock`: `me`'s vector clock, the latest epoch of each actor ordered before its access)."""
    for b in range(b0, b1 + 1):
        seen = summaries[b]
        if seen:
            for actor, epoch in seen.items():
                if actor != me and epoch > clock[actor]:
                    return False
    return True


def _readers_ordered(page: _Page, sl: slice, limits: np.ndarray) -> bool:
    """Whether the last reader of every slot of `sl` is ordered before an access with `limits`."""
    readers = page.reader[sl]
    return not np.count_nonzero(page.r_epoch[sl] > limits[readers + 1])


def _writers_ordered(page: _Page, sl: slice, limits: np.ndarray) -> bool:
    """Whether the last writer of every slot of `sl` is ordered before an access with `limits`."""
    writers = page.writer[sl]
    return not np.count_nonzero(page.w_epoch[sl] > limits[writers + 1])


READ, WRITE = 0, 1
PENDING_LIMIT = 4096  # deferred accesses a page holds before they are written into its arrays


def _defer(page: _Page, start: int, stop: int, kind: int, me: int, epoch: int) -> None:
    """Record an access of `me` at `epoch` to slots [start, stop) of `page` that the block
    summaries found ordered, without writing the slot arrays: most such accesses are never
    looked at slot by slot. A later access of the same kind to the same slots replaces the
    record (it overwrites every array the earlier one wrote); `_flush` writes the records, in
    order, into the arrays before anything reads them."""
    pending = page.pending
    if pending is None:
        pending = page.pending = {}
    key = (start, stop, kind)
    pending.pop(key, None)  # (re-inserted last: the records stay in access order)
    pending[key] = (me, epoch)
    if len(pending) > PENDING_LIMIT:
        _flush(page)


def _flush(page: _Page) -> None:
    """Write `page`'s deferred accesses into its slot arrays, in the order they happened."""
    pending = page.pending
    if pending:
        page.pending = None
        for (start, stop, kind), (me, epoch) in pending.items():
            if kind == WRITE:
                page._writer[start:stop] = me
                page._w_epoch[start:stop] = epoch
                page._reader[start:stop] = NONE
            else:
                page._reader[start:stop] = me
                page._r_epoch[start:stop] = epoch


def _note(summaries, b0: int, b1: int, me: int, epoch: int) -> None:
    for b in range(b0, b1 + 1):
        seen = summaries[b]
        if seen is None:
            summaries[b] = {me: epoch}
        else:
            seen[me] = epoch


def _blocks(offsets) -> tuple[int, int]:
    """The first and last block an in-page slice or offset array touches."""
    if isinstance(offsets, slice):
        return offsets.start >> BLOCK_BITS, (offsets.stop - 1) >> BLOCK_BITS
    return int(offsets.min()) >> BLOCK_BITS, int(offsets.max()) >> BLOCK_BITS


class OrderUnknown(RaceError):
    """A write whose race verdict depends on which of two unordered readers read last, in a
    run that moved accesses earlier (`RaceTracker.watch_shared`)."""


def _address(where, k: int) -> int:
    """The address of the k-th slot of an access: `where` is the first slot's address (a run)
    or the slots' addresses."""
    return where + k if isinstance(where, int) else int(where[k])


class RaceTracker:
    """The vector clocks of one DataflowIR launch and the shadows of the memories it touches."""

    PAGE_BITS = 16

    def __init__(self, units: list[str], watch_shared: bool = False, private: set[int] | None = None):
        self.units = list(units)
        # ids of memories only one unit accesses (a register file's per-unit instance): nothing
        # there can race, so their accesses are not tracked
        self.private = private if private is not None else set()
        # a run that moves accesses earlier (`dataflow_batch`) may change which of two
        # unordered readers of a slot is the last: it marks such slots, and a write to one
        # after a moved access raises `OrderUnknown` (the run is made again step by step)
        self.watch_shared = watch_shared
        self.moved = False
        self.index = {name: i for i, name in enumerate(self.units)}
        n = len(self.units)
        self.clocks = [np.zeros(n, dtype=np.int64) for _ in range(n)]
        for i, clock in enumerate(self.clocks):
            clock[i] = 1
        # per unit, the latest epoch of each unit whose accesses are ordered before its next one,
        # indexed by unit + 1: no unit (NONE) and the unit itself are always ordered
        self.limits = [np.full(n + 1, ORDERED, dtype=np.int64) for _ in range(n)]
        self.epochs = [1] * n  # each unit's own epoch, as a Python int
        self.stale: set[int] = set()  # units whose clock changed since `limits` were made
        # each unit's clock as Python ints, for the block summaries' checks (a numpy element
        # costs 30 times a list's to read); its own entry may lag (it is never read)
        self.known = [clock.tolist() for clock in self.clocks]
        self.unknown: set[int] = set()  # units whose `known` lags their clock
        for i in range(n):
            self._sync_limits(i)
        self.shadows: dict[int, Shadow] = {}

    def _sync_limits(self, i: int) -> None:
        limits = self.limits[i]
        limits[1:] = self.clocks[i]
        limits[0] = limits[i + 1] = ORDERED
        self.epochs[i] = int(self.clocks[i][i])

    # -- synchronisation --------------------------------------------------------------------
    def release(self, unit: str) -> np.ndarray:
        """The clock a message of `unit` carries; `unit` moves to its next epoch."""
        i = self.index[unit]
        clock = self.clocks[i]
        carried = clock.copy()
        epoch = self.epochs[i] = self.epochs[i] + 1
        clock[i] = epoch
        return carried

    def acquire(self, unit: str, carried: np.ndarray | None) -> None:
        if carried is not None:
            i = self.index[unit]
            clock = self.clocks[i]
            np.maximum(clock, carried, out=clock)
            self.stale.add(i)  # its limits are brought up to date when it next accesses memory
            self.unknown.add(i)

    def _known(self, i: int) -> list[int]:
        if i in self.unknown:
            self.unknown.discard(i)
            self.known[i] = self.clocks[i].tolist()
        return self.known[i]

    def _limits(self, i: int) -> np.ndarray:
        if i in self.stale:
            self.stale.discard(i)
            self._sync_limits(i)
        return self.limits[i]

    # -- memory accesses ------------------------------------------------------------------
    def _shadow(self, memory) -> Shadow:
        shadow = self.shadows.get(id(memory))
        if shadow is None:
            shadow = self.shadows[id(memory)] = Shadow(self.PAGE_BITS, epochs=True, shared_reads=False)
        return shadow

    @staticmethod
    def _pages(shadow: Shadow, addresses, itemsize: int, consecutive: bool):
        """(page number, offsets in the page, the bytes' addresses: an array, or the first
        byte's address of a run) of each page the accessed bytes fall in, in address order."""
        flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
        if not flat.size:
            return
        if consecutive:
            yield from shadow.spans(int(flat[0]), flat.size * itemsize)
            return
        yield from shadow.by_page((flat[:, None] + np.arange(itemsize, dtype=np.int64)).reshape(-1))

    def _access(self, unit: str, memory, addresses: np.ndarray, itemsize: int, consecutive: bool):
        """What a read or a write by `unit` checks against: its index, the memory's shadow, its
        epoch and limits, and the pages the bytes fall in (none for a unit's private memory)."""
        if id(memory) in self.private:
            return None, None, 0, None, ()
        me = self.index[unit]
        shadow = self._shadow(memory)
        return me, shadow, self.clocks[me][me], self._limits(me), self._pages(shadow, addresses, itemsize, consecutive)

    def _run(self, unit: str, memory, addresses: np.ndarray, itemsize: int, consecutive: bool):
        """(actor, page, first and end slot in the page, the page's block summary, first and
        last block, the actor's clock) of an access to consecutive bytes on one existing shadow
        page (the common vector access), else None."""
        if not consecutive or not addresses.size:
            return None
        return self._run_at(unit, memory, int(addresses.item(0)), addresses.size * itemsize)

    def _defer_run(self, run, kind) -> None:
        """Leave an ordered `_run` access of `kind` (READ or WRITE) to the page's deferred list and
        note it in the summary of its blocks."""
        me, page, start, stop, summary, b0, b1, _ = run
        epoch = self.epochs[me]
        _defer(page, start, stop, kind, me, epoch)
        _note(summary.readers if kind == READ else summary.writers, b0, b1, me, epoch)

    def read(self, unit: str, memory, addresses: np.ndarray, itemsize: int, consecutive: bool) -> None:
        run = self._run(unit, memory, addresses, itemsize, consecutive)
        if run is not None:  # checked block by block first: no slot-by-slot check when all is ordered
            me, page, start, stop, summary, b0, b1, clock = run
            if _ordered(summary.writers, b0, b1, me, clock) or _writers_ordered(page, slice(start, stop),
                                                                                 self._limits(me)):
                if self.watch_shared and (start, stop) not in summary.all_shared \
                        and not _ordered(summary.readers, b0, b1, me, clock):
                    self._mark_shared(page, slice(start, stop), me, self._limits(me))
                self._defer_run(run, READ)
                return
        me, shadow, epoch, limits, pages = self._access(unit, memory, addresses, itemsize, consecutive)
        for number, offsets, where in pages:
            page = shadow.pages.get(number)
            fresh = page is None
            if self.watch_shared and not fresh:
                self._mark_shared(page, offsets, me, limits)
            if fresh:
                page = shadow.page(number)
            found = shadow.read(page, offsets, me, epoch, limits, fresh)
            if found is not None:
                other = self.units[found.other]
                raise RaceError(f"{unit} reads byte {_address(where, found.index)} of {memory.name}, which {other} "
                                f"wrote with no synchronisation ordering the write before the read (a race)")
            b0, b1 = _blocks(offsets)
            _note(self._summary(page).readers, b0, b1, me, int(epoch))

    def _run_at(self, unit: str, memory, first: int, nbytes: int):
        """`_run` of the `nbytes` bytes from address `first`."""
        if id(memory) in self.private:
            return None
        last = first + nbytes - 1
        number = first >> self.PAGE_BITS
        if last >> self.PAGE_BITS != number or nbytes <= 0:
            return None
        shadow = self.shadows.get(id(memory))
        page = shadow.pages.get(number) if shadow is not None else None
        if page is None or page.summary is None:
            return None
        mask = shadow.MASK
        start, stop = first & mask, (last & mask) + 1
        me = self.index[unit]
        return me, page, start, stop, page.summary, start >> BLOCK_BITS, (stop - 1) >> BLOCK_BITS, self._known(me)

    def read_run(self, unit: str, memory, first: int, count: int, itemsize: int) -> None:
        """`read` of `count` consecutive elements of `itemsize` bytes from address `first`."""
        run = self._run_at(unit, memory, first, count * itemsize)
        if run is not None:  # (`read`'s first step, without an address array)
            me, page, start, stop, summary, b0, b1, clock = run
            if _ordered(summary.writers, b0, b1, me, clock) and not (
                    self.watch_shared and (start, stop) not in summary.all_shared
                    and not _ordered(summary.readers, b0, b1, me, clock)):
                epoch = self.epochs[me]
                _defer(page, start, stop, READ, me, epoch)
                _note(summary.readers, b0, b1, me, epoch)
                return
        if id(memory) not in self.private:
            self.read(unit, memory, first + np.arange(count, dtype=np.int64) * itemsize, itemsize, True)

    def write_run(self, unit: str, memory, first: int, count: int, itemsize: int, values: np.ndarray, et) -> None:
        """`write` of `count` consecutive elements of `itemsize` bytes from address `first`."""
        run = self._run_at(unit, memory, first, count * itemsize)
        if run is not None:  # (`write`'s first step, without an address array)
            me, page, start, stop, summary, b0, b1, clock = run
            if _ordered(summary.writers, b0, b1, me, clock) and _ordered(summary.readers, b0, b1, me, clock) \
                    and not (self.moved and not summary.shared.isdisjoint(range(b0, b1 + 1))):
                epoch = self.epochs[me]
                _defer(page, start, stop, WRITE, me, epoch)
                _note(summary.writers, b0, b1, me, epoch)
                return
        if id(memory) not in self.private:
            self.write(unit, memory, first + np.arange(count, dtype=np.int64) * itemsize, itemsize, True, values, et)

    @staticmethod
    def _summary(page: _Page) -> _Summary:
        if page.summary is None:
            page.summary = _Summary(max(1, page.reader.size >> BLOCK_BITS))
        return page.summary

    def _mark_shared(self, page: _Page, offsets, me: int, limits) -> None:
        readers = page.reader[offsets]
        unordered = (readers != NONE) & (readers != me)
        if np.count_nonzero(unordered):
            unordered &= page.r_epoch[offsets] > limits[readers + 1]
            if np.count_nonzero(unordered):
                if page.shared is None:
                    page.shared = np.zeros(page.reader.size, dtype=bool)
                page.shared[offsets] |= unordered
                summary = self._summary(page)
                b0, b1 = _blocks(offsets)
                summary.shared.update(range(b0, b1 + 1))
                if isinstance(offsets, slice) and page.shared[offsets].all():
                    summary.all_shared.add((offsets.start, offsets.stop))

    def write(self, unit: str, memory, addresses: np.ndarray, itemsize: int, consecutive: bool,
              values: np.ndarray | None = None, et=None) -> None:
        """A write by `unit`; with `values` (of element type `et`, one per address, not yet
        written), a byte it leaves as it is races with nothing: units storing identical bytes to
        one place agree in any order (Decision 25's rule for compute tiles, here for units)."""
        run = self._run(unit, memory, addresses, itemsize, consecutive)
        if run is not None:  # checked block by block first (see `read`)
            me, page, start, stop, summary, b0, b1, clock = run
            if (_ordered(summary.writers, b0, b1, me, clock)
                    or _writers_ordered(page, slice(start, stop), self._limits(me))) \
                    and (_ordered(summary.readers, b0, b1, me, clock)
                         or _readers_ordered(page, slice(start, stop), self._limits(me))) \
                    and not (self.moved and not summary.shared.isdisjoint(range(b0, b1 + 1))):
                self._defer_run(run, WRITE)
                return
        me, shadow, epoch, limits, pages = self._access(unit, memory, addresses, itemsize, consecutive)
        changed = None
        for number, offsets, where in pages:
            page = shadow.page(number)
            if self.moved and page.shared is not None and page.shared[offsets].any():
                raise OrderUnknown(f"{unit} writes bytes of {memory.name} that two units read unordered")
            found = shadow.write(page, offsets, me, epoch, limits)
            if found is not None and values is not None:
                if changed is None:
                    changed = _changed_bytes(memory, addresses, values, et)
                slots = (np.arange(offsets.start, offsets.stop) if isinstance(offsets, slice) else offsets)
                found = shadow.write(page, offsets, me, epoch, limits,
                                     changes=np.isin((number << shadow.PAGE_BITS) + slots, changed))
            if found is not None:
                other = self.units[found.other]
                did = "wrote" if found.what == "write" else "read"
                raise RaceError(f"{unit} writes byte {_address(where, found.index)} of {memory.name}, which {other} "
                                f"{did} with no synchronisation ordering the two (a race)")
            b0, b1 = _blocks(offsets)
            _note(self._summary(page).writers, b0, b1, me, int(epoch))


__all__ = ["MANY", "NONE", "Conflict", "OrderUnknown", "RaceError", "RaceTracker", "Shadow"]
