"""Byte-addressed sparse memories of the DataflowIR simulator, fast on contiguous accesses.

`FlatMemory(name, size)` stores bytes in 64 KiB pages allocated on first write (a 1 GiB DDR
costs nothing until used); never-written bytes read as 0. Elements are stored as their bits
(`dtypes.ElementType.to_bits`, little-endian), as `interp/memory.py` does, so both agree on
the contents of a buffer. An access whose element addresses are consecutive is one slice
copy per page; any other pattern is gathered/scattered byte by byte. An address outside
[0, size) raises `MemoryAccessError`.
"""

from __future__ import annotations

import numpy as np

from dfsched.interp.dtypes import ElementType
from dfsched.interp.memory import MemoryAccessError, unique_sorted

_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class FlatMemory:
    PAGE_BITS = 16
    PAGE = 1 << PAGE_BITS
    MASK = PAGE - 1

    def __init__(self, name: str, size: int | None = None):
        self.name = name
        self.size = size
        self.pages: dict[int, np.ndarray] = {}

    # -- bytes ----------------------------------------------------------------------------
    def _check(self, lo: int, hi: int) -> None:
        """Bytes [lo, hi] are accessed."""
        if lo < 0:
            raise MemoryAccessError(f"address {lo} is below the start of {self.name}")
        if self.size is not None and hi >= self.size:
            raise MemoryAccessError(f"address {hi} is past the end of {self.name} (size {self.size})")

    def _page(self, number: int) -> np.ndarray:
        page = self.pages.get(number)
        if page is None:
            page = self.pages[number] = np.zeros(self.PAGE, dtype=np.uint8)
        return page

    def read_bytes(self, start: int, count: int) -> np.ndarray:
        self._check(start, start + count - 1)
        out = np.empty(count, dtype=np.uint8)
        done = 0
        while done < count:
            address = start + done
            number, offset = address >> self.PAGE_BITS, address & self.MASK
            n = min(count - done, self.PAGE - offset)
            page = self.pages.get(number)
            if page is None:
                out[done:done + n] = 0
            else:
                out[done:done + n] = page[offset:offset + n]
            done += n
        return out

    def write_bytes(self, start: int, data: np.ndarray) -> None:
        count = data.size
        self._check(start, start + count - 1)
        done = 0
        while done < count:
            address = start + done
            number, offset = address >> self.PAGE_BITS, address & self.MASK
            n = min(count - done, self.PAGE - offset)
            self._page(number)[offset:offset + n] = data[done:done + n]
            done += n

    def _gather(self, slots: np.ndarray) -> np.ndarray:
        flat = slots.reshape(-1)
        self._check(int(flat.min()), int(flat.max()))
        numbers = flat >> self.PAGE_BITS
        offsets = flat & self.MASK
        out = np.zeros(flat.shape, dtype=np.uint8)
        for number in unique_sorted(numbers):
            page = self.pages.get(int(number))
            if page is not None:
                sel = numbers == number
                out[sel] = page[offsets[sel]]
        return out.reshape(slots.shape)

    def _scatter(self, slots: np.ndarray, data: np.ndarray) -> None:
        flat = slots.reshape(-1)
        values = data.reshape(-1)
        self._check(int(flat.min()), int(flat.max()))
        numbers = flat >> self.PAGE_BITS
        offsets = flat & self.MASK
        for number in unique_sorted(numbers):
            sel = numbers == number
            self._page(int(number))[offsets[sel]] = values[sel]

    # -- elements -------------------------------------------------------------------------
    @staticmethod
    def _contiguous(flat: np.ndarray, itemsize: int) -> bool:
        n = flat.size
        if n == 1:
            return True
        if int(flat[-1]) - int(flat[0]) != (n - 1) * itemsize:
            return False
        return bool(np.all(np.diff(flat) == itemsize))

    def read(self, addresses, et: ElementType, consecutive: bool = False) -> np.ndarray:
        """The elements of type `et` starting at each byte address (any shape).

        `consecutive`: the caller knows the addresses are consecutive elements.
        """
        addr = np.asarray(addresses, dtype=np.int64)
        flat = addr.reshape(-1)
        if flat.size == 0:
            return et.zeros(addr.shape)
        size = et.itemsize
        if consecutive or self._contiguous(flat, size):
            raw = self.read_bytes(int(flat[0]), flat.size * size)
        else:
            raw = self._gather(flat[:, None] + np.arange(size, dtype=np.int64))
        bits = np.ascontiguousarray(raw).view(_UINT[size]).reshape(addr.shape)
        return et.from_bits(bits)

    def write(self, addresses, values, et: ElementType, consecutive: bool = False) -> None:
        addr = np.asarray(addresses, dtype=np.int64)
        flat = addr.reshape(-1)
        if flat.size == 0:
            return
        size = et.itemsize
        bits = et.to_bits(values)
        if bits.shape != addr.shape:
            bits = np.broadcast_to(bits, addr.shape)
        raw = np.ascontiguousarray(bits.reshape(-1).astype(_UINT[size], copy=False)).view(np.uint8)
        if consecutive or self._contiguous(flat, size):
            self.write_bytes(int(flat[0]), raw)
        else:
            self._scatter(flat[:, None] + np.arange(size, dtype=np.int64), raw.reshape(-1, size))

    def place(self, address: int, array: np.ndarray, et: ElementType) -> None:
        """Store `array` densely (row-major) from `address`."""
        flat = np.asarray(array).reshape(-1)
        if flat.size:
            raw = np.ascontiguousarray(et.to_bits(flat).astype(_UINT[et.itemsize])).view(np.uint8)
            self.write_bytes(address, raw)

    def fetch(self, address: int, shape: tuple[int, ...], et: ElementType) -> np.ndarray:
        """The dense row-major array of `shape` stored from `address`."""
        count = int(np.prod(shape, dtype=np.int64))
        if count == 0:
            return et.zeros(shape)
        raw = self.read_bytes(address, count * et.itemsize)
        return et.from_bits(raw.view(_UINT[et.itemsize])).reshape(shape)


__all__ = ["FlatMemory"]
