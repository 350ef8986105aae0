"""A DataflowIR simulation as Chrome trace-event JSON, for Perfetto (ui.perfetto.dev) and chrome://tracing.

    from dfsched.interp.trace import chrome_trace, write_trace
    write_trace(result, "add.trace.json")          # result: dataflow.simulate(...)

Layout of the trace (one simulated cycle is shown as one microsecond):

* one process per core (`core N`; units the simulator places on no core go to `device`), one
  thread (track) per unit: first the units the core's corelets share (DMA engines), then each
  corelet's units (named `CL<k> <unit>`), each group in pipeline order (`timeline.unit_order`);
* one complete slice (`ph: X`) per timeline entry: its name is what the unit did (`send to
  C0-sfu`, `vectorchain.binary`, ...), its category the activity kind of the Gantt chart
  (`dma`, `load`, `store`, `send`, `receive`, `sync`, `compute`), its args the bytes it moved
  or the vectors it computed;
* one counter track (`ph: C`) per FIFO, `FIFO <src>-><dst>`, in the sender's core: bytes
  queued after every send and receive;
* one `host` process with a slice per launch (the program function whose units ran).
"""

from __future__ import annotations

import json
import re

from dfsched.fileio import write_text_atomic
from dfsched.interp.timeline import _unit_place, activity_kind, unit_order

HOST_PID = 0
DEVICE_PID = 1 << 20  # units without a core
_CORELET = re.compile(r"-CL(\d+)$")
_TRANSFER_KINDS = {"dma", "load", "store", "send", "receive"}


def _pid(core: int) -> int:
    return DEVICE_PID if core == 1 << 30 else core + 1


def chrome_trace(result) -> dict:
    """The trace-event dict of a `SimResult` (see the module docstring)."""
    stats = dict(getattr(result, "stats", None) or {})
    order = unit_order(result)
    places = {u: _unit_place(u, stats.get(u)) for u in order}
    events: list[dict] = [_meta("process_name", HOST_PID, None, {"name": "host"}),
                          _meta("process_sort_index", HOST_PID, None, {"sort_index": -1})]
    for core in sorted({p[0] for p in places.values()}):
        name = "device" if core == 1 << 30 else f"core {core}"
        events.append(_meta("process_name", _pid(core), None, {"name": name}))
        events.append(_meta("process_sort_index", _pid(core), None, {"sort_index": _pid(core)}))
    tids: dict[str, tuple[int, int]] = {}
    ranked = sorted(order, key=lambda u: (places[u][0], _corelet(u), order.index(u)))
    for index, unit in enumerate(ranked, 1):
        core = places[unit][0]
        tids[unit] = (_pid(core), index)
        label = unit if _corelet(unit) < 0 else f"CL{_corelet(unit)} {unit}"
        events.append(_meta("thread_name", _pid(core), index, {"name": label}))
        events.append(_meta("thread_sort_index", _pid(core), index, {"sort_index": index}))
    for e in result.timeline:
        pid, tid = tids[e.unit]
        kind = activity_kind(e.what)
        args = {} if e.amount is None else {("bytes" if kind in _TRANSFER_KINDS else "vectors"): e.amount}
        events.append({"name": e.what, "cat": kind, "ph": "X", "pid": pid, "tid": tid,
                       "ts": e.start, "dur": e.end - e.start, "args": args})
    for name, samples in sorted((getattr(result, "fifo_occupancy", None) or {}).items()):
        sender = name.split("->", 1)[0]
        pid = tids[sender][0] if sender in tids else _pid(_unit_place(sender, stats.get(sender))[0])
        events += [{"name": f"FIFO {name}", "ph": "C", "pid": pid, "ts": t, "args": {"bytes": used}}
                   for t, used in samples]
    events.append(_meta("thread_name", HOST_PID, 0, {"name": "launches"}))
    events += [{"name": f"@{func}", "cat": "launch", "ph": "X", "pid": HOST_PID, "tid": 0,
                "ts": start, "dur": end - start, "args": {}} for func, start, end in result.launches]
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"time unit": "1 us = 1 simulated cycle", "total cycles": result.total_cycles}}


def _corelet(unit: str) -> int:
    """The corelet a unit belongs to (`C0-sfu-CL1`), -1 for a unit the core's corelets share."""
    match = _CORELET.search(unit)
    return int(match[1]) if match else -1


def _meta(name: str, pid: int, tid: int | None, args: dict) -> dict:
    event = {"name": name, "ph": "M", "pid": pid, "args": args}
    if tid is not None:
        event["tid"] = tid
    return event


def write_trace(result, path: str) -> None:
    """Write the trace to `path` in one step."""
    write_text_atomic(path, json.dumps(chrome_trace(result), separators=(",", ":")))
