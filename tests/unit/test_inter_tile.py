"""The inter-tile ops in the KTIR reference interpreter (interp/inter_tile.py): tiles that run
one at a time exchange partials, a tile pausing at a delivery until the others produced it."""

from __future__ import annotations

import numpy as np

import pytest

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.ktir import make_inputs, parse_module, run

HEAD = """
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#pairs = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#first = affine_set<(i)[g] : (i - 2 * g == 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
module {
  func.func @k(%in: index, %out: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %t = ktdp.get_compute_tile_id : index
    %g = arith.divui %t, %c2 : index
    %first = arith.remui %t, %c2 : index
    %is_first = arith.cmpi eq, %first, %c0 : index
    %a = ktdp.construct_memory_view %in, sizes: [4, 8], strides: [8, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
    %b = ktdp.construct_memory_view %out, sizes: [2, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
    %ta = ktdp.construct_access_tile %a[%t, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<1x8xindex>
    %tb = ktdp.construct_access_tile %b[%g, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<2x8xf16> -> !ktdp.access_tile<1x8xindex>
    %p = ktdp.load %ta : <1x8xindex> -> tensor<1x8xf16>
"""

TAIL = """
    scf.if %is_first {
      ktdp.store %r, %tb : tensor<1x8xf16>, <1x8xindex>
    }
    return
  }
}
"""

REDUCE = """
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs : tensor<1x8xf16>
        -> !ktdp.tile_future<tensor<1x8xf16>, groups = #two> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x8xf16>
    }
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<1x8xf16>
    %id = linalg.fill ins(%zero : f16) outs(%e : tensor<1x8xf16>) -> tensor<1x8xf16>
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%id : tensor<1x8xf16>)
        : <(tensor<1x8xf16>), groups = #two> -> tensor<1x8xf16> {
    ^bb0(%l: tensor<1x8xf16>, %rr: tensor<1x8xf16>):
      %e2 = tensor.empty() : tensor<1x8xf16>
      %s = linalg.add ins(%l, %rr : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e2 : tensor<1x8xf16>) -> tensor<1x8xf16>
      ktdp.yield_reduced %s : tensor<1x8xf16>
    }
"""


def _run(body: str, tail: str = TAIL):
    module = parse_module(HEAD + body + tail)
    inputs = make_inputs(module, seed=4)
    return inputs["in"].astype(np.float64).reshape(4, 8), run(module, inputs).outputs["out"].astype(np.float64)


def test_reduce_sums_each_group_of_two_tiles():
    x, out = _run(REDUCE)
    np.testing.assert_allclose(out.reshape(2, 8), x.reshape(2, 2, 8).sum(axis=1), atol=2e-3)


def _loop_body(trips: int) -> str:
    return LOOP.replace("%c3 = arith.constant 3", f"%c3 = arith.constant {trips}")


def test_reduce_in_a_loop_pairs_the_nth_deliveries():
    """Three all-reduces in a loop: the n-th delivery of a tile pairs with the n-th of its partner."""
    x, out = _run(_loop_body(3))
    np.testing.assert_allclose(out.reshape(2, 8), 3 * x.reshape(2, 2, 8).sum(axis=1), atol=1e-2)


def test_deliveries_cost_linear_time():
    """A paused tile resumes where it stopped: every op runs once, whatever the number of
    deliveries (re-running the grid from the start per delivery was quadratic)."""
    ops = []
    for trips in (4, 8, 12):
        module = parse_module(HEAD + _loop_body(trips) + TAIL)
        ops.append(run(module, make_inputs(module, seed=4)).ops_run)
    assert ops[2] - ops[1] == ops[1] - ops[0] > 0


def test_a_partial_nobody_produces_is_a_located_deadlock():
    body = REDUCE.replace("%f = ktdp.inter_tile_produce", "scf.if %is_first {\n    %f = ktdp.inter_tile_produce")
    body += "    }\n"
    tail = TAIL.replace("ktdp.store %r, %tb", "ktdp.store %p, %tb")
    module = parse_module(HEAD + body + tail, name="deadlock.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run(module, make_inputs(module, seed=4))
    diag = exc.value.diagnostic
    source = (HEAD + body + tail).splitlines()
    assert diag.file == "deadlock.mlir" and "ktdp.inter_tile_reduce" in source[diag.line - 1]
    assert "compute tile 0 waits for the partials of compute tile(s) 1 at this delivery, which they never produce" \
        in diag.message


LOOP = """
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<1x8xf16>
    %id = linalg.fill ins(%zero : f16) outs(%e : tensor<1x8xf16>) -> tensor<1x8xf16>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %id) -> (tensor<1x8xf16>) {
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1x8xf16>), groups = #two> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<1x8xf16>
      }
      %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%id : tensor<1x8xf16>)
          : <(tensor<1x8xf16>), groups = #two> -> tensor<1x8xf16> {
      ^bb0(%l: tensor<1x8xf16>, %rr: tensor<1x8xf16>):
        %e2 = tensor.empty() : tensor<1x8xf16>
        %s = linalg.add ins(%l, %rr : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e2 : tensor<1x8xf16>) -> tensor<1x8xf16>
        ktdp.yield_reduced %s : tensor<1x8xf16>
      }
      %e3 = tensor.empty() : tensor<1x8xf16>
      %next = linalg.add ins(%acc, %sum : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e3 : tensor<1x8xf16>) -> tensor<1x8xf16>
      scf.yield %next : tensor<1x8xf16>
    }
"""


def test_consume_broadcasts_the_first_tile_of_each_group():
    body = """
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #first -> <(tensor<1x8xf16>), groups = #two> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x8xf16>
    }
    %got = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1x8xf16>), groups = #two> -> tensor<1x8xf16>
    %e = tensor.empty() : tensor<1x8xf16>
    %r = linalg.add ins(%got, %p : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) -> tensor<1x8xf16>
"""
    # the second tile of group g stores its own row plus the one tile 2g sent it
    x, out = _run(body, TAIL.replace("scf.if %is_first {", "%second = arith.cmpi ne, %first, %c0 : index\n    scf.if %second {"))
    np.testing.assert_allclose(out.reshape(2, 8), x[[0, 2]] + x[[1, 3]], atol=2e-3)
