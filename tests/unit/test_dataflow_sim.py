"""The DataflowIR simulator (`dfsched.interp.dataflow`): hand-written DataflowIR in the canonical
shapes (`docs/dialects.md#dataflow`) with exact data and cycle counts,
bounded FIFOs, deadlocks, symbols, run-time faults; then KTIR examples scheduled by the
pipeline, simulated end to end against the KTIR reference interpreter.

Timing on the sample device (see dataflow.py): DDR<->MNILU/MNISU<->L1 links move 64 bytes a
cycle, L1LU->SFU->L1SU FIFO links too (depth 16 x 64 bytes), the L1<->L1LU/L1SU links declare no
granularity (1 cycle an access); a compute op takes 1 cycle per 64 f16 lanes, a sync_send 1.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.dataflow import DeadlockError, simulate
from dfsched.interp.ktir import load_module, make_inputs, parse_module, run
from unit_helpers import index_constants

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def f16(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float16)


UNITS = """
    %ddr = dataflow.get_unit {name = "ddr", type = "ddr"} : index
    %l1 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
    %mnilu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
    %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
    %sf = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu", type = "sfu"} : index
    %su = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1su", type = "l1su"} : index
    %mnisu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnisu", type = "mnisu"} : index
"""

ALIASES = """
#id1 = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (-d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#lin = affine_map<(d0, d1) -> (d0 * 64 + d1)>
#step = affine_map<(d0) -> (d0, 0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
"""


def module(body: str, functions: str = ""):
    text = f"""{ALIASES}
module {{
  func.func @main() {{
{index_constants(0, 1, 2, 16, 100, 128, 256, 512, 2048)}
{UNITS}
{body}
    return
  }}
{functions}
}}
"""
    return parse_module(text, "test.mlir")


# ---------------------------------------------------------------------------------------
# two program units exchanging a vector
# ---------------------------------------------------------------------------------------

EXCHANGE = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %src = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #id1} : index, index, memref<64xf16>
      %v = agen.vector_load %src[0] {load_order = #ORDER, load_set = #all} : memref<64xf16>, vector<64xf16>
      %peers = uniform.def_immutable_mapping([%lu -> %sf]):index
      %peer = uniform.query_map(map:%peers, key:%me) : index
      dataflow.send %peer, %v : vector<64xf16>
    }
    dataflow.program_unit iter_arg : %me -> (%sf) : {
      %peers = uniform.def_immutable_mapping([%sf -> %lu]):index
      %peer = uniform.query_map(map:%peers, key:%me) : index
      %v = dataflow.receive %peer : vector<64xf16>
      %dst = dataflow.get_logical_memory_view %ddr, %c128 {layout_map = #id1} : index, index, memref<64xf16>
      agen.vector_store %v, %dst[0] {store_order = #id1, store_set = #all} : memref<64xf16>, vector<64xf16>
    }
"""


def test_two_units_exchange_a_vector(sample):
    a = f16(np.arange(64) / 8)
    result = simulate(module(EXCHANGE.replace("#ORDER", "#id1")), {"@0": a, "@128": f16(np.zeros(64))}, sample)
    np.testing.assert_array_equal(result.outputs["@128"], a)
    np.testing.assert_array_equal(result.outputs["@0"], a)
    # L1LU: load 1 (no granularity on DDR->L1LU) + send 128 bytes at 64/cycle = 2; the SFU
    # receives at 3 and stores in 1 cycle.
    assert result.total_cycles == 4
    assert result.busy_cycles_per_unit == {"C0-l1lu": 3, "C0-sfu": 1}
    assert result.stats["C0-l1lu"].sent_bytes == 128 and result.stats["C0-sfu"].received_bytes == 128
    assert [(e.unit, e.start, e.end) for e in result.timeline] == [
        ("C0-l1lu", 0, 1), ("C0-l1lu", 1, 3), ("C0-sfu", 3, 4)]
    assert result.launches == [("main", 0, 4)]
    trace = result.chrome_trace()["traceEvents"]
    assert [(e["name"], e["ts"], e["dur"]) for e in trace if e["ph"] == "X" and e["cat"] != "launch"] == [
        ("vector_load ddr", 0, 1), ("send to C0-sfu", 1, 2), ("vector_store ddr", 3, 1)]


def test_load_order_packs_the_vector(sample):
    a = f16(np.arange(64))
    result = simulate(module(EXCHANGE.replace("#ORDER", "#rev")), {"@0": a, "@128": f16(np.zeros(64))}, sample)
    np.testing.assert_array_equal(result.outputs["@128"], a[::-1])


# ---------------------------------------------------------------------------------------
# load -> compute -> store through the five units of a core (one core)
# ---------------------------------------------------------------------------------------

def copy_rows(src: str, dst: str, iv: str) -> str:
    """A DMA of a 2x64 f16 view `%src` into `%dst`, row by row (`agen.composite_load_and_store`)."""
    return (f"      agen.composite_load_and_store src:%{src}[0, 0] dst:%{dst}[0, 0]\n"
            f"       time_symbols(), load_iv(%{iv}:vector<64xf16>)\n"
            "       {load_order = #id2, load_set = #row, load_time_addr_map = #step, store_order = #id2, "
            "store_set = #row, store_time_addr_map = #step, time_order = #id1, time_set = #two}\n"
            "      {\n        agen.yield\n      } : memref<2x64xf16>, memref<2x64xf16>")


def handshake(peer: str) -> str:
    """A unit's sync with `%peer`: send, then wait for its answer."""
    return (f"      dataflow.sync_send %{peer} {{wait_immediately_for_async_transfers = true}} : index\n"
            f"      dataflow.sync_recv %{peer} : index")


CHAIN = """
    dataflow.program_unit iter_arg : %me -> (%mnilu) : {
      %A = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<2x64xf16>
      %B = dataflow.get_logical_memory_view %ddr, %c256 {layout_map = #lin} : index, index, memref<2x64xf16>
      %La = dataflow.get_logical_memory_view %l1, %c0 {layout_map = #lin} : index, index, memref<2x64xf16>
      %Lb = dataflow.get_logical_memory_view %l1, %c256 {layout_map = #lin} : index, index, memref<2x64xf16>
""" + "\n".join([copy_rows("A", "La", "x"), copy_rows("B", "Lb", "y"), handshake("lu")]) + """
    }
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %La = dataflow.get_logical_memory_view %l1, %c0 {layout_map = #lin} : index, index, memref<2x64xf16>
      %Lb = dataflow.get_logical_memory_view %l1, %c256 {layout_map = #lin} : index, index, memref<2x64xf16>
""" + handshake("mnilu") + """
      scf.for %i = %c0 to %c2 step %c1 {
        %x = agen.vector_load %La[%i, 0] {load_order = #id2, load_set = #row} : memref<2x64xf16>, vector<64xf16>
        dataflow.send %sf, %x : vector<64xf16>
        %y = agen.vector_load %Lb[%i, 0] {load_order = #id2, load_set = #row} : memref<2x64xf16>, vector<64xf16>
        dataflow.send %sf, %y : vector<64xf16>
      }
    }
    dataflow.program_unit iter_arg : %me -> (%sf) : {
      scf.for %i = %c0 to %c2 step %c1 {
        %x = dataflow.receive %lu : vector<64xf16>
        %y = dataflow.receive %lu : vector<64xf16>
        %d = vectorchain.binary %x, %y {binary_op = #vectorchain<binary_operator sub>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        dataflow.send %su, %d : vector<64xf16>
      }
    }
    dataflow.program_unit iter_arg : %me -> (%su) : {
      %Lc = dataflow.get_logical_memory_view %l1, %c512 {layout_map = #lin} : index, index, memref<2x64xf16>
      scf.for %i = %c0 to %c2 step %c1 {
        %d = dataflow.receive %sf : vector<64xf16>
        agen.vector_store %d, %Lc[%i, 0] {store_order = #id2, store_set = #row} : memref<2x64xf16>, vector<64xf16>
      }
""" + handshake("mnisu") + """
    }
    dataflow.program_unit iter_arg : %me -> (%mnisu) : {
      %Lc = dataflow.get_logical_memory_view %l1, %c512 {layout_map = #lin} : index, index, memref<2x64xf16>
      %C = dataflow.get_logical_memory_view %ddr, %c512 {layout_map = #lin} : index, index, memref<2x64xf16>
""" + handshake("su") + "\n" + copy_rows("Lc", "C", "z") + """
    }
"""


def test_load_compute_store_chain(sample):
    rng = np.random.default_rng(1)
    a, b = f16(rng.uniform(-1, 1, (2, 64))), f16(rng.uniform(-1, 1, (2, 64)))
    result = simulate(module(CHAIN), {"@0": a, "@256": b, "@512": f16(np.full((2, 64), 7))}, sample)
    np.testing.assert_array_equal(result.outputs["@512"], a - b)
    # MNILU: two 2-step transfers of 128-byte vectors at 64 bytes/cycle (8), sync (9).
    # L1LU: released at 9, then 2 x (load 1 + send 2 + load 1 + send 2) -> 21.
    # SFU: second operands arrive at 15 and 21: sub at 15 and 21, sends done 18 and 24.
    # L1SU: stores at 18 and 24, sync 25..26. MNISU: released at 26, 2-step transfer -> 30.
    assert result.total_cycles == 30
    assert result.busy_cycles_per_unit == {"C0-mnilu": 9, "C0-l1lu": 13, "C0-sfu": 6, "C0-l1su": 3, "C0-mnisu": 5}
    assert {n: s.finish for n, s in result.stats.items()} == {
        "C0-mnilu": 9, "C0-l1lu": 21, "C0-sfu": 24, "C0-l1su": 26, "C0-mnisu": 30}
    assert result.stats["C0-mnilu"].dma_bytes == 512 and result.stats["C0-mnisu"].dma_bytes == 256
    assert result.stats["C0-sfu"].vector_ops == 2
    bound = result.bound()
    # DMA: MNILU needs 8 cycles; compute: 2 vector ops over the 2 corelets of a core.
    assert (bound.cycles, bound.dma_cycles, bound.compute_cycles) == (8, 8, 1)
    assert result.efficiency() == pytest.approx(8 / 30)
    assert not result.warnings


# ---------------------------------------------------------------------------------------
# a bounded FIFO fills up and makes the producer wait
# ---------------------------------------------------------------------------------------

FILL = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %rows = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<16x64xf16>
      scf.for %i = %c0 to %c16 step %c1 {
        %x = agen.vector_load %rows[%i, 0] {load_order = #id2, load_set = #row} : memref<16x64xf16>, vector<64xf16>
        dataflow.send %sf, %x : vector<64xf16>
      }
    }
    dataflow.program_unit iter_arg : %me -> (%sf) : {
      %one = arith.constant dense<1.0> : vector<64xf16>
      %busy = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %one) -> (vector<64xf16>) {
        %n = vectorchain.binary %acc, %one {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        scf.yield %n : vector<64xf16>
      }
      %zero = arith.constant dense<0.0> : vector<64xf16>
      %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (vector<64xf16>) {
        %x = dataflow.receive %lu : vector<64xf16>
        %n = vectorchain.binary %acc, %x {binary_op = #vectorchain<binary_operator add>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        scf.yield %n : vector<64xf16>
      }
      %out = dataflow.get_logical_memory_view %ddr, %c2048 {layout_map = #id1} : index, index, memref<64xf16>
      agen.vector_store %sum, %out[0] {store_order = #id1, store_set = #all} : memref<64xf16>, vector<64xf16>
    }
"""


def test_full_fifo_makes_the_producer_wait(sample):
    rows = f16(np.random.default_rng(2).uniform(-1, 1, (16, 64)))
    result = simulate(module(FILL), {"@0": rows, "@2048": f16(np.zeros(64))}, sample)
    expected = f16(np.zeros(64))
    for r in rows:
        expected = f16(expected + r)
    np.testing.assert_array_equal(result.outputs["@2048"], expected)
    producer = result.stats["C0-l1lu"]
    # 16 x (load 1 + send 2) of work, but the FIFO (16 entries x 64 bytes = 8 vectors) fills
    # at cycle 24 and the consumer only starts taking at cycle 100.
    assert producer.busy == 48
    assert producer.finish > 100
    assert result.fifos == {"C0-l1lu->C0-sfu": 1024}
    # the consumer: 100 busy cycles, then 16 adds; the last vector arrives 3 cycles after it
    # made room, so the run ends a few cycles after the producer.
    assert result.stats["C0-sfu"].busy == 100 + 16 + 1
    assert result.total_cycles == result.stats["C0-sfu"].finish


def test_fifo_without_a_link_uses_the_default_depth():
    # no device: every FIFO holds default_fifo_depth x fifo_entry_bytes
    rows = f16(np.random.default_rng(3).uniform(-1, 1, (16, 64)))
    result = simulate(module(FILL), {"@0": rows, "@2048": f16(np.zeros(64))}, None, default_fifo_depth=2)
    assert result.fifos == {"C0-l1lu->C0-sfu": 128}
    assert result.stats["C0-l1lu"].finish >= 100


# ---------------------------------------------------------------------------------------
# deadlocks
# ---------------------------------------------------------------------------------------

BOTH_RECEIVE = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %v = dataflow.receive %sf : vector<64xf16>
      dataflow.send %sf, %v : vector<64xf16>
    }
    dataflow.program_unit iter_arg : %me -> (%sf) : {
      %v = dataflow.receive %lu : vector<64xf16>
      dataflow.send %lu, %v : vector<64xf16>
    }
"""


def test_deadlock_names_every_blocked_unit(sample):
    with pytest.raises(DeadlockError) as info:
        simulate(module(BOTH_RECEIVE), {}, sample)
    exc = info.value
    message = str(exc)
    assert "deadlock at cycle 0" in message
    assert "C0-l1lu waits to receive vector<64xf16> from C0-sfu" in message
    assert "C0-sfu waits to receive vector<64xf16> from C0-l1lu" in message
    assert [name for name, _ in exc.blocked] == ["C0-l1lu", "C0-sfu"]
    # located on the receive of the first blocked unit, one note per unit
    assert exc.diagnostic.line is not None and len(exc.diagnostic.notes) == 2


def test_sync_deadlock():
    text = """
    dataflow.program_unit iter_arg : %me -> (%mnilu) : {
      dataflow.sync_recv %lu : index
      dataflow.sync_send %lu : index
    }
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      dataflow.sync_recv %mnilu : index
      dataflow.sync_send %mnilu : index
    }
    """
    with pytest.raises(DeadlockError, match="C0-mnilu waits for a sync signal from C0-l1lu.*"
                                            "C0-l1lu waits for a sync signal from C0-mnilu"):
        simulate(module(text), {}, None)


# ---------------------------------------------------------------------------------------
# races: accesses not ordered by synchronisation, whatever the timing
# ---------------------------------------------------------------------------------------

def copy_vector(src: str, src_memory: str, src_at: str, dst: str, dst_memory: str, dst_at: str, indent: int) -> str:
    """A unit's copy of 64 f16 from `%src` (a view of `%src_memory` at `%src_at`) to `%dst`."""
    return "\n".join(" " * indent + line for line in [
        f"%{src} = dataflow.get_logical_memory_view %{src_memory}, %{src_at} {{layout_map = #id1}} : index, index, "
        "memref<64xf16>",
        f"%{dst} = dataflow.get_logical_memory_view %{dst_memory}, %{dst_at} {{layout_map = #id1}} : index, index, "
        "memref<64xf16>",
        f"%v = agen.vector_load %{src}[0] {{load_order = #id1, load_set = #all}} : memref<64xf16>, vector<64xf16>",
        f"agen.vector_store %v, %{dst}[0] {{store_order = #id1, store_set = #all}} : memref<64xf16>, vector<64xf16>"])


UNSYNCED = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
""" + copy_vector("src", "ddr", "c0", "buf", "l1", "c0", indent=6) + """
      SYNC_SEND
    }
    dataflow.program_unit iter_arg : %me -> (%su) : {
      %one = arith.constant dense<1.0> : vector<64xf16>
      %late = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %one) -> (vector<64xf16>) {
        %n = vectorchain.binary %acc, %one {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        scf.yield %n : vector<64xf16>
      }
      SYNC_RECV
""" + copy_vector("buf", "l1", "c0", "dst", "ddr", "c128", indent=6) + """
    }
"""


def test_race_hidden_by_timing_is_an_error(sample):
    a = f16(np.arange(64))
    inputs = {"@0": a, "@128": f16(np.zeros(64))}
    unsynced = UNSYNCED.replace("SYNC_SEND", "").replace("SYNC_RECV", "")
    # the reader comes 100 cycles after the writer: the data is right by luck ...
    lucky = simulate(module(unsynced), inputs, sample, check_races=False)
    np.testing.assert_array_equal(lucky.outputs["@128"], a)
    # ... but nothing orders the L1 write before the read
    with pytest.raises(DiagnosticError, match="'agen.vector_load' op C0-l1su reads byte 0 of memory C0-l1, which "
                                              "C0-l1lu wrote with no synchronisation"):
        simulate(module(unsynced), inputs, sample)
    synced = UNSYNCED.replace("SYNC_SEND", "dataflow.sync_send %su : index").replace(
        "SYNC_RECV", "dataflow.sync_recv %lu : index")
    result = simulate(module(synced), inputs, sample)
    np.testing.assert_array_equal(result.outputs["@128"], a)


# two units store the bytes at @0 to @128, unordered
SAME_BYTES = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
""" + copy_vector("src", "ddr", "c0", "dst", "ddr", "c128", indent=6) + """
    }
    dataflow.program_unit iter_arg : %me -> (%su) : {
      %src = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #id1} : index, index, memref<64xf16>
      %dst = dataflow.get_logical_memory_view %ddr, %c128 {layout_map = #id1} : index, index, memref<64xf16>
      %v = agen.vector_load %src[0] {load_order = #id1, load_set = #all} : memref<64xf16>, vector<64xf16>
      %w = vectorchain.binary %v, %v {binary_op = #vectorchain<binary_operator OP>, op_specific_map = #id1} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      agen.vector_store %w, %dst[0] {store_order = #id1, store_set = #all} : memref<64xf16>, vector<64xf16>
    }
"""


def test_units_storing_identical_bytes_do_not_race(sample):
    """Decision 25's rule for compute tiles holds for DataflowIR units (Decision 93): both cores
    of a distributed copy store the same rows of B."""
    a = f16(np.arange(64))
    inputs = {"@0": a, "@128": f16(np.zeros(64))}
    same = simulate(module(SAME_BYTES.replace("OP", "max")), inputs, sample)  # max(v, v) = v
    np.testing.assert_array_equal(same.outputs["@128"], a)
    with pytest.raises(DiagnosticError, match="C0-l1su writes byte 130 of global memory, which C0-l1lu wrote with "
                                              "no synchronisation"):  # a + a differs from a from element 1 on
        simulate(module(SAME_BYTES.replace("OP", "add")), inputs, sample)


def test_a_fifo_orders_memory_accesses(sample):
    # the producer's store is ordered before the consumer's load by the vector it sent after it
    text = UNSYNCED.replace("SYNC_SEND", "dataflow.send %su, %v : vector<64xf16>").replace(
        "SYNC_RECV", "%token = dataflow.receive %lu : vector<64xf16>")
    a = f16(np.arange(64))
    result = simulate(module(text), {"@0": a, "@128": f16(np.zeros(64))}, sample)
    np.testing.assert_array_equal(result.outputs["@128"], a)


# ---------------------------------------------------------------------------------------
# symbols from the kernel's actual arguments, wrapped programs
# ---------------------------------------------------------------------------------------

SYMBOLS = ALIASES + """
module {
  module {
    func.func @kernel(%a: index, %b: index) attributes {grid = [1]} {
      symbol.create_id %a {symbol_id = -1 : si64} : index
      symbol.create_id %b {symbol_id = -2 : si64} : index
      call @prog(%a, %b) : (index, index) -> ()
      return
    }
    func.func private @prog(index, index)
  }
  module @prog {
    func.func private @prog_body()
    func.func @prog(%a: index, %b: index) {
      %c128 = arith.constant 128 : index
      symbol.create_id %a {symbol_id = -1 : si64} : index
      %second = arith.addi %a, %c128 : index
      symbol.create_id %second {symbol_id = -3 : si64} : index
      call @prog_body() : () -> ()
      return
    }
    module {
      func.func @prog_body() attributes {grid = [1]} {
        %ddr = dataflow.get_unit {name = "ddr", type = "ddr"} : index
        %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
        dataflow.program_unit iter_arg : %me -> (%lu) : {
          %src_at = symbol.create_symbol {SymbolId = -3 : i64} : index
          %dst_at = symbol.create_symbol {SymbolId = -2 : i64} : index
""" + copy_vector("src", "ddr", "src_at", "dst", "ddr", "dst_at", indent=10) + """
        }
        return
      }
    }
  }
}
"""


def test_symbols_come_from_the_kernel_arguments(sample):
    a = f16(np.arange(128))
    result = simulate(parse_module(SYMBOLS, "symbols.mlir"), {"A": a, "B": f16(np.zeros(64))}, sample)
    # A at byte 0, B after it at 256: symbol -3 = A + 128 bytes = A[64:]
    np.testing.assert_array_equal(result.outputs["B"], a[64:])
    assert result.launches == [("prog_body", 0, 2)]


# ---------------------------------------------------------------------------------------
# faults of the simulated program are located errors
# ---------------------------------------------------------------------------------------


def test_missing_map_key_is_an_error(sample):
    text = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %peers = uniform.def_immutable_mapping([%sf -> %lu]):index
      %peer = uniform.query_map(map:%peers, key:%me) : index
    }
    """
    with pytest.raises(DiagnosticError, match="key C0-l1lu is not in the map \\(keys: C0-sfu\\)") as info:
        simulate(module(text), {}, sample)
    assert info.value.diagnostic.file == "test.mlir"


def test_access_outside_a_view_is_an_error(sample):
    text = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %src = dataflow.get_logical_memory_view %ddr, %c0 {layout_map = #lin} : index, index, memref<2x64xf16>
      %v = agen.vector_load %src[2, 0] {load_order = #id2, load_set = #row} : memref<2x64xf16>, vector<64xf16>
    }
    """
    with pytest.raises(DiagnosticError, match="'agen.vector_load' op index \\(2, 0\\) is outside memref<2x64>"):
        simulate(module(text), {}, sample)


def test_unreceived_data_is_an_error(sample):
    text = """
    dataflow.program_unit iter_arg : %me -> (%lu) : {
      %one = arith.constant dense<1.0> : vector<64xf16>
      dataflow.send %sf, %one : vector<64xf16>
    }
    """
    with pytest.raises(DiagnosticError, match="finished with data nobody received: C0-l1lu->C0-sfu holds 64"):
        simulate(module(text), {}, sample)
    result = simulate(module(text), {}, sample, drain_fifos=False)
    assert "C0-l1lu->C0-sfu holds 64" in result.warnings[0]


# ---------------------------------------------------------------------------------------
# KTIR examples scheduled by the pipeline, simulated against the reference
# ---------------------------------------------------------------------------------------


def _compile(name: str, device: str = "sample"):
    from dfsched.tools.dataflow_compile import compile_to_dfir

    return compile_to_dfir(EXAMPLES / f"{name}.mlir", device)


def test_compile_to_dfir_runs_the_pipeline_in_process(tmp_path):
    """The compile the simulator's callers use: the module the passes leave (no command line,
    no temporary file), or a CompileError with the located diagnostic."""
    from dfsched.tools.dataflow_compile import CompileError, compile_to_dfir

    dfir = _compile("add_2tile")
    assert any(op.name == "dataflow.program_unit" for op in dfir.walk())
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @k() {\n  %x = arith.addi %y, %y : index\n  return\n}\n")
    with pytest.raises(CompileError, match=r"bad.mlir:\d+:\d+: error: values used but not defined"):
        compile_to_dfir(bad)
    with pytest.raises(CompileError, match="no-such-flag"):
        compile_to_dfir(EXAMPLES / "add_2tile.mlir", extra_args=["--no-such-flag"])
    with pytest.raises(CompileError, match="missing.mlir"):
        compile_to_dfir(tmp_path / "missing.mlir")


def _check_example(name: str, device: str = "sample"):
    kernel = load_module(EXAMPLES / f"{name}.mlir")
    inputs = make_inputs(kernel, seed=0)
    # the reference accumulates as the device declares (these declare nothing: the output type)
    from dfsched.tools.run import device_accumulation

    reference = run(kernel, inputs, accumulate=device_accumulation(device))
    result = simulate(_compile(name, device), inputs, device, layout=reference.layout)
    # a reduction's sums may be re-associated (lane-wide steps, Decision 65): within the
    # checker's reduction tolerance, as `dfsched-run --check` compares; the rest bit for bit
    from dfsched.interp.schedule import has_reduction, output_differences

    assert output_differences(reference.outputs, result.outputs, has_reduction(kernel))[1] == []
    assert set(result.outputs) == set(reference.outputs)
    bound = result.bound()
    assert 0 < bound.cycles <= result.total_cycles
    return result


def test_two_tile_add_end_to_end():
    result = _check_example("add_2tile")
    # per core, as the chain above: MNILU 2 x 2 cycles + sync (5), L1LU 2 x (load 1 + send 2)
    # from 5 (11), SFU add at 11 and send (14), L1SU store + sync (16), MNISU transfer (18)
    assert result.total_cycles == 18
    assert len(result.busy_cycles_per_unit) == 10  # 5 units x 2 cores
    assert result.busy_cycles_per_unit["C1-mnilu"] == 5
    assert result.bound().cycles == 4


@pytest.mark.parametrize("name", ["add", "fused_chain", "row_bias", "row_sum", "loop_nest"])
def test_examples_end_to_end(name):
    _check_example(name)


@pytest.mark.parametrize("name", ["add_2tile", "row_sum"])
def test_examples_on_four_corelets(name):
    # quad_corelet: DMARD -> VLD -> VPU -> VST -> DMAWR, 4 corelets a core, 32-byte DMA words,
    # 8-deep FIFOs (how many corelets a schedule uses is the backend's business)
    result = _check_example(name, "quad_corelet")
    assert {s.kind for s in result.stats.values()} == {"DMARD", "VLD", "VPU", "VST", "DMAWR"}


def test_intrinsic_end_to_end():
    _check_example("intrinsic")
