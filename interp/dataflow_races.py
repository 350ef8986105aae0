"""Race detection of the DataflowIR simulator: happens-before with vector clocks.

Simulated timing may hide a missing synchronisation (the writer happened to finish first).
With `check_races`, the simulator also checks that every two accesses of different units to
the same memory byte, one of them a write, are ordered by the program's synchronisation,
whatever the timing:

* every unit of a launch has a vector clock (one epoch per unit, its own starting at 1);
* a `sync_send` and every chunk a `send` pushes into a FIFO carry a copy of the sender's
  clock, after which the sender's own epoch advances; a `sync_recv`, and a `receive` for the
  chunks it takes, merge the carried clocks into the receiver's (element-wise maximum);
* every memory byte remembers its last writer (unit, epoch) and its last reader (unit,
  epoch). A read of a byte last written by another unit at epoch e is ordered iff the
  reader's clock for that unit is >= e; a write checks the last writer and the last reader
  alike. (Only the last reader is remembered: a write ordered after it but not after an
  earlier reader of another unit goes unnoticed.)
* launches are sequential (each ends when all its units did), so the history starts afresh
  with each launch.

A race is reported as `RaceError` naming both units, the memory and the byte address.
"""

from __future__ import annotations

import numpy as np

from dfsched.interp.memory import unique_sorted

NONE = -1
ORDERED = np.iinfo(np.int64).max  # an epoch limit nothing exceeds


class RaceError(Exception):
    pass


class _Page:
    __slots__ = ("w_unit", "w_epoch", "r_unit", "r_epoch")

    def __init__(self, size: int):
        self.w_unit = np.full(size, NONE, dtype=np.int32)
        self.w_epoch = np.zeros(size, dtype=np.int64)
        self.r_unit = np.full(size, NONE, dtype=np.int32)
        self.r_epoch = np.zeros(size, dtype=np.int64)


class Shadow:
    """Last writer and last reader of every byte of one memory."""

    PAGE_BITS = 16
    PAGE = 1 << PAGE_BITS
    MASK = PAGE - 1

    def __init__(self, name: str):
        self.name = name
        self.pages: dict[int, _Page] = {}

    def _page(self, number: int) -> _Page:
        page = self.pages.get(number)
        if page is None:
            page = self.pages[number] = _Page(self.PAGE)
        return page

    def spans(self, first: int, count: int):
        """(page number, in-page slice, address of the slice's first byte) of the bytes
        [first, first + count), in address order."""
        at, end = first, first + count
        while at < end:
            number = at >> self.PAGE_BITS
            stop = min(end, (number + 1) << self.PAGE_BITS)
            yield number, slice(at & self.MASK, ((stop - 1) & self.MASK) + 1), at
            at = stop

    def _by_page(self, slots: np.ndarray):
        numbers = slots >> self.PAGE_BITS
        offsets = slots & self.MASK
        first, last = int(numbers[0]), int(numbers[-1])
        if first == last and (slots.size < 3 or int(numbers.min()) == int(numbers.max())):
            yield first, offsets, slots
            return
        for number in unique_sorted(numbers):
            sel = numbers == number
            yield int(number), offsets[sel], slots[sel]


class RaceTracker:
    """The vector clocks of one launch and the shadows of the memories it touches."""

    def __init__(self, units: list[str]):
        self.units = list(units)
        self.index = {name: i for i, name in enumerate(self.units)}
        n = len(self.units)
        self.clocks = [np.zeros(n, dtype=np.int64) for _ in range(n)]
        for i, clock in enumerate(self.clocks):
            clock[i] = 1
        # per unit, the latest epoch of each unit whose accesses are ordered before its next one,
        # indexed by unit + 1: no unit (NONE) and the unit itself are always ordered
        self.limits = [np.full(n + 1, ORDERED, dtype=np.int64) for _ in range(n)]
        for i in range(n):
            self._sync_limits(i)
        self.shadows: dict[int, Shadow] = {}

    def _sync_limits(self, i: int) -> None:
        limits = self.limits[i]
        limits[1:] = self.clocks[i]
        limits[0] = limits[i + 1] = ORDERED

    # -- synchronisation --------------------------------------------------------------------
    def release(self, unit: str) -> np.ndarray:
        """The clock a message of `unit` carries; `unit` moves to its next epoch."""
        i = self.index[unit]
        carried = self.clocks[i].copy()
        self.clocks[i][i] += 1
        return carried

    def acquire(self, unit: str, carried: np.ndarray | None) -> None:
        if carried is not None:
            i = self.index[unit]
            clock = self.clocks[i]
            np.maximum(clock, carried, out=clock)
            self._sync_limits(i)

    # -- memory accesses ------------------------------------------------------------------
    def _shadow(self, memory) -> Shadow:
        shadow = self.shadows.get(id(memory))
        if shadow is None:
            shadow = self.shadows[id(memory)] = Shadow(memory.name)
        return shadow

    @staticmethod
    def _slots(addresses: np.ndarray, itemsize: int, consecutive: bool) -> np.ndarray:
        flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
        if flat.size == 0:
            return flat
        if consecutive:
            return np.arange(int(flat[0]), int(flat[0]) + flat.size * itemsize, dtype=np.int64)
        return (flat[:, None] + np.arange(itemsize, dtype=np.int64)).reshape(-1)

    def _ordered(self, me: int, units: np.ndarray, epochs: np.ndarray) -> np.ndarray:
        """Which (unit, epoch) accesses are ordered before `me`'s next access."""
        return epochs <= self.limits[me][units + 1]

    def _pages(self, shadow: Shadow, addresses, itemsize: int, consecutive: bool):
        """(page number, offsets in the page, the bytes' addresses: an array, or the first
        byte's address of a run) of each page the accessed bytes fall in, in address order."""
        if consecutive:
            flat = np.asarray(addresses).reshape(-1)
            if flat.size:
                yield from shadow.spans(int(flat[0]), flat.size * itemsize)
            return
        slots = self._slots(addresses, itemsize, consecutive)
        if slots.size:
            yield from shadow._by_page(slots)

    @staticmethod
    def _address(where, k: int) -> int:
        return where + k if isinstance(where, int) else int(where[k])

    def read(self, unit: str, memory, addresses: np.ndarray, itemsize: int, consecutive: bool) -> None:
        me = self.index[unit]
        epoch = self.clocks[me][me]
        shadow = self._shadow(memory)
        for number, offsets, where in self._pages(shadow, addresses, itemsize, consecutive):
            page = shadow.pages.get(number)
            if page is None:
                page = shadow._page(number)
            else:
                ok = self._ordered(me, page.w_unit[offsets], page.w_epoch[offsets])
                if not ok.all():
                    k = int(np.argmax(~ok))
                    other = self.units[int(page.w_unit[offsets][k])]
                    raise RaceError(f"{unit} reads byte {self._address(where, k)} of {memory.name}, which {other} wrote "
                                    f"with no synchronisation ordering the write before the read (a race)")
            page.r_unit[offsets] = me
            page.r_epoch[offsets] = epoch

    def write(self, unit: str, memory, addresses: np.ndarray, itemsize: int, consecutive: bool) -> None:
        me = self.index[unit]
        epoch = self.clocks[me][me]
        shadow = self._shadow(memory)
        for number, offsets, where in self._pages(shadow, addresses, itemsize, consecutive):
            page = shadow._page(number)
            for units, epochs, what in ((page.w_unit, page.w_epoch, "wrote"), (page.r_unit, page.r_epoch, "read")):
                ok = self._ordered(me, units[offsets], epochs[offsets])
                if not ok.all():
                    k = int(np.argmax(~ok))
                    other = self.units[int(units[offsets][k])]
                    raise RaceError(f"{unit} writes byte {self._address(where, k)} of {memory.name}, which {other} {what} "
                                    f"with no synchronisation ordering the two (a race)")
            page.w_unit[offsets] = me
            page.w_epoch[offsets] = epoch
            page.r_unit[offsets] = NONE


__all__ = ["RaceError", "RaceTracker"]
