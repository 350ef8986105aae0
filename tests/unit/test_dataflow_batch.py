"""DMA loops in one piece (`interp/dataflow_batch.py`, `SimOptions.batch_loops`): the same
outputs, cycles, timeline, statistics and error reports as the loop run step by step, and the
cases that must go step by step (a loop that reads what it writes) or be simulated again (a
run that fails, a write whose race verdict depends on the order of two unordered reads)."""

from __future__ import annotations

import numpy as np
import pytest
from test_dataflow_sim import f16, module

from dfsched.diagnostics import DiagnosticError
from dfsched.interp import dataflow
from dfsched.interp.dataflow import simulate


def rows_loop(src: str, dst: str, src_row: str = "%i", dst_row: str = "%i") -> str:
    """An scf.for of one composite transfer per row (a DMA loop) from view %{src} to %{dst}."""
    return f"""
      scf.for %i = %c0 to %c4 step %c1 {{
        agen.composite_load_and_store src:%{src}[{src_row}, 0] dst:%{dst}[{dst_row}, 0]
         time_symbols(), load_iv(%x:vector<64xf16>)
         {{load_order = #id2, load_set = #row, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = #id2, store_set = #row, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = #id1, time_set = affine_set<(d0) : (d0 == 0)>}}
        {{
          agen.yield
        }} : memref<8x64xf16>, memref<8x64xf16>
      }}"""


def build(body: str):
    return module("""
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
""" + body)


COPY = """
    dataflow.program_unit iter_arg : %me -> (%mnilu) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      %L = dataflow.get_logical_memory_view %l1, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      LOOP
      SYNC_SEND
    }
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %L = dataflow.get_logical_memory_view %l1, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      %C = dataflow.get_logical_memory_view %ddr, %c1024 {layout_map = #lin} : index, index, memref<8x64xf16>
      SYNC_RECV
      %v = agen.vector_load %L[1, 0] {load_order = #id2, load_set = #row} : memref<8x64xf16>, vector<64xf16>
      agen.vector_store %v, %C[1, 0] {store_order = #id2, store_set = #row} : memref<8x64xf16>, vector<64xf16>
    }
"""


def both(text: str, inputs, device):
    """The simulation with batched loops and the one step by step (or their errors)."""
    out = []
    for batch in (True, False):
        try:
            out.append(simulate(build(text), inputs, device, batch_loops=batch))
        except DiagnosticError as exc:
            out.append(str(exc))
    return out


def same(a, b) -> None:
    assert not isinstance(a, str) and not isinstance(b, str), (a, b)
    assert a.total_cycles == b.total_cycles and a.timeline == b.timeline and a.stats == b.stats
    assert a.outputs.keys() == b.outputs.keys()
    for key in a.outputs:
        np.testing.assert_array_equal(a.outputs[key], b.outputs[key])


def inputs():
    return {"@0": f16(np.arange(512).reshape(8, 64) / 8), "@1024": f16(np.zeros((8, 64)))}


def test_a_dma_loop_in_one_piece_matches_the_loop_step_by_step(sample):
    text = COPY.replace("LOOP", rows_loop("A", "L")).replace("SYNC_SEND", "dataflow.sync_send %lu : index") \
        .replace("SYNC_RECV", "dataflow.sync_recv %mnilu : index")
    batched, stepped = both(text, inputs(), sample)
    same(batched, stepped)
    np.testing.assert_array_equal(batched.outputs["@1024"][1], inputs()["@0"][1])
    assert [e.what for e in batched.timeline].count("transfer ddr -> C0-l1") == 4


def test_a_race_found_in_a_batched_run_is_reported_as_step_by_step(sample):
    text = COPY.replace("LOOP", rows_loop("A", "L")).replace("SYNC_SEND", "").replace("SYNC_RECV", "")
    batched, stepped = both(text, inputs(), sample)
    assert isinstance(stepped, str) and "(a race)" in stepped
    assert batched == stepped


def test_a_loop_that_reads_what_it_writes_goes_step_by_step(sample):
    # row i+1 of L1 from row i: each step reads the row the previous one wrote
    shift = rows_loop("L", "L", "%i", "%i + 1")
    text = COPY.replace("LOOP", rows_loop("A", "L", "%i", "%i") + shift) \
        .replace("SYNC_SEND", "dataflow.sync_send %lu : index").replace("SYNC_RECV", "dataflow.sync_recv %mnilu : index")
    batched, stepped = both(text, inputs(), sample)
    same(batched, stepped)
    np.testing.assert_array_equal(batched.outputs["@1024"][1], inputs()["@0"][0])


def test_a_write_after_two_unordered_reads_is_simulated_again(sample, monkeypatch):
    # the DMA loop and C0-mnisu both read row 0 of A unordered; C0-l1su then writes it, ordered
    # after C0-mnisu's read only: which read the race checker saw last decides the verdict
    text = """
    dataflow.program_unit iter_arg : %me -> (%mnilu) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      %L = dataflow.get_logical_memory_view %l1, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      LOOP
    }
    dataflow.program_unit iter_arg : %me -> (%mnisu) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      %L = dataflow.get_logical_memory_view %l1, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      agen.composite_load_and_store src:%A[0, 0] dst:%L[7, 0]
       time_symbols(), load_iv(%x:vector<64xf16>)
       {load_order = #id2, load_set = #row, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = #id2, store_set = #row, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = #id1, time_set = affine_set<(d0) : (d0 == 0)>}
      {
        agen.yield
      } : memref<8x64xf16>, memref<8x64xf16>
      dataflow.sync_send %su : index
    }
    dataflow.program_unit iter_arg : %me -> (%su) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<8x64xf16>
      %z = arith.constant dense<0.0> : vector<64xf16>
      dataflow.sync_recv %mnisu : index
      agen.vector_store %z, %A[0, 0] {store_order = #id2, store_set = #row} : memref<8x64xf16>, vector<64xf16>
    }
"""
    runs = []
    real = dataflow._simulate  # noqa: SLF001

    def counted(*args):
        runs.append(args[-2].batch_loops)
        return real(*args)

    monkeypatch.setattr(dataflow, "_simulate", counted)
    text = text.replace("LOOP", rows_loop("A", "L"))
    batched, stepped = both(text, inputs(), sample)
    assert runs == [True, False, False]  # the batched run gave up at the write, then step by step
    same(batched, stepped)  # the step-by-step checker misses this race (it remembers the last reader)


def nest(*transfers: tuple[str, str]) -> str:
    """A two-level DMA nest (rows i * 2 + j, i < 2, j < 2) of the transfers (source row, destination row)."""
    body = "".join(f"""
          agen.composite_load_and_store src:%A[{src}, 0] dst:%L[{dst}, 0]
           time_symbols(), load_iv(%x:vector<64xf16>)
           {{load_order = #id2, load_set = #row, load_time_addr_map = affine_map<(d0) -> (0, 0)>, store_order = #id2, store_set = #row, store_time_addr_map = affine_map<(d0) -> (0, 0)>, time_order = #id1, time_set = affine_set<(d0) : (d0 == 0)>}}
          {{
            agen.yield
          }} : memref<8x64xf16>, memref<8x64xf16>""" for src, dst in transfers)
    return f"""
      scf.for %i = %c0 to %c2 step %c1 {{
        scf.for %j = %c0 to %c2 step %c1 {{{body}
        }}
      }}"""


@pytest.mark.parametrize("transfers, row1", [
    ((("%i * 2 + %j", "%i * 2 + %j"), ("%i * 2 + %j + 4", "%i * 2 + %j + 4")), 1),  # two transfers a step: in one piece
    ((("%i * 2 + %j", "%i * 2 + %j"), ("%i * 2 + %j + 4", "%i * 2 + %j")), 5),  # both write row r: step by step
])
def test_a_nest_of_transfers_matches_the_nest_step_by_step(sample, transfers, row1):
    text = COPY.replace("LOOP", nest(*transfers)).replace("SYNC_SEND", "dataflow.sync_send %lu : index") \
        .replace("SYNC_RECV", "dataflow.sync_recv %mnilu : index")
    batched, stepped = both(text, inputs(), sample)
    same(batched, stepped)
    np.testing.assert_array_equal(batched.outputs["@1024"][1], inputs()["@0"][row1])
