"""`dfsched-run --trace`: the Chrome trace-event JSON agrees with the simulator's own statistics."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from dfsched.interp import ktir
from dfsched.interp.dataflow import check_against_reference
from dfsched.tools.dataflow_compile import compile_to_dfir
from dfsched.tools.run import main as run_main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=[("row_bias", "sample"), ("add", "quad_corelet")])
def simulated(request):
    name, device = request.param
    kernel = ROOT / "examples" / f"{name}.mlir"
    result, differences = check_against_reference(ktir.load_module(kernel), compile_to_dfir(kernel, device),
                                                  device=device)
    assert not differences
    return result, json.loads(json.dumps(result.chrome_trace()))


def _tracks(events) -> dict[tuple[int, int], str]:
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}


def test_one_track_per_unit_grouped_by_core(simulated):
    result, trace = simulated
    events = trace["traceEvents"]
    tracks = _tracks(events)
    units = {e.unit for e in result.timeline}
    names = {label.split(" ")[-1] for label in tracks.values()} - {"launches"}
    assert units <= names
    processes = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    for (pid, _), label in tracks.items():
        unit = label.split(" ")[-1]
        if unit in result.stats and result.stats[unit].core is not None:
            assert processes[pid] == f"core {result.stats[unit].core}"
        if "-CL" in unit:
            assert label.startswith("CL" + unit.rsplit("-CL", 1)[1] + " ")


def test_slices_match_the_statistics(simulated):
    result, trace = simulated
    events = trace["traceEvents"]
    tracks = _tracks(events)
    slices = [e for e in events if e["ph"] == "X" and e["cat"] != "launch"]
    per_unit = Counter(tracks[(e["pid"], e["tid"])].split(" ")[-1] for e in slices)
    assert per_unit == Counter(e.unit for e in result.timeline)
    busy: dict[str, int] = defaultdict(int)
    sent: dict[str, int] = defaultdict(int)
    dma: dict[str, int] = defaultdict(int)
    vectors: dict[str, int] = defaultdict(int)
    for e in slices:
        unit = tracks[(e["pid"], e["tid"])].split(" ")[-1]
        busy[unit] += e["dur"]
        if e["cat"] == "send":
            sent[unit] += e["args"]["bytes"]
        if e["cat"] == "dma":
            dma[unit] += e["args"]["bytes"]
        vectors[unit] += e["args"].get("vectors", 0)
    for unit, stats in result.stats.items():
        assert busy.get(unit, 0) == result.busy_cycles_per_unit[unit], unit
        assert sent.get(unit, 0) == stats.sent_bytes, unit
        assert dma.get(unit, 0) == stats.dma_bytes, unit
        assert vectors.get(unit, 0) == stats.vector_ops, unit
    launches = [e for e in events if e.get("cat") == "launch"]
    assert [(e["name"], e["ts"], e["ts"] + e["dur"]) for e in launches] == [
        (f"@{f}", s, t) for f, s, t in result.launches]


def test_fifo_counters_reach_the_recorded_peaks(simulated):
    result, trace = simulated
    counters: dict[str, list[int]] = defaultdict(list)
    for e in trace["traceEvents"]:
        if e["ph"] == "C":
            counters[e["name"].removeprefix("FIFO ")].append(e["args"]["bytes"])
    assert {name for name, peak in result.fifos.items() if peak} == set(counters)
    for name, values in counters.items():
        assert max(values) == result.fifos[name]
        assert values[-1] == 0  # every FIFO drains by the end of its launch


def test_run_writes_the_trace(tmp_path, capsys):
    out = tmp_path / "add.trace.json"
    assert run_main([str(ROOT / "examples" / "add.mlir"), "--trace", str(out)]) == 0
    assert "trace:" in capsys.readouterr().out
    events = json.loads(out.read_text())["traceEvents"]
    assert any(e["ph"] == "X" for e in events) and any(e["ph"] == "C" for e in events)


def test_unwritable_trace_is_a_clean_error(tmp_path, capsys):
    out = tmp_path / "missing" / "t.json"
    assert run_main([str(ROOT / "examples" / "add.mlir"), "--trace", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"cannot write '{out}'" in err and "Traceback" not in err and "simulated" not in err
    assert not out.exists()
