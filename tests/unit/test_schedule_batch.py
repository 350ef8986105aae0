"""Batched loops of the ScheduleIR interpreter (`interp/schedule_batch.py`) change nothing but speed.

Every test runs the same IR twice, batched and one iteration at a time (`MIN_TRIPS` out of
reach), and wants the same outputs, statistics and errors: on the examples as
`tile-size-selection` leaves them (transfer loops, `ktdf.parallel` over FIFO pipelines with
tensor compute), and on loops batching must refuse (an iteration reading what another wrote,
two iterations writing one element, races between instances or compute tiles).
"""

from __future__ import annotations

import io
import os
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from test_schedule_interp import L1, ddr_view, kernel, rand

from dfsched import pipeline
from dfsched.diagnostics import DiagnosticError, location_of
from dfsched.interp import ktir, schedule_batch
from dfsched.interp.ktir import parse_module
from dfsched.interp.schedule import run_schedule
from dfsched.tools.check_order import lane_marks

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def scheduled(path: Path):
    """`path` compiled by -ktir-to-dfir up to tile-size-selection."""
    from dfsched.tools.opt import main

    passes = pipeline.KTIR_TO_DFIR[: pipeline.KTIR_TO_DFIR.index("tile-size-selection") + 1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "scheduled.mlir")
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            assert main([str(path), "--device=sample", "--passes=" + ",".join(passes), "-o", out]) == 0
        return ktir.load_module(out, verify=False)


def spy_batches(monkeypatch) -> list[bool]:
    """Whether each `run_loop` call batched its loop, as they happen."""
    batched: list[bool] = []
    real = schedule_batch.run_loop

    def spy(*args, **kwargs):
        done = real(*args, **kwargs)
        batched.append(done)
        return done

    monkeypatch.setattr(schedule_batch, "run_loop", spy)
    return batched


def both_ways(monkeypatch, module, inputs, **kw):
    """(batched run, sequential run, how many loops ran batched)."""
    batched = spy_batches(monkeypatch)
    fast = run_schedule(module, inputs, **kw)
    monkeypatch.setattr(schedule_batch, "MIN_TRIPS", 10**12)
    slow = run_schedule(module, inputs, **kw)
    monkeypatch.setattr(schedule_batch, "MIN_TRIPS", 4)
    return fast, slow, sum(batched)


def same(fast, slow):
    assert fast.stats == slow.stats
    assert sorted(fast.outputs) == sorted(slow.outputs)
    for key in slow.outputs:
        assert fast.outputs[key].tobytes() == slow.outputs[key].tobytes(), key


# row_sum on 4 of its 32 tiles (12 rows, 3 a tile as in the example): every tile runs the same
# program, and three runs of the 32 tiles were a quarter minute of the default run.
SMALLER = {"row_sum.mlir": [("grid = [32]", "grid = [4]"), ("96", "12"), ("95", "11")],
           "matmul.mlir": [("grid = [16]", "grid = [2]")]}


# (row_bias_tiled: its double-buffered loop of 128 pipelines is one batch, `schedule_phases`)
@pytest.mark.parametrize("name, loops", [("row_bias_tiled.mlir", 1), ("loop_nest.mlir", 0), ("matmul.mlir", 24),
                                         ("fused_chain.mlir", 0), ("row_sum.mlir", 0)])
def test_examples_batched_equal_sequential(monkeypatch, tmp_path, name, loops):
    path = EXAMPLES / name
    if name in SMALLER:
        text = path.read_text()
        for old, new in SMALLER[name]:
            assert old in text
            text = text.replace(old, new)
        path = tmp_path / name
        path.write_text(text)
    module = ktir.load_module(path)
    inputs = ktir.make_inputs(module, 0)
    # the sample device declares no accumulation type: reductions accumulate in their output type,
    # each in the lanes the schedule marks (Decision 112; these examples reduce once at most)
    sched = scheduled(path)
    marks = set(lane_marks(sched).values())
    assert len(marks) <= 1
    lanes = {location_of(op): width for op in module.walk() if op.name == "linalg.reduce" for width in marks}
    reference = ktir.run(module, inputs, accumulate=None, reduction_lanes=lanes)
    fast, slow, batched = both_ways(monkeypatch, sched, inputs, layout=reference.layout,
                                    reserve_size="auto", accumulate=None)
    same(fast, slow)
    assert batched >= loops
    assert not ktir.compare_outputs(reference.outputs, fast.outputs)


@pytest.mark.parametrize("name", ["embedding_gather.mlir", "kv_cache_scatter.mlir"])
def test_gather_and_scatter_loops_batched_equal_sequential(monkeypatch, name):
    """A loop of transfers through an address list (`ktdf.indirect_view`) is batched too: every
    iteration's points go through the list at once (the corpus' paged copies spent most of a
    `--check` moving rows one iteration at a time)."""
    path = EXAMPLES / name
    module = ktir.load_module(path)
    inputs = ktir.make_inputs(module, 0)
    reference = ktir.run(module, inputs, accumulate=None)
    through_lists = []
    real = schedule_batch.BatchRun._indirect_box
    monkeypatch.setattr(schedule_batch.BatchRun, "_indirect_box",
                        lambda self, *a: through_lists.append(1) or real(self, *a))
    fast, slow, _ = both_ways(monkeypatch, scheduled(path), inputs, layout=reference.layout,
                              reserve_size="auto", accumulate=None)
    same(fast, slow)
    assert through_lists
    assert not ktir.compare_outputs(reference.outputs, fast.outputs)


def loop_kernel(body: str, rows: int = 8, grid: int = 1) -> str:
    return kernel(f"""
    %n = arith.constant {rows} : index
    %last = arith.constant {rows - 1} : index
{body}""", "\n".join([ddr_view("A", 0, rows), ddr_view("C", 4096, rows)]), grid=grid)


def copy_rows(monkeypatch, upper: str, destination: str, seed: int, prelude: str = ""):
    """`for %i < upper: copy row %i of A (seeded 8x64) to destination`, run both ways with equal
    results; returns the fast run, the loops it batched and A."""
    text = loop_kernel(f"""
    scf.for %i = %c0 to {upper} step %c1 {{{prelude}
      ktdf.data_transfer from %A[%i, %c0] size [1, 64] to {destination} size [1, 64] : memref<8x64xf16, "DDR">, memref<8x64xf16, "DDR">
    }}""")
    a = rand((8, 64), seed)
    fast, slow, batched = both_ways(monkeypatch, parse_module(text), {"@0": a})
    same(fast, slow)
    return fast, batched, a


def test_copy_loop_is_batched(monkeypatch):
    fast, batched, a = copy_rows(monkeypatch, "%n", "%C[%i, %c0]", 1)
    assert batched >= 1  # (the layout dry run batches it too)
    np.testing.assert_array_equal(fast.outputs["@4096"], a)


def test_loop_reading_what_an_earlier_iteration_wrote_runs_in_order(monkeypatch):
    # row i + 1 = row i, in order: every row ends up as row 0
    fast, batched, a = copy_rows(monkeypatch, "%last", "%A[%next, %c0]", 2,
                                 prelude="\n      %next = arith.addi %i, %c1 : index")
    assert batched == 0
    np.testing.assert_array_equal(fast.outputs["@0"], np.broadcast_to(a[0], (8, 64)))


def test_loop_writing_one_row_every_iteration_keeps_the_last(monkeypatch):
    fast, batched, a = copy_rows(monkeypatch, "%n", "%C[%c0, %c0]", 3)
    assert batched == 1  # only in the layout dry run, whose probe memory reads the same bytes in every row
    np.testing.assert_array_equal(fast.outputs["@4096"][0], a[7])


def test_batch_given_up_after_an_allocation_counts_buffers_as_the_sequential_run(monkeypatch):
    # the body allocates, then an op the batch cannot reproduce (a tensor sized by the iv) gives up
    fast, batched, a = copy_rows(monkeypatch, "%n", "%C[%i, %c0]", 14, prelude=f"""
      %buf = memref.alloc() : {L1}
      %sized = tensor.empty(%i) : tensor<?xf16>""")
    assert batched == 0
    np.testing.assert_array_equal(fast.outputs["@4096"], a)


def test_loop_storing_the_same_bytes_every_iteration_is_batched(monkeypatch):
    # row 0 of A to row 0 of C in each of the 8 iterations (as reduction-loop-exposure leaves a
    # row load inside the loop that reduces it): once is as many
    a = rand((8, 64), 9)
    text = loop_kernel("""
    scf.for %i = %c0 to %n step %c1 {
      ktdf.data_transfer from %A[%c0, %c0] size [1, 64] to %C[%c0, %c0] size [1, 64] : memref<8x64xf16, "DDR">, memref<8x64xf16, "DDR">
    }""")
    fast, slow, batched = both_ways(monkeypatch, parse_module(text), {"@0": a})
    same(fast, slow)
    assert batched == 2  # in the layout dry run and the run
    np.testing.assert_array_equal(fast.outputs["@4096"][0], a[0])


def errors(monkeypatch, text: str, inputs: dict) -> tuple[str, str]:
    messages = []
    for trips in (4, 10**12):
        monkeypatch.setattr(schedule_batch, "MIN_TRIPS", trips)
        with pytest.raises(DiagnosticError) as info:
            run_schedule(parse_module(text), inputs)
        diag = info.value.diagnostic
        messages.append((diag.message, [(n.message, n.line) for n in diag.notes], diag.line))
    return messages[0], messages[1]


def test_instance_race_reported_as_the_sequential_run_does(monkeypatch):
    text = loop_kernel(f"""
    %shared = memref.alloc() : {L1}
    ktdf.parallel (%i, %inst) = (%c0) to (%n) step (%c1) distribute(num_instances = 2) {{
      ktdf.pipeline {{
        ktdf.stage depends_in(none) depends_out(none) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %shared[0, 0] size [1, 64] : memref<8x64xf16, "DDR">, {L1}
        }} {{applicable_units = ["MNILU"]}}
      }}
      ktdf.parallel_yield
    }}""")
    fast, slow = errors(monkeypatch, text, {"@0": rand((8, 64), 4)})
    assert fast == slow
    assert "instances 0 and 1 race" in fast[0]


def test_compute_tiles_writing_one_row_race_as_before(monkeypatch):
    text = loop_kernel("""
    scf.for %i = %c0 to %n step %c1 {
      ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %C[%c0, %c0] size [1, 64] : memref<8x64xf16, "DDR">, memref<8x64xf16, "DDR">
    }""", grid=2)
    # (every row into row 0: tile 1 changes what tile 0 left there; identical bytes would not race)
    fast, slow = errors(monkeypatch, text, {"@0": rand((8, 64), 5)})
    assert fast == slow
    assert "races with compute tile 0" in fast[0]


def test_out_of_bounds_transfer_reported_as_before(monkeypatch):
    text = loop_kernel("""
    %far = arith.constant 9 : index
    scf.for %i = %c0 to %far step %c1 {
      ktdf.data_transfer from %A[%c0, %c0] size [1, 64] to %C[%i, %c0] size [1, 64] : memref<8x64xf16, "DDR">, memref<8x64xf16, "DDR">
    }""")
    fast, slow = errors(monkeypatch, text, {"@0": rand((8, 64), 6)})
    assert fast == slow


def test_every_check_point_batched_equals_sequential(monkeypatch, tmp_path):
    """`dfsched-run --check` on a kernel of row loops (row_bias_tiled on 512 rows): the same
    verdict and statistics at every pass point (private buffers per iteration, tiled loops,
    parallel instances, double-buffer phases)."""
    from dfsched.tools.run import check_kernel

    batched = spy_batches(monkeypatch)
    path = tmp_path / "row_bias_512.mlir"
    path.write_text((EXAMPLES / "row_bias_tiled.mlir").read_text().replace("4096", "512").replace("4095", "511"))
    path = str(path)
    fast = check_kernel(path, simulate_dataflow=False)
    monkeypatch.setattr(schedule_batch, "MIN_TRIPS", 10**12)
    slow = check_kernel(path, simulate_dataflow=False)
    assert [(r.name, r.status(), r.verdict.stats if r.verdict else None) for r in fast.rows] == \
        [(r.name, r.status(), r.verdict.stats if r.verdict else None) for r in slow.rows]
    assert not fast.failed and sum(batched) >= 10


# ---------------------------------------------------------------------------------------
# loops that carry state (`schedule_carry`): FIFOs from outside the loop, accumulators, branches
# ---------------------------------------------------------------------------------------

IN_SLOT = '!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>'
OUT_SLOT = '!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>'
ACC = 'memref<1x64xf16, "SFU_REG">'


def rows_into_fifo(depends_in: str, depends_out: str) -> str:
    """A pipeline's private (%p#0: a FIFO in, %p#1: a FIFO out, %p#2, %p#3: tokens) and a stage
    pushing the 8 rows of A into %p#0."""
    return f"""      %p:4 = ktdf.private -> ({IN_SLOT}, {OUT_SLOT}, !ktdf.token, !ktdf.token) {{
        %f = ktdf.fifo.allocate() -> {IN_SLOT}
        %g = ktdf.fifo.allocate() -> {OUT_SLOT}
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %f, %g, %t0, %t1 : {IN_SLOT}, {OUT_SLOT}, !ktdf.token, !ktdf.token
      }}
      ktdf.stage depends_in({depends_in}) depends_out({depends_out}) {{
        scf.for %i = %c0 to %n step %c1 {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0 size [64] : memref<8x64xf16, "DDR">, {IN_SLOT}
        }}
      }} {{applicable_units = ["L1LU"]}}"""


def k_loop_kernel(consumer_first: bool = False) -> str:
    """A K loop as `tile-size-selection` leaves matmul's: one stage pushes the 8 rows of A into a
    FIFO of the pipeline's private, one pops them and accumulates x * x into a buffer allocated
    before its loop, handing the partial sum on after row 3 and the total after row 7, and one
    stores both into C. `consumer_first` orders the accumulating stage first (it then reads an
    empty FIFO)."""
    # (depends_in, depends_out) of the producer, the accumulating stage and the store stage
    tokens = ([("%p#2", "none"), ("none", "%p#2"), ("%p#2", "none")] if consumer_first else
              [("none", "%p#2"), ("%p#2", "%p#3"), ("%p#3", "none")])
    return loop_kernel(f"""
    ktdf.pipeline {{
{rows_into_fifo(*tokens[0])}
      ktdf.stage depends_in({tokens[1][0]}) depends_out({tokens[1][1]}) {{
        %acc = memref.alloc() : {ACC}
        %zero = arith.constant 0.000000e+00 : f16
        linalg.fill ins(%zero : f16) outs(%acc : {ACC})
        scf.for %i = %c0 to %n step %c1 {{
          %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 64xf16> -> memref<1x64xf16>
          linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x : memref<1x64xf16>) outs(%acc : {ACC}) {{
          ^bb0(%in: f16, %out: f16):
            %sq = arith.mulf %in, %in : f16
            %sum = arith.addf %out, %sq : f16
            linalg.yield %sum : f16
          }}
          %half = arith.cmpi eq, %i, %c3 : index
          scf.if %half {{
            ktdf.write_to_fifo %acc, %p#1 : {ACC}, <"SFU" -> "L1SU", 64xf16>
          }}
          %end = arith.cmpi eq, %i, %last : index
          scf.if %end {{
            ktdf.write_to_fifo %acc, %p#1 : {ACC}, <"SFU" -> "L1SU", 64xf16>
          }}
        }}
      }} {{applicable_units = ["SFU"]}}
      ktdf.stage depends_in({tokens[2][0]}) depends_out({tokens[2][1]}) {{
        scf.for %i = %c0 to %c2 step %c1 {{
          ktdf.data_transfer from %p#1 size [64] to %C[%i, %c0] size [1, 64] : {OUT_SLOT}, memref<8x64xf16, "DDR">
        }}
      }} {{applicable_units = ["L1SU"]}}
    }}""")


def test_k_loop_through_outside_fifos_and_an_accumulator_is_batched(monkeypatch):
    a = rand((8, 64), 7)
    fast, slow, batched = both_ways(monkeypatch, parse_module(k_loop_kernel()), {"@0": a})
    same(fast, slow)
    assert batched == 4  # the producer's loop and the accumulating loop, in the layout dry run and the run
    partial = total = np.zeros(64, dtype=np.float16)
    for i, row in enumerate(a):  # f16 after every step, as the sequential run rounds
        total = (total + row * row).astype(np.float16)
        if i == 3:
            partial = total
    np.testing.assert_array_equal(fast.outputs["@4096"][:2], np.stack([partial, total]))


def test_k_loop_reading_an_empty_fifo_reports_as_the_sequential_run(monkeypatch):
    fast, slow = errors(monkeypatch, k_loop_kernel(consumer_first=True), {"@0": rand((8, 64), 8)})
    assert fast == slow
    assert "only 0 are queued" in fast[0]


SUM_OF_SQUARES = """%sq = arith.mulf %in, %in_2 : f16
            %sum = arith.addf %out, %sq : f16"""
SUM = """%sum = arith.addf %out, %in : f16"""


def carried_kernel(body: str) -> str:
    """A Triton-style loop as reduction-loop-exposure leaves one: the 8 rows of A through a
    FIFO into an `scf.for` whose `iter_args` tensor folds each row in (64 parallel points, one
    reduction point each), handed on at the last iteration and stored into row 0 of C."""
    inputs = "ins(%x, %x : tensor<64x1xf16>, tensor<64x1xf16>)" if "%in_2" in body else "ins(%x : tensor<64x1xf16>)"
    maps = ", ".join(["affine_map<(d0, d1) -> (d0, d1)>"] * (2 if "%in_2" in body else 1))
    args = "%in: f16, %in_2: f16, %out: f16" if "%in_2" in body else "%in: f16, %out: f16"
    return loop_kernel(f"""
    %c7 = arith.constant 7 : index
    ktdf.pipeline {{
{rows_into_fifo("none", "%p#2")}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {{
        %zero = arith.constant 0.000000e+00 : f16
        %e = tensor.empty() : tensor<64xf16>
        %init = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
        %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf16>) {{
          %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64x1xf16>
          %y = linalg.generic {{indexing_maps = [{maps}, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} {inputs} outs(%acc : tensor<64xf16>) {{
          ^bb0({args}):
            {body}
            linalg.yield %sum : f16
          }} -> tensor<64xf16>
          %end = arith.cmpi eq, %i, %c7 : index
          scf.if %end {{
            ktdf.write_to_fifo %y, %p#1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
          }}
          scf.yield %y : tensor<64xf16>
        }}
      }} {{applicable_units = ["SFU"]}}
      ktdf.stage depends_in(%p#3) depends_out(none) {{
        ktdf.data_transfer from %p#1 size [64] to %C[%c0, %c0] size [1, 64] : {OUT_SLOT}, memref<8x64xf16, "DDR">
      }} {{applicable_units = ["L1SU"]}}
    }}""")


@pytest.mark.parametrize("body", [SUM_OF_SQUARES, SUM], ids=["contraction", "fold"])
@pytest.mark.parametrize("accumulate", ["f32", None])
def test_loop_carried_tensor_folded_as_the_sequential_run(monkeypatch, body, accumulate):
    """f32 accumulation (the engine's einsum, or the body widened) and f16 (one rounded step
    after another), with negative zeros among the inputs (whose sign a fold must keep as the
    engine does)."""
    a = rand((8, 64), 10)
    a[:, :4] = -0.0
    fast, slow, batched = both_ways(monkeypatch, parse_module(carried_kernel(body)), {"@0": a},
                                    accumulate=accumulate)
    same(fast, slow)
    assert batched == 4  # both loops, in the layout dry run and the run


def test_affine_apply_of_the_induction_variable_is_batched(monkeypatch):
    # loop normalisation leaves `affine.apply` of the induction variable in the body: C[7 - i] = A[i]
    fast, batched, a = copy_rows(monkeypatch, "%n", "%C[%j, %c0]", 4,
                                 prelude="\n      %j = affine.apply affine_map<(d0) -> (-d0 + 7)>(%i)")
    assert batched >= 1
    np.testing.assert_array_equal(fast.outputs["@4096"], a[::-1])


# ---------------------------------------------------------------------------------------
# double-buffered loops (`schedule_phases`): a copy of the selected buffers per iteration
# ---------------------------------------------------------------------------------------

BUF = 'memref<2x64xf16, "L1">'
ROWS = 'memref<8x64xf16, "DDR">'


def double_buffered(fill_rows: str = "%c2", parallel_to: str = "%o[%j, %c0]", store_from: str = "%o") -> str:
    """As `double-buffering` leaves row_bias_tiled's loop: 4 chunks of 2 rows of A, each chunk
    loaded into the input buffer its phase selects (`fill_rows` of them), copied row by row by
    a 2-instance `ktdf.parallel` into the selected output buffer (to `parallel_to`), and stored
    from `store_from` into C; after the loop, the four buffers go to D (what the last
    iteration of each phase left in them)."""
    return kernel(f"""
    %c8 = arith.constant 8 : index
    %b0 = memref.alloc() : {BUF}
    %b1 = memref.alloc() : {BUF}
    %o0 = memref.alloc() : {BUF}
    %o1 = memref.alloc() : {BUF}
    scf.for %i = %c0 to %c4 step %c1 {{
      %ph = ktdf.buffer_phase(%i) {{num_phases = 2 : i64}} : index
      %b = ktdf.select_memref %ph[%b0, %b1] : {BUF}
      %o = ktdf.select_memref %ph[%o0, %o1] : {BUF}
      %first = arith.muli %i, %c2 : index
      ktdf.pipeline {{
        ktdf.stage depends_in(none) depends_out(none) {{
          scf.for %j = %c0 to {fill_rows} step %c1 {{
            %row = arith.addi %first, %j : index
            ktdf.data_transfer from %A[%row, %c0] size [1, 64] to %b[%j, %c0] size [1, 64] : {ROWS}, {BUF}
          }}
        }} {{applicable_units = ["MNILU"]}}
        ktdf.stage depends_in(none) depends_out(none) {{
          ktdf.parallel (%j, %inst) = (%c0) to (%c2) step (%c1) distribute(num_instances = 2) {{
            ktdf.data_transfer from %b[%j, %c0] size [1, 64] to {parallel_to} size [1, 64] : {BUF}, {BUF}
            ktdf.parallel_yield
          }}
        }} {{applicable_units = ["L1LU"]}}
        ktdf.stage depends_in(none) depends_out(none) {{
          scf.for %j = %c0 to %c2 step %c1 {{
            %row = arith.addi %first, %j : index
            ktdf.data_transfer from {store_from}[%j, %c0] size [1, 64] to %C[%row, %c0] size [1, 64] : {BUF}, {ROWS}
          }}
        }} {{applicable_units = ["MNISU"]}}
      }}
    }}
    ktdf.data_transfer from %b0[%c0, %c0] size [2, 64] to %D[%c0, %c0] size [2, 64] : {BUF}, {ROWS}
    ktdf.data_transfer from %b1[%c0, %c0] size [2, 64] to %D[%c2, %c0] size [2, 64] : {BUF}, {ROWS}
    ktdf.data_transfer from %o0[%c0, %c0] size [2, 64] to %D[%c4, %c0] size [2, 64] : {BUF}, {ROWS}
    %c6 = arith.constant 6 : index
    ktdf.data_transfer from %o1[%c0, %c0] size [2, 64] to %D[%c6, %c0] size [2, 64] : {BUF}, {ROWS}""",
                  "\n".join([ddr_view("A", 0, 8), ddr_view("C", 4096, 8), ddr_view("D", 8192, 8)]))


def test_double_buffered_loop_is_one_batch(monkeypatch):
    """The whole loop (buffer phases, nested loops and the nested `ktdf.parallel`) in one batch;
    each buffer then holds what the last iteration of its phase wrote (iteration 2 for phase 0,
    3 for phase 1)."""
    a = rand((8, 64), 11)
    fast, slow, batched = both_ways(monkeypatch, parse_module(double_buffered()), {"@0": a})
    same(fast, slow)
    assert batched == 2  # the loop, in the layout dry run and the run
    np.testing.assert_array_equal(fast.outputs["@4096"], a)
    np.testing.assert_array_equal(fast.outputs["@8192"], np.concatenate([a[4:6], a[6:8], a[4:6], a[6:8]]))


@pytest.mark.parametrize("variant", [
    {"fill_rows": "%c1"},  # row 1 read before its iteration wrote it: an earlier iteration's (or poison)
    {"store_from": "%o0"},  # a candidate used directly: its copies hold the data
], ids=["read-before-written", "candidate-used-directly"])
def test_double_buffered_loop_batching_must_refuse_runs_in_order(monkeypatch, variant):
    fast, slow, batched = both_ways(monkeypatch, parse_module(double_buffered(**variant)), {"@0": rand((8, 64), 12)})
    same(fast, slow)
    assert batched == 0


def test_instance_race_in_a_double_buffered_loop_reported_as_the_sequential_run(monkeypatch):
    fast, slow = errors(monkeypatch, double_buffered(parallel_to="%o[%c0, %c0]"), {"@0": rand((8, 64), 13)})
    assert fast == slow
    assert "instances 0 and 1 race" in fast[0]


def column_blocks_kernel(rows: int, k: int, cols: int) -> str:
    """`for %i < rows: C[%i, 0:cols] = A[%i, :] @ B[:, %i*cols : (%i+1)*cols]` as
    construct-three-stage-pipeline leaves a matmul: each iteration reads a k x cols column
    block of B (k runs of cols elements, not one run), through FIFOs, into the vector unit."""
    a_in = f'!ktdf.fifo.slot<"DDR" -> "SFU", {k}xf16>'
    b_in = f'!ktdf.fifo.slot<"DDR" -> "SFU", {k * cols}xf16>'
    c_out = f'!ktdf.fifo.slot<"SFU" -> "DDR", {cols}xf16>'
    b_mem = f'memref<{k}x{rows * cols}xf16, "DDR">'
    return kernel(f"""
    %n = arith.constant {rows} : index
    %w = arith.constant {cols} : index
    scf.for %i = %c0 to %n step %c1 {{
      %col = arith.muli %i, %w : index
      ktdf.pipeline {{
        %p:6 = ktdf.private -> ({a_in}, {b_in}, {c_out}, !ktdf.token, !ktdf.token, !ktdf.token) {{
          %f:2 = ktdf.fifo.allocate() -> {a_in}, {b_in}
          %g = ktdf.fifo.allocate() -> {c_out}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %f#0, %f#1, %g, %t0, %t1, %t2 : {a_in}, {b_in}, {c_out}, !ktdf.token, !ktdf.token, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#3) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, {k}] to %p#0 size [1, {k}] : memref<{rows}x{k}xf16, "DDR">, {a_in}
          ktdf.data_transfer from %B[%c0, %col] size [{k}, {cols}] to %p#1 size [{k}, {cols}] : {b_mem}, {b_in}
        }}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {{
          %a = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", {k}xf16> -> tensor<1x{k}xf16>
          %b = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", {k * cols}xf16> -> tensor<{k}x{cols}xf16>
          %e = tensor.empty() : tensor<1x{cols}xf16>
          %m = linalg.matmul ins(%a, %b : tensor<1x{k}xf16>, tensor<{k}x{cols}xf16>) outs(%e : tensor<1x{cols}xf16>) -> tensor<1x{cols}xf16>
          ktdf.write_to_fifo %m, %p#2 : tensor<1x{cols}xf16>, {c_out}
        }} {{applicable_units = ["SFU"]}}
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {{
          ktdf.data_transfer from %p#2 size [1, {cols}] to %C[%i, %c0] size [1, {cols}] : {c_out}, memref<{rows}x{cols}xf16, "DDR">
        }}
      }}
    }}""", "\n".join([ddr_view("A", 0, rows, k), ddr_view("B", 1 << 20, k, rows * cols),
                      ddr_view("C", 1 << 24, rows, cols)]))


def test_batched_box_reads_hold_a_chunk_of_addresses_not_the_batch(monkeypatch):
    """A batch reads its boxes a chunk of rows at a time and remembers reads as byte runs
    (`batch_accesses`): here 16 iterations read 16 column blocks of B, 128K elements. Kept
    whole (1 MB of int64 addresses, 2 MB of byte slots and their sorted copies for the conflict
    check) the run peaked at 14 MB under tracemalloc; with chunks of 4096 elements, at 2 MB (its
    data: the FIFOs' values, the matmul's operands). The result is the sequential run's, bit for bit.
    Over the 1 s budget (three runs, one under tracemalloc): the only check that reads are chunked."""
    import tracemalloc

    from dfsched.interp import batch_accesses

    rows, k, cols = 16, 512, 16
    module = parse_module(column_blocks_kernel(rows, k, cols))
    inputs = {"@0": rand((rows, k), 21), f"@{1 << 20}": rand((k, rows * cols), 22)}
    monkeypatch.setattr(batch_accesses, "CHUNK_ELEMENTS", 4096)
    batched = spy_batches(monkeypatch)
    run_schedule(module, inputs)  # warm the per-op caches
    tracemalloc.start()
    try:
        fast = run_schedule(module, inputs)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sum(batched) >= 2
    assert peak < 4 << 20, peak
    monkeypatch.setattr(schedule_batch, "MIN_TRIPS", 10**12)
    slow = run_schedule(module, inputs)
    same(fast, slow)
    a, b = inputs["@0"].astype(np.float32), inputs[f"@{1 << 20}"].astype(np.float32)
    want = np.stack([a[i] @ b[:, i * cols:(i + 1) * cols] for i in range(rows)])
    np.testing.assert_allclose(fast.outputs[f"@{1 << 24}"].astype(np.float32), want, rtol=0.05, atol=0.05)
