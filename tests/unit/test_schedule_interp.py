"""The ScheduleIR interpreter on hand-written ScheduleIR, against numpy.

Every kernel here is written the way the scheduling passes write theirs (the shapes of
`docs/dialects.md#ktdf`): a 3-stage FIFO pipeline, a routed
5-stage pipeline through L1 buffers, a nested pipeline, a double-buffered loop,
`ktdf.parallel` over 2 and 4 instances, splat and pad transfers, tiling placeholders,
address-assigned buffers and an orchestrator calling a program. Then the located errors:
a FIFO read nobody fed, data nobody read, a stage that never runs, a token cycle, a write
outside a buffer, instances racing on a buffer, a placeholder without a value.
"""

from __future__ import annotations

import numpy as np
import pytest

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.ktir import parse_module
from dfsched.interp.schedule import (
    Unsupported,
    executable,
    run_schedule,
    run_schedule_outputs,
    schedule_layout,
)
from unit_helpers import GLOBAL, box, index_constants

F16 = np.float16
DDR_IN = '!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>'
DDR_OUT = '!ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>'


def ddr_view(name: str, address: int, rows: int, cols: int = 64, elt: str = "f16") -> str:
    """A global view at `address` plus its cast to the "DDR" space (as the passes write it)."""
    return (
        f"%{name}_addr = arith.constant {address} : index\n"
        f"%{name}_v = ktdp.construct_memory_view %{name}_addr, sizes: [{rows}, {cols}], strides: [{cols}, 1] "
        f"{{coordinate_set = {box(rows, cols)}, memory_space = {GLOBAL}}} : memref<{rows}x{cols}x{elt}>\n"
        f"%{name} = memref.memory_space_cast %{name}_v : memref<{rows}x{cols}x{elt}> to memref<{rows}x{cols}x{elt}, \"DDR\">"
    )


def kernel(body: str, views: str, grid: int = 1) -> str:
    return f"""
module {{
  func.func @k() attributes {{grid = [{grid}]}} {{
{index_constants(0, 1, 2, 3, 4, 5)}
{views}
{body}
    return
  }}
}}
"""


def rand(shape, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(F16)


def run(text: str, inputs: dict, **kw) -> dict:
    return run_schedule_outputs(parse_module(text), inputs, **kw)


def fails(text: str, inputs: dict | None = None, **kw) -> str:
    with pytest.raises(DiagnosticError) as info:
        run(text, inputs or {}, **kw)
    return info.value.diagnostic.message


ADD_BODY = """
    %e = tensor.empty() : tensor<1x64xf16>
    %r = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
"""

# ---------------------------------------------------------------------------------------
# 3-stage FIFO pipeline (construct-three-stage-pipeline's shape)
# ---------------------------------------------------------------------------------------

IN = '!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>'
OUT = '!ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>'


def three_stage(order=(0, 1, 2)) -> str:
    load = f"""
        ktdf.stage depends_in(none) depends_out(%p#3) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0 size [1, 64] : memref<4x64xf16, "DDR">, {IN}
          ktdf.data_transfer from %B[%i, %c0] size [1, 64] to %p#1 size [1, 64] : memref<4x64xf16, "DDR">, {IN}
        }}"""
    compute = f"""
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {{
          %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
          {ADD_BODY}
          ktdf.write_to_fifo %r, %p#2 : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
        }} {{applicable_units = ["SFU"]}}"""
    store = f"""
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {{
          ktdf.data_transfer from %p#2 size [1, 64] to %C[%i, %c0] size [1, 64] : {OUT}, memref<4x64xf16, "DDR">
        }}"""
    stages = [load, compute, store]
    body = f"""
    scf.for %i = %c0 to %c4 step %c1 {{
      ktdf.pipeline {{
        %p:6 = ktdf.private -> ({IN}, {IN}, {OUT}, !ktdf.token, !ktdf.token, !ktdf.token) {{
          %f:2 = ktdf.fifo.allocate() -> {IN}, {IN}
          %g = ktdf.fifo.allocate() -> {OUT}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %f#0, %f#1, %g, %t0, %t1, %t2 : {IN}, {IN}, {OUT}, !ktdf.token, !ktdf.token, !ktdf.token
        }}
        {"".join(stages[k] for k in order)}
      }}
    }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
"""
    return kernel(body, "\n".join([ddr_view("A", 0, 4), ddr_view("B", 512, 4), ddr_view("C", 1024, 4)]))


def add_inputs() -> tuple[dict, np.ndarray]:
    a, b = rand((4, 64), 1), rand((4, 64), 2)
    return {"@0": a, "@512": b}, a + b


def test_three_stage_fifo_pipeline():
    inputs, expected = add_inputs()
    out = run(three_stage(), inputs)
    assert out["@1024"].dtype == F16
    np.testing.assert_array_equal(out["@1024"], expected)
    np.testing.assert_array_equal(out["@0"], inputs["@0"])


def test_stages_run_in_token_order_not_sibling_order():
    inputs, expected = add_inputs()
    out = run(three_stage(order=(2, 1, 0)), inputs)
    np.testing.assert_array_equal(out["@1024"], expected)


def test_reverse_stage_order_exposes_a_forgotten_token():
    inputs, expected = add_inputs()
    text = three_stage().replace("ktdf.stage depends_in(%p#4) depends_out(%p#5)",
                                 "ktdf.stage depends_in(none) depends_out(%p#5)")
    # listed after its producers, the store stage still runs last in sibling order...
    np.testing.assert_array_equal(run(text, inputs)["@1024"], expected)
    # ...but nothing makes it wait: run first, it finds its FIFO empty
    message = fails(text, inputs, stage_order="reverse")
    assert 'reads 64 element(s) from FIFO slot #0 (!ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>)' in message
    assert "only 0 are queued" in message
    # a correct schedule gives the same outputs in either order
    np.testing.assert_array_equal(run(three_stage(), inputs, stage_order="reverse")["@1024"], expected)
    with pytest.raises(ValueError, match="stage_order must be 'sibling' or 'reverse'"):
        run(text, inputs, stage_order="random")


def test_layout_from_a_dry_run_finds_the_constant_address_buffers():
    layout = schedule_layout(parse_module(three_stage()))
    assert [(b.key, b.address, b.shape) for b in layout.buffers] == [
        ("@0", 0, (4, 64)), ("@512", 512, (4, 64)), ("@1024", 1024, (4, 64))]


def test_stats_count_pipelines_stages_and_fifo_traffic():
    inputs, _ = add_inputs()
    stats = run_schedule(parse_module(three_stage()), inputs).stats
    assert stats["pipelines"] == 4 and stats["stages"] == 12 and stats["transfers"] == 12
    assert stats["fifo_elements"] == 4 * 3 * 64


# ---------------------------------------------------------------------------------------
# 5-stage routed pipeline with L1 buffers (path-expansion's shape)
# ---------------------------------------------------------------------------------------

L1 = 'memref<1x64xf16, "L1">'

FIVE_STAGE = kernel(f"""
    scf.for %i = %c0 to %c4 step %c1 {{
      ktdf.pipeline {{
        %p:10 = ktdf.private -> ({L1}, {L1}, {DDR_IN}, {DDR_IN}, {DDR_OUT}, {L1}, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {{
          %a = memref.alloc() : {L1}
          %b = memref.alloc() : {L1}
          %f:2 = ktdf.fifo.allocate() -> {DDR_IN}, {DDR_IN}
          %g = ktdf.fifo.allocate() -> {DDR_OUT}
          %c = memref.alloc() : {L1}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          %t3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %b, %f#0, %f#1, %g, %c, %t0, %t1, %t2, %t3 : {L1}, {L1}, {DDR_IN}, {DDR_IN}, {DDR_OUT}, {L1}, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#6) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, {L1}
          ktdf.data_transfer from %B[%i, %c0] size [1, 64] to %p#1[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, {L1}
        }} {{applicable_units = ["MNILU"]}}
        ktdf.stage depends_in(%p#6) depends_out(%p#7) {{
          ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %p#2 size [64] : {L1}, {DDR_IN}
          ktdf.data_transfer from %p#1[0, 0] size [1, 64] to %p#3 size [64] : {L1}, {DDR_IN}
        }} {{applicable_units = ["L1LU"]}}
        ktdf.stage depends_in(%p#7) depends_out(%p#8) {{
          %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %y = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          {ADD_BODY}
          ktdf.write_to_fifo %r, %p#4 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
        }} {{applicable_units = ["SFU"]}}
        ktdf.stage depends_in(%p#8) depends_out(%p#9) {{
          ktdf.data_transfer from %p#4 size [64] to %p#5[0, 0] size [1, 64] : {DDR_OUT}, {L1}
        }} {{applicable_units = ["L1SU"]}}
        ktdf.stage depends_in(%p#9) depends_out(none) {{
          ktdf.data_transfer from %p#5[0, 0] size [1, 64] to %C[%i, %c0] size [1, 64] : {L1}, memref<4x64xf16, "DDR">
        }} {{applicable_units = ["MNISU"]}}
      }}
    }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
""", "\n".join([ddr_view("A", 0, 4), ddr_view("B", 512, 4), ddr_view("C", 1024, 4)]))


def test_five_stage_routed_pipeline_with_l1_buffers():
    inputs, expected = add_inputs()
    result = run_schedule(parse_module(FIVE_STAGE), inputs)
    np.testing.assert_array_equal(result.outputs["@1024"], expected)
    assert result.stats["buffers"] == 4 * 3  # three L1 buffers per pipeline execution


def test_reading_a_buffer_before_writing_it_shows_as_nan():
    # the MNILU stage is emptied: the L1LU stage reads never-written (poisoned) buffers
    text = FIVE_STAGE.replace(
        'ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, '
        'memref<1x64xf16, "L1">', "")
    inputs, _ = add_inputs()
    out = run(text, inputs)
    assert np.isnan(out["@1024"].astype(np.float32)).all()
    assert not np.isnan(run(text, inputs, poison=False)["@1024"].astype(np.float32)).any()


# ---------------------------------------------------------------------------------------
# nested pipeline (stage-coarsening's shape)
# ---------------------------------------------------------------------------------------

EXP = 'memref<4x1x64xf16, "L1">'
FIFO_IN = '!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>'

NESTED = kernel(f"""
    ktdf.pipeline {{
      %p:5 = ktdf.private -> ({EXP}, {EXP}, {EXP}, !ktdf.token, !ktdf.token) {{
        %a = memref.alloc() : {EXP}
        %b = memref.alloc() : {EXP}
        %c = memref.alloc() : {EXP}
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %b, %c, %t0, %t1 : {EXP}, {EXP}, {EXP}, !ktdf.token, !ktdf.token
      }}
      ktdf.stage depends_in(none) depends_out(%p#3) {{
        scf.for %i = %c0 to %c4 step %c1 {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0[%i, 0, 0] size [1, 1, 64] : memref<4x64xf16, "DDR">, {EXP}
          ktdf.data_transfer from %B[%i, %c0] size [1, 64] to %p#1[%i, 0, 0] size [1, 1, 64] : memref<4x64xf16, "DDR">, {EXP}
        }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
      }} {{applicable_units = ["MNILU"]}}
      ktdf.stage depends_in(%p#3) depends_out(%p#4) {{
        scf.for %i = %c0 to %c4 step %c1 {{
          ktdf.pipeline {{
            %q:5 = ktdf.private -> ({FIFO_IN}, {FIFO_IN}, {DDR_OUT}, !ktdf.token, !ktdf.token) {{
              %f:2 = ktdf.fifo.allocate() -> {FIFO_IN}, {FIFO_IN}
              %g = ktdf.fifo.allocate() -> {DDR_OUT}
              %s0 = ktdf.create_token : !ktdf.token
              %s1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %f#0, %f#1, %g, %s0, %s1 : {FIFO_IN}, {FIFO_IN}, {DDR_OUT}, !ktdf.token, !ktdf.token
            }}
            ktdf.stage depends_in(none) depends_out(%q#3) {{
              ktdf.data_transfer from %p#0[%i, 0, 0] size [1, 1, 64] to %q#0 size [64] : {EXP}, {FIFO_IN}
              ktdf.data_transfer from %p#1[%i, 0, 0] size [1, 1, 64] to %q#1 size [64] : {EXP}, {FIFO_IN}
            }} {{applicable_units = ["L1LU"]}}
            ktdf.stage depends_in(%q#3) depends_out(%q#4) {{
              %x = ktdf.read_from_fifo %q#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %y = ktdf.read_from_fifo %q#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
              {ADD_BODY}
              ktdf.write_to_fifo %r, %q#2 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
            }} {{applicable_units = ["SFU"]}}
            ktdf.stage depends_in(%q#4) depends_out(none) {{
              ktdf.data_transfer from %q#2 size [64] to %p#2[%i, 0, 0] size [1, 1, 64] : {DDR_OUT}, {EXP}
            }} {{applicable_units = ["L1SU"]}}
          }}
        }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
      }} {{applicable_units = ["L1LU", "SFU", "L1SU"]}}
      ktdf.stage depends_in(%p#4) depends_out(none) {{
        scf.for %i = %c0 to %c4 step %c1 {{
          ktdf.data_transfer from %p#2[%i, 0, 0] size [1, 1, 64] to %C[%i, %c0] size [1, 64] : {EXP}, memref<4x64xf16, "DDR">
        }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
      }} {{applicable_units = ["MNISU"]}}
    }}
""", "\n".join([ddr_view("A", 0, 4), ddr_view("B", 512, 4), ddr_view("C", 1024, 4)]))


def test_nested_pipeline():
    inputs, expected = add_inputs()
    result = run_schedule(parse_module(NESTED), inputs)
    np.testing.assert_array_equal(result.outputs["@1024"], expected)
    assert result.stats["pipelines"] == 1 + 4


def test_nested_pipeline_with_parallel_instances():
    """parallelize-loops-across-instances turns the coarse stage's loop into ktdf.parallel."""
    text = NESTED.replace(
        """      ktdf.stage depends_in(%p#3) depends_out(%p#4) {
        scf.for %i = %c0 to %c4 step %c1 {""",
        """      ktdf.stage depends_in(%p#3) depends_out(%p#4) {
        ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {""")
    text = text.replace("""          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}""", """          }
          ktdf.parallel_yield
        }
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}""")
    assert "ktdf.parallel (" in text and "ktdf.parallel_yield" in text
    inputs, expected = add_inputs()
    np.testing.assert_array_equal(run(text, inputs)["@1024"], expected)


# ---------------------------------------------------------------------------------------
# sibling pipelines (broadcast-promotion's shape) and reduction loops (map-reduction-partials')
# ---------------------------------------------------------------------------------------

VEC = 'memref<64xf16, "L1">'

SIBLINGS = kernel(f"""
    %bias = memref.alloc() : {VEC}
    ktdf.pipeline {{
      ktdf.stage depends_in(none) depends_out(none) {{
        ktdf.data_transfer from %B[%c0, %c0] size [1, 64] to %bias[0] size [64] : memref<1x64xf16, "DDR">, {VEC}
      }} {{applicable_units = ["MNILU"]}}
    }}
    scf.for %i = %c0 to %c4 step %c1 {{
      ktdf.pipeline {{
        %p:4 = ktdf.private -> ({L1}, {L1}, !ktdf.token, !ktdf.token) {{
          %a = memref.alloc() : {L1}
          %c = memref.alloc() : {L1}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %c, %t0, %t1 : {L1}, {L1}, !ktdf.token, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#2) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, {L1}
        }} {{applicable_units = ["MNILU"]}}
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {{
          linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%p#0, %bias : {L1}, {VEC}) outs(%p#1 : {L1}) {{
          ^bb0(%x: f16, %y: f16, %o: f16):
            %z = arith.addf %x, %y : f16
            linalg.yield %z : f16
          }}
        }} {{applicable_units = ["SFU"]}}
        ktdf.stage depends_in(%p#3) depends_out(none) {{
          ktdf.data_transfer from %p#1[0, 0] size [1, 64] to %C[%i, %c0] size [1, 64] : {L1}, memref<4x64xf16, "DDR">
        }} {{applicable_units = ["MNISU"]}}
      }}
    }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
""", "\n".join([ddr_view("A", 0, 4), ddr_view("B", 512, 1), ddr_view("C", 1024, 4)]))


def test_sibling_pipelines_share_a_hoisted_buffer():
    a, b = rand((4, 64), 10), rand((1, 64), 11)
    out = run(SIBLINGS, {"@0": a, "@512": b})
    np.testing.assert_array_equal(out["@1024"], a + b)


ONE = '!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>'
ONE_OUT = '!ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>'

REDUCTION = kernel(f"""
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    scf.for %i = %c0 to %c4 step %c1 {{
      ktdf.pipeline {{
        %p:4 = ktdf.private -> ({ONE}, {ONE_OUT}, !ktdf.token, !ktdf.token) {{
          %f = ktdf.fifo.allocate() -> {ONE}
          %g = ktdf.fifo.allocate() -> {ONE_OUT}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %f, %g, %t0, %t1 : {ONE}, {ONE_OUT}, !ktdf.token, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#2) {{
          scf.for %k = %c0 to %c64 step %c1 {{
            ktdf.data_transfer from %A[%i, %k] size [1, 1] to %p#0 size [1] : memref<4x64xf16, "DDR">, {ONE}
          }} {{loop_type = #ktdf.loop_type<reduction_loop>}}
        }} {{applicable_units = ["L1LU"]}}
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {{
          %acc = memref.alloc() : memref<1xf16, "SFU_REG">
          linalg.fill ins(%zero : f16) outs(%acc : memref<1xf16, "SFU_REG">)
          scf.for %k = %c0 to %c64 step %c1 {{
            %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 1xf16> -> memref<1x1xf16>
            linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%x : memref<1x1xf16>) outs(%acc : memref<1xf16, "SFU_REG">) {{
            ^bb0(%in: f16, %out: f16):
              %s = arith.addf %out, %in : f16
              linalg.yield %s : f16
            }}
            %last = arith.cmpi eq, %k, %c63 : index
            scf.if %last {{
              ktdf.write_to_fifo %acc, %p#1 : memref<1xf16, "SFU_REG">, <"SFU" -> "L1SU", 1xf16>
            }}
          }} {{loop_type = #ktdf.loop_type<reduction_loop>}}
        }} {{applicable_units = ["SFU"]}}
        ktdf.stage depends_in(%p#3) depends_out(none) {{
          ktdf.data_transfer from %p#1 size [1] to %S[%i, %c0] size [1, 1] : {ONE_OUT}, memref<4x1xf16, "DDR">
        }} {{applicable_units = ["L1SU"]}}
      }}
    }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
""", "\n".join([ddr_view("A", 0, 4), ddr_view("S", 1024, 4, 1)]))


def test_reduction_loop_accumulates_in_a_buffer_in_order():
    a = rand((4, 64), 12)
    out = run(REDUCTION, {"@0": a})
    expected = np.zeros(4, dtype=F16)
    for k in range(64):  # sequential f16 accumulation, as the reference does
        expected = (expected + a[:, k]).astype(F16)
    np.testing.assert_array_equal(out["@1024"].reshape(-1), expected)


# ---------------------------------------------------------------------------------------
# double buffering
# ---------------------------------------------------------------------------------------

ROW = 'memref<64xf16, #ktdp.memory_space<ct_local>>'

def double_buffered(nested: bool = False) -> str:
    """Rows of A through two alternating L1 buffers to C; then both buffers to D."""
    if nested:  # for %j in [0, 2), %i in [0, 3): row i + j, phase over (j, i)
        head = "scf.for %j = %c0 to %c2 step %c1 {\n    scf.for %i = %c0 to %c3 step %c1 {\n" \
               "      %row = arith.addi %i, %j : index\n      %ph = ktdf.buffer_phase(%j, %i) {num_phases = 2 : i64} : index"
        tail = "}\n    }"
    else:
        head = "scf.for %i = %c0 to %c4 step %c1 {\n      %row = arith.addi %i, %c0 : index\n" \
               "      %ph = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index"
        tail = "}"
    return kernel(f"""
    %x0 = memref.alloc() : {ROW}
    %x1 = memref.alloc() : {ROW}
    {head}
      %s = ktdf.select_memref %ph[%x0, %x1] : {ROW}
      ktdf.pipeline modulo(size : 2) {{
        %p:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {{
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#0) {{
          ktdf.data_transfer from %A[%row, %c0] size [1, 64] to %s[0] size [64] : memref<4x64xf16, "DDR">, {ROW}
        }} {{applicable_units = ["MNILU"]}}
        ktdf.stage depends_in(%p#0) depends_out(none) {{
          ktdf.data_transfer from %s[0] size [64] to %C[%row, %c0] size [1, 64] : {ROW}, memref<4x64xf16, "DDR">
        }} {{applicable_units = ["MNISU"]}}
      }}
    {tail}
    ktdf.pipeline {{
      ktdf.stage depends_in(none) depends_out(none) {{
        ktdf.data_transfer from %x0[0] size [64] to %D[%c0, %c0] size [1, 64] : {ROW}, memref<2x64xf16, "DDR">
        ktdf.data_transfer from %x1[0] size [64] to %D[%c1, %c0] size [1, 64] : {ROW}, memref<2x64xf16, "DDR">
      }}
    }}
    memref.dealloc %x0 : {ROW}
    memref.dealloc %x1 : {ROW}
""", "\n".join([ddr_view("A", 0, 4), ddr_view("C", 1024, 4), ddr_view("D", 2048, 2)]))


def test_double_buffered_loop_alternates_the_two_buffers():
    a = rand((4, 64), 3)
    out = run(double_buffered(), {"@0": a})
    np.testing.assert_array_equal(out["@1024"], a)
    # phase = iteration mod 2: x0 last held row 2, x1 row 3
    np.testing.assert_array_equal(out["@2048"], a[[2, 3]])


def test_buffer_phase_linearizes_nested_loops():
    # iterations (j, i) = (0,0) (0,1) (0,2) (1,0) (1,1) (1,2) get phases 0 1 0 1 0 1:
    # x0 last holds row 1 + 1, x1 row 1 + 2 (i alone would give the opposite)
    a = rand((4, 64), 3)
    out = run(double_buffered(nested=True), {"@0": a})
    np.testing.assert_array_equal(out["@2048"], a[[2, 3]])


def test_select_memref_phase_out_of_range_is_an_error():
    text = double_buffered().replace("{num_phases = 2 : i64}", "{num_phases = 3 : i64}")
    with pytest.raises(Exception):  # the verifier already rejects it
        parse_module(text)


# ---------------------------------------------------------------------------------------
# ktdf.parallel
# ---------------------------------------------------------------------------------------


def parallel_kernel(instances: int, rows: int = 5) -> str:
    return kernel(f"""
    %ids_addr = arith.constant 4096 : index
    %ids = ktdp.construct_memory_view %ids_addr, sizes: [{rows}], strides: [1] {{coordinate_set = {box(rows)}, memory_space = {GLOBAL}}} : memref<{rows}xi32>
    %n = arith.constant {rows} : index
    ktdf.parallel (%i, %inst) = (%c0) to (%n) step (%c1) distribute(num_instances = {instances}) {{
      ktdf.pipeline {{
        %p:3 = ktdf.private -> ({L1}, !ktdf.token, !ktdf.token) {{
          %b = memref.alloc() : {L1}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %b, %t0, %t1 : {L1}, !ktdf.token, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#1) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<{rows}x64xf16, "DDR">, {L1}
        }} {{applicable_units = ["MNILU"]}}
        ktdf.stage depends_in(%p#1) depends_out(%p#2) {{
          linalg.add ins(%p#0, %p#0 : {L1}, {L1}) outs(%p#0 : {L1})
          %id = arith.index_cast %inst : index to i32
          memref.store %id, %ids[%i] : memref<{rows}xi32>
        }} {{applicable_units = ["SFU"]}}
        ktdf.stage depends_in(%p#2) depends_out(none) {{
          ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %C[%i, %c0] size [1, 64] : {L1}, memref<{rows}x64xf16, "DDR">
        }} {{applicable_units = ["MNISU"]}}
      }}
      ktdf.parallel_yield
    }}
""", "\n".join([ddr_view("A", 0, rows), ddr_view("C", 1024, rows)]))


@pytest.mark.parametrize(
    ("instances", "owners"),
    [(2, [0, 0, 0, 1, 1]), (4, [0, 0, 1, 1, 2]), (1, [0, 0, 0, 0, 0]), (8, [0, 1, 2, 3, 4])],
)
def test_parallel_instances_run_contiguous_chunks(instances, owners):
    a = rand((5, 64), 4)
    out = run(parallel_kernel(instances), {"@0": a})
    np.testing.assert_array_equal(out["@1024"], a + a)
    assert out["@4096"].tolist() == owners


def test_parallel_instances_writing_one_shared_buffer_race():
    text = f"""
module {{
  func.func @k() attributes {{grid = [1]}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
{ddr_view("A", 0, 4)}
    %shared = memref.alloc() : {L1}
    ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {{
      ktdf.pipeline {{
        ktdf.stage depends_in(none) depends_out(none) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %shared[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, {L1}
        }} {{applicable_units = ["MNILU"]}}
      }}
      ktdf.parallel_yield
    }}
    return
  }}
}}
"""
    with pytest.raises(DiagnosticError) as info:
        run(text, {"@0": rand((4, 64), 5)})
    diag = info.value.diagnostic
    assert diag.message.startswith("'ktdf.parallel' op: instances 0 and 1 race on element 0 (row-major) ")
    assert "of buffer %shared (memref<1x64xf16, \"L1\">): instance 0 writes it and instance 1 writes it" in diag.message
    assert [n.message for n in diag.notes] == ["instance 0 writes it here", "instance 1 writes it here"]
    assert all(n.line is not None for n in diag.notes)
    # with the check off, the last instance's last row wins
    out = run_schedule(parse_module(text), {"@0": rand((4, 64), 5)}, instance_races=False)
    assert out.outputs["@0"].shape == (4, 64)


# ---------------------------------------------------------------------------------------
# splat and pad transfers (scalar-broadcast-legalization's shape)
# ---------------------------------------------------------------------------------------


def broadcast_kernel(mode: str) -> str:
    """C[r, :] = A[r, :] * S[r, 0]: S's element is splat (or padded) to the vector width."""
    return kernel(f"""
    scf.for %i = %c0 to %c4 step %c1 {{
      ktdf.pipeline {{
        %p:9 = ktdf.private -> ({L1}, {L1}, {DDR_IN}, {DDR_IN}, {DDR_OUT}, !ktdf.token, !ktdf.token, !ktdf.token, {L1}) {{
          %a = memref.alloc() : {L1}
          %s = memref.alloc() : {L1}
          %f:2 = ktdf.fifo.allocate() -> {DDR_IN}, {DDR_IN}
          %g = ktdf.fifo.allocate() -> {DDR_OUT}
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          %c = memref.alloc() : {L1}
          ktdf.private_yield %a, %s, %f#0, %f#1, %g, %t0, %t1, %t2, %c : {L1}, {L1}, {DDR_IN}, {DDR_IN}, {DDR_OUT}, !ktdf.token, !ktdf.token, !ktdf.token, {L1}
        }}
        ktdf.stage depends_in(none) depends_out(%p#5) {{
          ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, {L1}
          ktdf.data_transfer from %S[%i, 0] size [1, 64] to %p#1[0, 0] size [1, 64] : memref<4x1xf16, "DDR">, {L1}
        }} {{applicable_units = ["MNILU"]}}
        ktdf.stage depends_in(%p#5) depends_out(%p#6) {{
          ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %p#2 size [64] : {L1}, {DDR_IN}
          ktdf.data_transfer from %p#1[0, 0] size [1, 1] to %p#3 size [64] {{transfer_mode = "{mode}"}} : {L1}, {DDR_IN}
        }} {{applicable_units = ["L1LU"]}}
        ktdf.stage depends_in(%p#6) depends_out(%p#7) {{
          %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %y = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %e = tensor.empty() : tensor<1x64xf16>
          %r = linalg.mul ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
          ktdf.write_to_fifo %r, %p#4 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
        }} {{applicable_units = ["SFU"]}}
        ktdf.stage depends_in(%p#7) depends_out(none) {{
          ktdf.data_transfer from %p#4 size [64] to %C[%i, %c0] size [1, 64] : {DDR_OUT}, memref<4x64xf16, "DDR">
        }} {{applicable_units = ["L1SU"]}}
      }}
    }} {{loop_type = #ktdf.loop_type<parallel_loop>}}
""", "\n".join([ddr_view("A", 0, 4), ddr_view("S", 1024, 4, 1), ddr_view("C", 2048, 4)]))


def test_splat_transfer_broadcasts_a_scalar_to_the_vector():
    a, s = rand((4, 64), 6), rand((4, 1), 7)
    out = run(broadcast_kernel("splat"), {"@0": a, "@1024": s})
    np.testing.assert_array_equal(out["@2048"], a * s)


def test_pad_transfer_fills_zeros_after_the_source():
    a, s = rand((4, 64), 6), rand((4, 1), 7)
    out = run(broadcast_kernel("pad"), {"@0": a, "@1024": s})
    expected = np.zeros((4, 64), dtype=F16)
    expected[:, 0] = a[:, 0] * s[:, 0]
    np.testing.assert_array_equal(out["@2048"], expected)


def test_widened_reads_past_a_memref_need_strict_bounds_off():
    # the MNILU transfer reads [1, 64] out of a 4x1 memref, as scalar-broadcast legalization writes it
    a, s = rand((4, 64), 6), rand((4, 1), 7)
    message = fails(broadcast_kernel("splat"), {"@0": a, "@1024": s}, strict_bounds=True)
    assert "'ktdf.data_transfer' op coordinate (0, 1) is outside the view's" in message


def test_transfer_without_mode_needs_equal_counts():
    message = fails(broadcast_kernel("splat").replace(' {transfer_mode = "splat"}', ""),
                    {"@0": rand((4, 64), 6), "@1024": rand((4, 1), 7)})
    assert "'ktdf.data_transfer' op moves 1 element(s) out of its source but its destination takes 64" in message


# ---------------------------------------------------------------------------------------
# tiling placeholders
# ---------------------------------------------------------------------------------------

TILED = kernel("""
    %c12 = arith.constant 12 : index
    %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n = arith.ceildivui %c12, %ts : index
    scf.for %t = %c0 to %n step %c1 {
      %size = ktdf.tiling.derive_size [%t : %ts], total_size = %c12 : index
      scf.for %q = %c0 to %size step %c1 {
        %row = ktdf.tiling.linearize_index [%t : %ts], [%q : %c1] : index
        ktdf.pipeline {
          ktdf.stage depends_in(none) depends_out(none) {
            ktdf.data_transfer from %A[%row, %c0] size [1, 64] to %C[%row, %c0] size [1, 64] : memref<12x64xf16, "DDR">, memref<12x64xf16, "DDR">
          }
        }
      }
    }
""", "\n".join([ddr_view("A", 0, 12), ddr_view("C", 2048, 12)]))


@pytest.mark.parametrize("size", [1, 2, 5, 12, 13, "auto"])
def test_tiling_placeholder_takes_any_tile_size(size):
    a = rand((12, 64), 8)
    np.testing.assert_array_equal(run(TILED, {"@0": a}, reserve_size=size)["@2048"], a)


def test_tiling_placeholder_without_a_value_is_unsupported():
    with pytest.raises(Unsupported) as info:
        run(TILED, {"@0": rand((12, 64), 8)})
    assert "no concrete value" in info.value.diagnostic.message


def test_derive_size_chains_pairs_from_the_total():
    text = kernel("""
    %c23 = arith.constant 23 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %s = ktdf.tiling.derive_size [%c4 : %c5], [%c1 : %c3], total_size = %c23 : index
    %t = ktdf.tiling.derive_size [%c4 : %c5], total_size = %c23 : index
    %u = ktdf.tiling.derive_size [%c5 : %c5], total_size = %c23 : index
    %l = ktdf.tiling.linearize_index [%c2 : %c5], [%c3 : %c1] : index
    %si = arith.index_cast %s : index to i32
    %ti = arith.index_cast %t : index to i32
    %ui = arith.index_cast %u : index to i32
    %li = arith.index_cast %l : index to i32
    memref.store %si, %R[%c0] : memref<4xi32>
    memref.store %ti, %R[%c1] : memref<4xi32>
    memref.store %ui, %R[%c2] : memref<4xi32>
    memref.store %li, %R[%c3] : memref<4xi32>
""", f"""%r_addr = arith.constant 0 : index
%R = ktdp.construct_memory_view %r_addr, sizes: [4], strides: [1] {{coordinate_set = {box(4)}, memory_space = {GLOBAL}}} : memref<4xi32>""")
    # tile 4 of 5 over 23 holds 3 elements; its sub-tile 1 of 3 holds 0; tile 5 is past the end
    assert run(text, {})["@0"].tolist() == [0, 3, 0, 13]


# ---------------------------------------------------------------------------------------
# programs, address-assigned buffers
# ---------------------------------------------------------------------------------------

ORCHESTRATED = f"""
module {{
  module {{
    func.func @k() attributes {{grid = [2]}} {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      scf.for %h = %c0 to %c2 step %c1 {{
        func.call @local_schedule_0(%h) : (index) -> ()
      }}
      return
    }}
    func.func private @local_schedule_0(index) -> ()
  }}
  module @local_schedule_0 {{
    func.func @local_schedule_0(%h: index) attributes {{grid = [2]}} {{
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %tile = ktdp.get_compute_tile_id : index
      %row = arith.muli %tile, %c2 : index
      %r = arith.addi %row, %h : index
      {ddr_view("A", 512, 4)}
      {ddr_view("C", 1024, 4)}
      %off = arith.muli %r, %c64 : index
      %src = memref.reinterpret_cast %A to offset: [%off], sizes: [1, 64], strides: [64, 1] : memref<4x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
      ktdf.pipeline {{
        %p:2 = ktdf.private -> ({L1}, !ktdf.token) {{
          %a0 = arith.constant 128 : index
          %buf = builtin.unrealized_conversion_cast %a0 : index to {L1}
          %t = ktdf.create_token : !ktdf.token
          ktdf.private_yield %buf, %t : {L1}, !ktdf.token
        }}
        ktdf.stage depends_in(none) depends_out(%p#1) {{
          ktdf.data_transfer from %src[0, 0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">, {L1}
        }}
        ktdf.stage depends_in(%p#1) depends_out(none) {{
          ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %C[%r, 0] size [1, 64] : {L1}, memref<4x64xf16, "DDR">
        }}
      }}
      return
    }}
  }}
}}
"""


def test_orchestrator_calls_programs_and_address_casts_place_buffers():
    # also: the reinterpret_cast offset (row * 64 elements) counts from %A's address, 512
    a = rand((4, 64), 9)
    result = run_schedule(parse_module(ORCHESTRATED), {"@512": a})
    np.testing.assert_array_equal(result.outputs["@1024"], a)
    assert result.stats["pipelines"] == 2 * 2 and result.stats["buffers"] == 0


def test_dataflow_ir_is_not_executable():
    text = """
module {
  func.func @k() attributes {grid = [1]} {
    %u = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu", type = "sfu"} : index
    return
  }
}
"""
    module = parse_module(text)
    assert executable(module) == "DataflowIR: not simulated"
    with pytest.raises(Unsupported) as info:
        run_schedule(module, {})
    assert "DataflowIR" in info.value.diagnostic.message


# ---------------------------------------------------------------------------------------
# located errors
# ---------------------------------------------------------------------------------------


def test_fifo_read_without_producer_is_a_located_error():
    text = three_stage().replace(
        f'ktdf.data_transfer from %B[%i, %c0] size [1, 64] to %p#1 size [1, 64] : memref<4x64xf16, "DDR">, {IN}', "")
    with pytest.raises(DiagnosticError) as info:
        run(text, add_inputs()[0])
    diag = info.value.diagnostic
    assert diag.line is not None
    assert "'ktdf.read_from_fifo' op reads 64 element(s) from FIFO slot #1" in diag.message
    assert "only 0 are queued" in diag.message


def test_fifo_data_nobody_reads_is_a_located_error():
    text = three_stage().replace(
        '%y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>',
        '%y = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>')
    message = fails(text, add_inputs()[0])
    assert "reads 64 element(s) from FIFO slot #0" in message  # the second read of slot #0 finds it empty

    text = three_stage().replace(
        '%y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>',
        '%y = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>').replace(
        f"to %p#0 size [1, 64] : memref<4x64xf16, \"DDR\">, {IN}",
        f"to %p#0 size [1, 64] : memref<4x64xf16, \"DDR\">, {IN}\n"
        f"ktdf.data_transfer from %A[%i, %c0] size [1, 64] to %p#0 size [1, 64] : memref<4x64xf16, \"DDR\">, {IN}")
    message = fails(text, add_inputs()[0])
    assert "FIFO slot #1" in message and "still held 64 of the 64 element(s)" in message


def test_stage_waiting_for_a_token_nobody_signals_never_runs():
    text = three_stage().replace("ktdf.stage depends_in(%p#4) depends_out(%p#5)", "ktdf.stage depends_in(%p#5) depends_out(%p#5)")
    message = fails(text, add_inputs()[0])
    assert "waits for a token it signals itself" in message
    text = three_stage().replace("ktdf.stage depends_in(%p#4) depends_out(%p#5)", "ktdf.stage depends_in(%p#5) depends_out(none)")
    message = fails(text, add_inputs()[0])
    assert "no stage of this pipeline lists in depends_out: the stage would never run" in message


def test_token_cycle_is_an_error():
    text = three_stage().replace("ktdf.stage depends_in(none) depends_out(%p#3)", "ktdf.stage depends_in(%p#5) depends_out(%p#3)")
    message = fails(text, add_inputs()[0])
    assert "wait on each other (a token cycle)" in message


def test_write_outside_a_buffer_is_an_error():
    text = FIVE_STAGE.replace("to %p#5[0, 0] size [1, 64]", "to %p#5[0, 1] size [1, 64]")
    message = fails(text, add_inputs()[0])
    assert "'ktdf.data_transfer' op coordinate (0, 64) is outside the view's sizes [1, 64]" in message


def test_cross_tile_race_through_a_wrong_offset():
    # every tile writes row 0: tile 1 overwrites what tile 0 wrote
    text = ORCHESTRATED.replace("to %C[%r, 0] size [1, 64]", "to %C[%h, 0] size [1, 64]")
    message = fails(text, {"@512": rand((4, 64), 9)})
    assert "races with compute tile 0" in message


def test_instance_race_replay_fails_exactly_on_conflicting_logs(monkeypatch):
    """`AccessLog.check` replays the instances' accesses through the race shadow (`races.py`):
    it must fail exactly when two instances touch one address and one of them writes it, and
    name such a pair (the writer first) and address. Brute force over random logs, element
    runs logged as ranges and scattered accesses as arrays."""
    import random

    from dfsched.interp.memory import Memory
    from dfsched.interp.schedule_state import AccessLog

    class Found(Exception):
        pass

    def report(parallel, memory, entries, i, j, address):
        raise Found(i, j, address)

    monkeypatch.setattr(AccessLog, "_report", staticmethod(report))
    memory = Memory("m", "byte")
    rng = random.Random(1)
    for _ in range(2000):
        entries = []
        for _ in range(rng.randint(1, 8)):
            if rng.random() < 0.5:
                step, start = rng.choice([1, 2, 4]), rng.randrange(200)
                addresses = range(start, start + rng.randint(0, 10) * step, step)
            else:
                addresses = np.array([rng.randrange(250) for _ in range(rng.randint(0, 6))], dtype=np.int64)
            entries.append((rng.randrange(rng.randint(2, 4)), rng.random() < 0.5, addresses, None, None))
        conflicts = {(w[0], o[0], int(a)) for w in entries if w[1] for o in entries if o[0] != w[0]
                     for a in w[2] if a in o[2]}
        log = AccessLog()
        log.entries = {id(memory): (memory, entries)}
        try:
            log.check(None)
            found = None
        except Found as exc:
            found = exc.args
        assert (found is None) == (not conflicts), (entries, found)
        assert found is None or found in conflicts, (entries, found)
