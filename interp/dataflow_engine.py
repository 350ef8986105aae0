"""The discrete-event core of the DataflowIR simulator (`dataflow.py` documents the model).

Each program instance (one `dataflow.program_unit` body running on one unit) is a
`Process` around a Python generator. The generator yields commands to the `Engine`:

* `Busy(cycles, what)`: the unit works for `cycles` cycles (counted as busy time and, if
  asked, recorded in the timeline); it resumes `cycles` later;
* `WaitUntil(time)`: the unit idles until `time` (data it needs arrives then);
* `Block(waitlist, why, op)`: the unit cannot go on until something changes `waitlist`
  (a FIFO gets data or room, a signal arrives); `why` says what it waits for (deadlock
  reports quote it).

The engine always resumes the process with the smallest time (ties: first come, first
served, so runs are deterministic), so every interaction with a FIFO or a signal happens in
global time order. A command with nothing to wait for (zero cycles, a time already past)
does not give up control.

`Fifo` is an element stream between two units with a bounded capacity in bytes; every
pushed chunk carries the time it becomes visible to the receiver. `SignalBox` counts the
`sync_send`s of one unit to another, each visible from its delivery time.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from xdsl.ir import Operation

from dfsched.diagnostics import DiagnosticError, error


# ---------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------


# (plain slotted classes, not frozen ones: a unit yields one command per op it runs, and a
# frozen dataclass costs several times as much to make)


@dataclass(slots=True)
class Busy:
    cycles: int
    what: str
    amount: int | None = None  # bytes moved or vectors computed (shown by the trace)


@dataclass(slots=True)
class WaitUntil:
    time: int


@dataclass
class Waitlist:
    """Processes parked until something they wait for changes."""

    name: str
    waiting: list["Process"] = field(default_factory=list)


@dataclass(slots=True)
class Block:
    waitlist: Waitlist
    reason: Any  # what it waits for: a str, or a function giving it (formatted only for a deadlock report)
    op: Operation | None = None

    @property
    def why(self) -> str:
        return self.reason if isinstance(self.reason, str) else self.reason()


Command = Busy | WaitUntil | Block
ProcessBody = Generator[Command, None, Any]


# ---------------------------------------------------------------------------------------
# processes
# ---------------------------------------------------------------------------------------


@dataclass
class Process:
    """One program instance: `name` is its unit's name (`C0-sfu`)."""

    name: str
    body: ProcessBody
    time: int = 0
    start: int = 0
    end: int | None = None
    busy: int = 0
    blocked: Block | None = None
    done: bool = False
    data: Any = None  # what the simulator hangs on it (its runner)


class DeadlockError(DiagnosticError):
    """Every unit still running waits for another: `blocked` = [(unit, what it waits for)]."""

    def __init__(self, diagnostic, time: int, blocked: list[tuple[str, str]]):
        super().__init__(diagnostic)
        self.time = time
        self.blocked = blocked


class TimelineEntry(NamedTuple):
    """What one unit did from `start` to `end` (a tuple of plain values: the garbage collector
    stops tracking it at its first collection, so a long timeline costs no full collections)."""

    unit: str
    start: int
    end: int
    what: str
    amount: int | None = None  # bytes for a transfer, vectors for a compute op


class Engine:
    """Runs processes in simulated time (see the module docstring)."""

    def __init__(self, start: int = 0, record_timeline: bool = True, max_events: int | None = None):
        self.now = start
        self.start = start
        self.processes: list[Process] = []
        self._heap: list[tuple[int, int, Process]] = []
        self._seq = itertools.count()
        self.timeline: list[TimelineEntry] = []
        self.record_timeline = record_timeline
        self.max_events = max_events
        self.events = 0

    def spawn(self, process: Process) -> None:
        process.time = process.start = self.now
        self.processes.append(process)
        self._push(process, self.now)

    def _push(self, process: Process, time: int) -> None:
        process.time = time
        heapq.heappush(self._heap, (time, next(self._seq), process))

    def wake(self, waitlist: Waitlist) -> None:
        """Resume everything parked on `waitlist` (now); each re-checks what it waits for."""
        if not waitlist.waiting:
            return
        waiting, waitlist.waiting = waitlist.waiting, []
        for process in waiting:
            process.blocked = None
            self._push(process, max(self.now, process.time))

    def run(self) -> int:
        """Run until every process finished; returns the time the last one finished.

        One loop for every event (a call per event costs more than most commands): pop the
        earliest process, run it until it gives up control, push it back."""
        heap = self._heap
        seq = self._seq
        pop, push = heapq.heappop, heapq.heappush
        timeline = self.timeline if self.record_timeline else None
        entry = tuple.__new__
        limit = self.max_events
        while heap:
            now, _, process = pop(heap)
            self.now = now
            body = process.body
            while True:
                self.events += 1
                if limit is not None and self.events > limit:
                    raise error(None, f"gave up after {self.max_events} simulation events (max_events)")
                try:
                    command = next(body)
                except StopIteration:
                    process.done = True
                    process.end = self.now
                    break
                kind = type(command)
                if kind is Busy:
                    cycles = command.cycles
                    if cycles <= 0:
                        continue
                    process.busy += cycles
                    now = self.now
                    if timeline is not None:
                        timeline.append(entry(TimelineEntry, (process.name, now, now + cycles, command.what, command.amount)))
                    until = now + cycles
                elif kind is WaitUntil:
                    until = command.time
                    if until <= self.now:
                        continue
                elif kind is Block:
                    process.blocked = command
                    command.waitlist.waiting.append(process)
                    break
                else:
                    raise TypeError(f"a process yielded {command!r}")
                if not heap or heap[0][0] > until:  # the next popped anyway: go on without the heap
                    self.now = until
                    continue
                process.time = until
                push(heap, (until, next(seq), process))
                break
        left = [p for p in self.processes if not p.done]
        if left:
            raise self._deadlock(left)
        return max((p.end if p.end is not None else self.now for p in self.processes), default=self.now)

    def _deadlock(self, left: list[Process]) -> DeadlockError:
        blocked = [(p.name, p.blocked.why if p.blocked else "nothing (it never got to run)") for p in left]
        lines = "; ".join(f"{name} waits {why}" for name, why in blocked)
        message = (f"deadlock at cycle {self.now}: {len(left)} unit(s) can never go on: {lines}")
        first = next((p.blocked.op for p in left if p.blocked and p.blocked.op is not None), None)
        notes = [(p.blocked.op, f"{p.name} waits {p.blocked.why}") for p in left if p.blocked and p.blocked.op is not None]
        diag = error(first, message, notes).diagnostic
        return DeadlockError(diag, self.now, blocked)


# ---------------------------------------------------------------------------------------
# channels
# ---------------------------------------------------------------------------------------


class Fifo:
    """An ordered element stream from `src` to `dst` holding at most `capacity` bytes."""

    def __init__(self, src: str, dst: str, capacity: int, granularity: int | None, depth: int):
        self.src = src
        self.dst = dst
        self.capacity = max(1, capacity)
        self.granularity = granularity
        self.depth = depth
        self.chunks: deque[list] = deque()  # [visible_from, flat array]
        self.used = 0  # bytes
        self.data = Waitlist(f"data of {src}->{dst}")
        self.room = Waitlist(f"room of {src}->{dst}")
        self.bytes_total = 0
        self.high_water = 0
        self.clock: Any = None  # what stamps the occupancy records (`.now`: the engine); None: not recorded
        self.occupancy: list[tuple[int, int]] = []  # (time, bytes queued) after each change

    @property
    def name(self) -> str:
        return f"{self.src}->{self.dst}"

    def free(self) -> int:
        return self.capacity - self.used

    def queued_elements(self) -> int:
        return sum(c[1].size for c in self.chunks)

    def push(self, values: np.ndarray, visible_from: int, clock: Any = None) -> None:
        """Append `values`, visible from `visible_from`; `clock`: the sender's, for race checks."""
        self.chunks.append([visible_from, values, clock])
        nbytes = values.nbytes
        used = self.used = self.used + nbytes
        self.bytes_total += nbytes
        if used > self.high_water:
            self.high_water = used
        if self.clock is not None:  # (`_record`, inline: one send each)
            self.occupancy.append((self.clock.now, used))

    def _record(self) -> None:
        if self.clock is not None:
            self.occupancy.append((self.clock.now, self.used))

    def visible(self, now: int) -> int:
        """Elements at the head of the stream visible at `now`."""
        n = 0
        for when, values, _ in self.chunks:
            if when > now:
                break
            n += values.size
        return n

    def next_visible_time(self) -> int | None:
        return self.chunks[0][0] if self.chunks else None

    def pop(self, count: int) -> tuple[list[np.ndarray], list[Any]]:
        """Take `count` visible elements off the head (the caller checked they are there).

        Returns the pieces and the clocks their senders attached.
        """
        out = []
        clocks = []
        while count:
            chunk = self.chunks[0]
            values = chunk[1]
            clocks.append(chunk[2])
            if values.size <= count:
                self.chunks.popleft()
                out.append(values)
                count -= values.size
                self.used -= values.nbytes
            else:
                out.append(values[:count])
                chunk[1] = values[count:]
                self.used -= out[-1].nbytes
                count = 0
        self._record()
        return out, clocks


class SignalBox:
    """`sync_send`s from `src` to `dst` not yet taken by a `sync_recv` (delivery times)."""

    def __init__(self, src: str, dst: str):
        self.src = src
        self.dst = dst
        self.pending: deque[tuple[int, Any]] = deque()  # (visible from, sender's clock)
        self.arrived = Waitlist(f"signal {src}->{dst}")
        self.count = 0


__all__ = [
    "Block",
    "Busy",
    "DeadlockError",
    "Engine",
    "Fifo",
    "Process",
    "SignalBox",
    "TimelineEntry",
    "WaitUntil",
    "Waitlist",
]
