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
