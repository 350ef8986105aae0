"""The DataflowIR simulator's per-op fast paths give what the plain interpretation gives.

* Pure ops whose operands are fixed for a program instance (`dataflow_ops.ONCE_PER_INSTANCE`:
  unit maps and their queries, views, symbols) run once per instance, not once per loop
  iteration; an op reading a loop's induction variable still runs every iteration.
* `index` arithmetic (`dataflow_ops.INDEX_ARITH`) runs on Python ints instead of going through
  the KTIR interpreter; `arith.cmpi` on two Python ints (`std_impl._run_cmpi`) does too.

Each simulation below is compared with the same one with the fast paths switched off:
outputs, cycles, timeline, statistics and FIFO occupancy must be identical.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from test_dataflow_sim import f16, module
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, i32, i64
from xdsl.utils.test_value import create_ssa_value

from dfsched.diagnostics import DiagnosticError
from dfsched.interp import dataflow_ops, std_impl
from dfsched.interp.dataflow import simulate


# Two instances of one producer program (l1lu and mnilu) and one consumer: inside the loops,
# unit maps keyed by the instance's unit (once per instance), a map keyed by the induction
# variable (every iteration), index arithmetic, a compare and a branch on it.
PIPELINE = """
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    dataflow.program_unit iter_arg : %me -> (%lu, %mnilu) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      scf.for %i = %c0 to %c4 step %c1 {
        %rows = uniform.def_immutable_mapping([%lu -> %c0], [%mnilu -> %c4]):index
        %row0 = uniform.query_map(map:%rows, key:%me) : index
        %row = arith.addi %row0, %i : index
        %v = agen.vector_load %A[%row, 0] {load_order = #id2, load_set = #row} : memref<8x64xf16>, vector<64xf16>
        %peers = uniform.def_immutable_mapping([%lu -> %sf], [%mnilu -> %sf]):index
        %peer = uniform.query_map(map:%peers, key:%me) : index
        dataflow.send %peer, %v : vector<64xf16>
      }
    }
    dataflow.program_unit iter_arg : %me -> (%sf) : {
      %C = dataflow.get_logical_memory_view %ddr, %c1024 {layout_map = #lin} : index, index, memref<8x64xf16>
      scf.for %i = %c0 to %c4 step %c1 {
        %x = dataflow.receive %lu : vector<64xf16>
        %y = dataflow.receive %mnilu : vector<64xf16>
        %scales = uniform.def_immutable_mapping([%c0 -> %c1], [%c1 -> %c2], [%c2 -> %c1], [%c3 -> %c2]):index
        %scale = uniform.query_map(map:%scales, key:%i) : index
        %last = arith.cmpi eq, %i, %c3 : index
        %s = vectorchain.binary %x, %y {binary_op = #vectorchain<binary_operator add>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        %row = arith.muli %i, %scale : index
        agen.vector_store %s, %C[%row, 0] {store_order = #id2, store_set = #row} : memref<8x64xf16>, vector<64xf16>
        scf.if %last {
          %t = vectorchain.binary %s, %s {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
          %end = arith.subi %c16, %c1 : index
          %r7 = arith.subi %end, %c8 : index
          agen.vector_store %t, %C[%r7, 0] {store_order = #id2, store_set = #row} : memref<8x64xf16>, vector<64xf16>
        }
      }
    }
"""


def build():
    return module("""
    %c8 = arith.constant 8 : index
    %c1024 = arith.constant 1024 : index
""" + PIPELINE)


def inputs():
    return {"@0": f16(np.arange(512).reshape(8, 64) / 8), "@1024": f16(np.zeros((8, 64)))}


def run(device, fast: bool, monkeypatch, counts: dict | None = None):
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(dataflow_ops, "ONCE_PER_INSTANCE", frozenset())
            m.setattr(dataflow_ops, "INDEX_ARITH", {})
        if counts is not None:
            plain = dataflow_ops.PURE["uniform.query_map"]

            def counted(r, op, args):
                counts[r.unit.name] = counts.get(r.unit.name, 0) + 1
                return plain(r, op, args)

            m.setitem(dataflow_ops.PURE, "uniform.query_map", counted)
        return simulate(build(), inputs(), device)


def same(a, b) -> None:
    assert a.total_cycles == b.total_cycles and a.timeline == b.timeline and a.stats == b.stats
    assert a.busy_cycles_per_unit == b.busy_cycles_per_unit and a.fifo_occupancy == b.fifo_occupancy
    assert a.outputs.keys() == b.outputs.keys()
    for key in a.outputs:
        np.testing.assert_array_equal(a.outputs[key], b.outputs[key])


def test_fast_paths_give_the_plain_interpretation(sample, monkeypatch):
    fast_counts: dict[str, int] = {}
    plain_counts: dict[str, int] = {}
    fast = run(sample, True, monkeypatch, fast_counts)
    plain = run(sample, False, monkeypatch, plain_counts)
    same(fast, plain)
    a = inputs()["@0"]
    out = fast.outputs["@1024"]
    s = a[:4] + a[4:]
    np.testing.assert_array_equal(out[[0, 2, 2, 6]][[0, 2, 3]], s[[0, 2, 3]])  # rows i * scale[i]
    np.testing.assert_array_equal(out[7], s[3] * s[3])  # the branch of the last iteration
    # the queries keyed by the instance's unit ran once per instance; the one keyed by the iv, every iteration
    assert fast_counts == {"C0-l1lu": 2, "C0-mnilu": 2, "C0-sfu": 4}
    assert plain_counts == {"C0-l1lu": 8, "C0-mnilu": 8, "C0-sfu": 4}


def test_fast_paths_give_the_plain_interpretation_without_a_device(monkeypatch):
    same(run(None, True, monkeypatch), run(None, False, monkeypatch))


def test_an_instance_op_of_a_loop_that_never_runs_raises_nothing(sample):
    # the map has no key for %me: the query would fail, but its loop runs no iteration
    text = """
    %c1024 = arith.constant 1024 : index
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      scf.for %i = %c0 to %c0 step %c1 {
        %rows = uniform.def_immutable_mapping([%sf -> %c0]):index
        %row = uniform.query_map(map:%rows, key:%me) : index
      }
    }
"""
    simulate(module(text), {"@0": f16(np.zeros(64))}, sample)
    with pytest.raises(DiagnosticError, match="query_map"):
        simulate(module(text.replace("%c0 to %c0", "%c0 to %c2")), {"@0": f16(np.zeros(64))}, sample)


@pytest.mark.parametrize("t", [IndexType(), i32, i64], ids=str)
def test_cmpi_on_python_ints_is_the_numpy_compare(t):
    values = [0, 1, -1, 5, -7, 2**31 - 1, -2**31, 2**31, 2**40, -2**63, 2**63 - 1]
    for predicate in range(10):
        op = arith.CmpiOp(create_ssa_value(t), create_ssa_value(t), predicate)
        for a, b in itertools.product(values, values):
            fast = std_impl._run_cmpi(None, None, op, (a, b))[0]
            slow = std_impl._run_cmpi(None, None, op, (np.int64(a), np.int64(b)))[0]
            assert fast == slow and type(fast) is type(slow), (t, predicate, a, b)


def test_index_arith_wraps_as_the_ktir_interpreter_does():
    from dfsched.interp.dataflow_ops import INDEX_ARITH

    big = 2**63 - 1
    add, sub, mul = (INDEX_ARITH[f"arith.{k}"] for k in ("addi", "subi", "muli"))
    assert add(None, None, (big, 1)) == (-2**63,)
    assert sub(None, None, (-2**63, 1)) == (big,)
    assert mul(None, None, (2**62, 4)) == (0,)
    assert mul(None, None, (np.int64(-3), 5)) == (-15,)


# Two units each keep a running value in their own instance of the register file (`sfu_reg`,
# below the scratchpads: one instance per exec unit), at the same address, with no sync.
REGISTERS = """
    %reg = dataflow.get_unit {name = "sfu_reg", type = "sfu_reg"} : index
    dataflow.program_unit iter_arg : %me -> (%lu, %sf) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<16x64xf16>
      %R = dataflow.get_logical_memory_view %reg, %c0 {layout_map = #lin} : index, index, memref<1x64xf16>
      %rows = uniform.def_immutable_mapping([%lu -> %c0], [%sf -> %c2]):index
      %row = uniform.query_map(map:%rows, key:%me) : index
      %first = agen.vector_load %A[%row, 0] {load_order = #id2, load_set = #row} : memref<16x64xf16>, vector<64xf16>
      agen.vector_store %first, %R[0, 0] {store_order = #id2, store_set = #row} : memref<1x64xf16>, vector<64xf16>
      scf.for %i = %c0 to %c2 step %c1 {
        %acc = agen.vector_load %R[0, 0] {load_order = #id2, load_set = #row} : memref<1x64xf16>, vector<64xf16>
        %sum = vectorchain.binary %acc, %first {binary_op = #vectorchain<binary_operator add>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        agen.vector_store %sum, %R[0, 0] {store_order = #id2, store_set = #row} : memref<1x64xf16>, vector<64xf16>
      }
      %out = uniform.def_immutable_mapping([%lu -> %c4], [%sf -> %c8]):index
      %dst = uniform.query_map(map:%out, key:%me) : index
      %total = agen.vector_load %R[0, 0] {load_order = #id2, load_set = #row} : memref<1x64xf16>, vector<64xf16>
      agen.vector_store %total, %A[%dst, 0] {store_order = #id2, store_set = #row} : memref<16x64xf16>, vector<64xf16>
    }
"""


def test_a_register_file_instance_of_one_unit_is_not_race_tracked(sample, monkeypatch):
    from dfsched.interp import races

    def run_registers(tracked: bool):
        shadowed: list[str] = []
        with monkeypatch.context() as m:
            plain_init, plain_shadow = races.RaceTracker.__init__, races.RaceTracker._shadow

            def init(self, *args, **kwargs):
                plain_init(self, *args, **kwargs)
                if tracked:
                    self.private = set()

            def shadow(self, memory):
                shadowed.append(memory.name)
                return plain_shadow(self, memory)

            m.setattr(races.RaceTracker, "__init__", init)
            m.setattr(races.RaceTracker, "_shadow", shadow)
            text = "    %c4 = arith.constant 4 : index\n    %c8 = arith.constant 8 : index\n" + REGISTERS
            a = f16(np.arange(1024).reshape(16, 64) / 64)
            return simulate(module(text), {"@0": a}, sample), shadowed, a

    fast, fast_shadowed, a = run_registers(False)
    plain, plain_shadowed, _ = run_registers(True)
    same(fast, plain)
    np.testing.assert_array_equal(fast.outputs["@0"][4], a[0] * 3)
    np.testing.assert_array_equal(fast.outputs["@0"][8], a[2] * 3)
    assert not any("sfu_reg" in name for name in fast_shadowed)
    assert any("sfu_reg" in name for name in plain_shadowed)


# A producer streams 40 rows through a FIFO of 8 vectors to a slower consumer that takes each
# row as two half vectors (each receive splits a sent chunk) and works 4 cycles on them, in a
# loop nest (10 x 4 rows): the producer's sends wait for room and the consumer's receives for
# data, in compiled loops (`dataflow_compiled.py`, the inner loop inline) as in interpreted ones.
STREAM = """
    %c40 = arith.constant 40 : index
    %c8192 = arith.constant 8192 : index
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<40x64xf16>
      %n = scf.for %i = %c0 to %c40 step %c1 iter_args(%k = %c0) -> (index) {
        %v = agen.vector_load %A[%i, 0] {load_order = #id2, load_set = #row} : memref<40x64xf16>, vector<64xf16>
        dataflow.send %sf, %v : vector<64xf16>
        %k1 = arith.addi %k, %c2 : index
        scf.yield %k1 : index
      }
    }
    dataflow.program_unit iter_arg : %me -> (%sf) : {
      %C = dataflow.get_logical_memory_view %ddr, %c8192 {layout_map = affine_map<(d0, d1) -> (d0 * 32 + d1)>} : index, index, memref<ROWSx32xf16>
      %c4 = arith.constant 4 : index
      %c10 = arith.constant 10 : index
      scf.for %o = %c0 to %c10 step %c1 {
       %first = arith.muli %o, %c4 : index
       scf.for %j = %c0 to %c4 step %c1 {
        %i = arith.addi %first, %j : index
        %x = dataflow.receive %lu : vector<32xf16>
        %y = dataflow.receive %lu : vector<32xf16>
        %s = vectorchain.binary %x, %y {binary_op = #vectorchain<binary_operator add>, op_specific_map = #id1} : vector<32xf16>, vector<32xf16>, vector<32xf16>
        %p = vectorchain.binary %s, %s {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #id1} : vector<32xf16>, vector<32xf16>, vector<32xf16>
        %q = vectorchain.binary %p, %s {binary_op = #vectorchain<binary_operator sub>, op_specific_map = #id1} : vector<32xf16>, vector<32xf16>, vector<32xf16>
        %m = vectorchain.binary %q, %x {binary_op = #vectorchain<binary_operator max>, op_specific_map = #id1} : vector<32xf16>, vector<32xf16>, vector<32xf16>
        agen.vector_store %m, %C[%i, 0] {store_order = #id2, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>} : memref<ROWSx32xf16>, vector<32xf16>
       }
      }
    }
"""


def stream(rows: int = 40):
    return module(STREAM.replace("ROWS", str(rows)))


def test_compiled_loops_give_the_interpreted_run(sample, monkeypatch):
    from dfsched.interp import dataflow_compiled

    compiled: list[str] = []
    plain_compile = dataflow_compiled._compile
    monkeypatch.setattr(dataflow_compiled, "_compile",
                        lambda sim, block: compiled.append(block.parent_op().name) or plain_compile(sim, block))
    a = f16(np.arange(40 * 64).reshape(40, 64) % 23 / 4)
    fast = simulate(stream(), {"@0": a, "@8192": f16(np.zeros((40, 32)))}, sample)
    plain = simulate(stream(), {"@0": a, "@8192": f16(np.zeros((40, 32)))}, sample, compile_loops=False)
    same(fast, plain)
    assert compiled == ["scf.for"] * 3  # the producer's loop, the consumer's inner loop, then its outer one
    x, y = a[:, :32], a[:, 32:]
    s = x + y
    np.testing.assert_array_equal(fast.outputs["@8192"], np.maximum(s * s - s, x))
    assert max(bytes_ for _, bytes_ in fast.fifo_occupancy["C0-l1lu->C0-sfu"]) == 1024  # the FIFO filled up
    producer = fast.stats["C0-l1lu"]
    assert producer.finish > producer.busy  # it waits for nothing but room in the FIFO
    # the PIPELINE kernel too: a branch and maps keyed by the loop index inside compiled loops
    same(simulate(build(), inputs(), sample), simulate(build(), inputs(), sample, compile_loops=False))


def test_an_error_in_a_compiled_loop_is_the_interpreted_one(sample):
    a = f16(np.zeros((40, 64)))
    messages = []
    for compile_loops in (True, False):
        with pytest.raises(DiagnosticError) as caught:
            simulate(stream(30), {"@0": a, "@8192": f16(np.zeros((30, 32)))}, sample, compile_loops=compile_loops)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert "agen.vector_store" in messages[0] and "outside memref<30x32>" in messages[0]


class _Memory:
    def __init__(self, name: str):
        self.name = name


def _race_script(seed: int, steps: int = 80):
    """Random accesses of three units to two memories (mostly vector runs, some scattered;
    mostly in a unit's own 2 KiB, sometimes in a shared 2 KiB), with random syncs between them."""
    rng = np.random.default_rng(seed)
    script = []
    for _ in range(steps):
        what = rng.choice(["read", "write", "sync"], p=[0.4, 0.25, 0.35])
        a, b = (int(u) for u in rng.choice(3, 2, replace=False))
        start = (3 if rng.random() < 0.08 else a) * 2048 + int(rng.integers(0, 700)) * 2
        length = int(rng.choice([8, 64, 64, 300]))
        consecutive = bool(rng.random() < 0.85)
        addresses = np.arange(start, start + 2 * length, 2, dtype=np.int64)
        if not consecutive:
            addresses = np.sort(rng.choice(addresses, length // 2, replace=False))
        script.append((what, a, b, int(rng.integers(2)), addresses, consecutive))
    return script


def _play(script, summaries: bool, moved: bool, runs: bool = False):
    """`runs`: consecutive accesses go through `read_run`/`write_run` (first address and count)."""
    from dfsched.interp.races import RaceError, RaceTracker

    tracker = RaceTracker(["u0", "u1", "u2"], watch_shared=True)
    tracker.moved = moved
    if not summaries:
        tracker._run = lambda *args: None
    memories = [_Memory("m0"), _Memory("m1")]
    outcome = None
    for k, (what, a, b, m, addresses, consecutive) in enumerate(script):
        try:
            if what == "sync":
                tracker.acquire(f"u{b}", tracker.release(f"u{a}"))
            elif runs and consecutive and what == "read":
                tracker.read_run(f"u{a}", memories[m], int(addresses[0]), addresses.size, 2)
            elif runs and consecutive:
                tracker.write_run(f"u{a}", memories[m], int(addresses[0]), addresses.size, 2, None, None)
            else:
                getattr(tracker, what)(f"u{a}", memories[m], addresses, 2, consecutive)
        except RaceError as exc:
            outcome = (k, type(exc).__name__, str(exc))
            break
    shadows = []
    for memory in memories:
        shadow = tracker.shadows.get(id(memory))
        for number, page in sorted(shadow.pages.items()) if shadow else ():
            shared = page.shared.copy() if page.shared is not None else None
            shadows.append((memory.name, number, page.writer.copy(), page.w_epoch.copy(), page.reader.copy(),
                            page.r_epoch.copy(), shared))
    return outcome, shadows


def _assert_same_play(a, b, case) -> None:
    """Two `_play` results agree: the same first race and the same shadows."""
    assert a[0] == b[0], case
    assert len(a[1]) == len(b[1])
    for x, y in zip(a[1], b[1]):
        assert x[:2] == y[:2]
        for u, v in zip(x[2:], y[2:]):
            assert (u is None) == (v is None) and (u is None or np.array_equal(u, v)), case


def test_race_block_summaries_give_the_slot_by_slot_verdicts():
    """`RaceTracker`'s block summaries only skip checks that find nothing: on random access
    scripts, the same first race (step, kind, message) and the same shadows as without."""
    raced = 0
    for seed in range(40):
        script = _race_script(seed)
        for moved in (False, True):
            fast = _play(script, True, moved)
            _assert_same_play(fast, _play(script, False, moved), (seed, moved))
            raced += fast[0] is not None
    assert 10 < raced < 80  # both verdicts occur


def test_race_checks_of_runs_give_the_address_array_verdicts():
    """`RaceTracker.read_run`/`write_run` (a vector access of consecutive bytes given by its
    first address, the simulator's common load and store) give the same first race and the
    same shadows as `read`/`write` given the accesses' addresses."""
    for seed in range(40):
        script = _race_script(seed)
        for moved in (False, True):
            _assert_same_play(_play(script, True, moved, runs=True), _play(script, True, moved), (seed, moved))
