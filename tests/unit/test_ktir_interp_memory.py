"""The KTIR reference interpreter's memory model against numpy: argument buffers and their
layout over a grid, access-tile sets and orders, strided and symbolic views, scratchpads,
2-D grids, races, located errors, distributed and indirect access."""

from __future__ import annotations

import numpy as np
import pytest

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.ktir import call_function, kernel_layout, make_inputs, parse_module, run, run_kernel
from unit_helpers import box, index_constants, kernel, kernel_with_inputs, tile, view


# ---------------------------------------------------------------------------------------
# elementwise kernels over a grid
# ---------------------------------------------------------------------------------------

ADD_ARGS = kernel(
    "%A: index, %B: index, %C: index",
    "\n".join(
        [
            index_constants(0, 2, indent=""),
            "%id = ktdp.get_compute_tile_id : index",
            "%row = arith.muli %id, %c2 : index",
            view("va", "A", (8, 16), (16, 1)),
            view("vb", "B", (8, 16), (16, 1)),
            view("vc", "C", (8, 16), (16, 1)),
            tile("ta", "va", (8, 16), ["%row", "%c0"], (2, 16)),
            tile("tb", "vb", (8, 16), ["%row", "%c0"], (2, 16)),
            tile("tc", "vc", (8, 16), ["%row", "%c0"], (2, 16)),
            "%a = ktdp.load %ta : <2x16xindex> -> tensor<2x16xf16>",
            "%b = ktdp.load %tb : <2x16xindex> -> tensor<2x16xf16>",
            "%e = tensor.empty() : tensor<2x16xf16>",
            "%s = linalg.add ins(%a, %b : tensor<2x16xf16>, tensor<2x16xf16>) outs(%e : tensor<2x16xf16>) -> tensor<2x16xf16>",
            "ktdp.store %s, %tc : tensor<2x16xf16>, <2x16xindex>",
        ]
    ),
    grid=(4,),
    name="add",
)


def test_add_over_grid_with_argument_buffers():
    m = parse_module(ADD_ARGS)
    inputs = make_inputs(m, seed=3)
    assert set(inputs) == {"A", "B", "C"}
    assert inputs["A"].shape == (8, 16) and inputs["A"].dtype == np.float16
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["C"], inputs["A"] + inputs["B"])
    np.testing.assert_array_equal(out["A"], inputs["A"])  # inputs untouched


def test_layout_places_argument_buffers_apart_and_aligned():
    layout = kernel_layout(parse_module(ADD_ARGS))
    bufs = layout.by_key()
    assert [b.key for b in layout.buffers] == ["A", "B", "C"]
    spans = sorted((b.address, b.end) for b in bufs.values())
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))
    assert all(b.address % 64 == 0 for b in bufs.values())
    assert bufs["A"].length == 8 * 16 * 2  # bytes, by default
    assert kernel_layout(parse_module(ADD_ARGS), unit="element").by_key()["A"].length == 8 * 16


def test_make_inputs_is_seeded():
    m = parse_module(ADD_ARGS)
    a, b, c = make_inputs(m, 1), make_inputs(m, 1), make_inputs(m, 2)
    np.testing.assert_array_equal(a["A"], b["A"])
    assert not np.array_equal(a["A"], c["A"])


def test_element_addressing_gives_the_same_result():
    m = parse_module(ADD_ARGS)
    inputs = make_inputs(m, seed=5, unit="element")
    out = run_kernel(m, inputs, unit="element")
    np.testing.assert_array_equal(out["C"], inputs["A"] + inputs["B"])


CONST_ADDR = kernel(
    "",
    "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%a0 = arith.constant 1000 : index",
            "%b0 = arith.constant 2048 : index",
            "%id = ktdp.get_compute_tile_id : index",
            view("va", "a0", (4, 6), (6, 1), elt="f32"),
            view("vb", "b0", (4, 6), (6, 1), elt="f32"),
            tile("ta", "va", (4, 6), ["%id", "%c0"], (1, 6), elt="f32"),
            tile("tb", "vb", (4, 6), ["%id", "%c0"], (1, 6), elt="f32"),
            "%a = ktdp.load %ta : <1x6xindex> -> tensor<1x6xf32>",
            "%e = tensor.empty() : tensor<1x6xf32>",
            "%x = linalg.exp ins(%a : tensor<1x6xf32>) outs(%e : tensor<1x6xf32>) -> tensor<1x6xf32>",
            "ktdp.store %x, %tb : tensor<1x6xf32>, <1x6xindex>",
        ]
    ),
    grid=(4,),
)


def test_constant_addresses_are_kept_and_keyed_by_address():
    m = parse_module(CONST_ADDR)
    layout = kernel_layout(m)
    assert {b.key: (b.address, b.length) for b in layout.buffers} == {"@1000": (1000, 96), "@2048": (2048, 96)}
    inputs = make_inputs(m, seed=0)
    out = run_kernel(m, inputs)
    np.testing.assert_allclose(out["@2048"], np.exp(inputs["@1000"].astype(np.float64)).astype(np.float32), rtol=1e-6)


def test_buffers_that_overlap_in_the_address_unit_merge():
    # 1000 + 24 f32 elements overlaps 1024 when addresses are bytes, not when they are elements
    m = parse_module(CONST_ADDR.replace("constant 2048 : index", "constant 1024 : index"))
    assert [(b.key, b.length) for b in kernel_layout(m).buffers] == [("@1000", 120)]
    assert [b.key for b in kernel_layout(m, unit="element").buffers] == ["@1000", "@1024"]


def test_unknown_input_key_is_an_api_error():
    m = parse_module(ADD_ARGS)
    with pytest.raises(ValueError, match="neither buffers nor scalar"):
        run_kernel(m, {"Z": np.zeros(3)})
    with pytest.raises(ValueError, match="elements"):
        run_kernel(m, {"A": np.zeros(3)})


# ---------------------------------------------------------------------------------------
# access tiles: sets and orders
# ---------------------------------------------------------------------------------------


def copy_kernel(src_tile: str, dst_tile: str, tshape, src_view=(6, 4), dst_view=(6, 4), dst_strides=None) -> str:
    ts = "x".join(str(s) for s in tshape)
    return kernel(
        "%X: index, %Y: index",
        "\n".join(
            [
                index_constants(0, 1, indent=""),
                view("vx", "X", src_view, (src_view[1], 1)),
                view("vy", "Y", dst_view, dst_strides or (dst_view[1], 1)),
                src_tile,
                dst_tile,
                f"%d = ktdp.load %tx : <{ts}xindex> -> tensor<{ts}xf16>",
                f"ktdp.store %d, %ty : tensor<{ts}xf16>, <{ts}xindex>",
            ]
        ),
    )


def test_transposed_access_tile_order():
    order = "affine_map<(d0, d1) -> (d1, d0)>"
    src = tile("tx", "vx", (6, 4), ["%c0", "%c0"], (4, 6), tset=box(6, 4), order=order)
    dst = tile("ty", "vy", (4, 6), ["%c0", "%c0"], (4, 6))
    m = parse_module(copy_kernel(src, dst, (4, 6), dst_view=(4, 6)))
    inputs = make_inputs(m, seed=1)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"].T)


def test_access_tile_anchor_and_set_offsets():
    # rows 1..3, columns 2..3 of X, anchored at (1, 0) with a set starting at column 2
    tset = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 - 2 >= 0, -d1 + 3 >= 0)>"
    src = tile("tx", "vx", (6, 4), ["%c1", "%c0"], (3, 2), tset=tset)
    dst = tile("ty", "vy", (3, 2), ["%c0", "%c0"], (3, 2))
    m = parse_module(copy_kernel(src, dst, (3, 2), dst_view=(3, 2)))
    inputs = make_inputs(m, seed=2)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][1:4, 2:4])


def test_triangular_set_gives_a_masked_tile():
    tri = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>"
    src = tile("tx", "vx", (4, 4), ["%c0", "%c0"], (4, 4), tset=tri)
    dst = tile("ty", "vy", (4, 4), ["%c0", "%c0"], (4, 4), tset=tri)
    m = parse_module(copy_kernel(src, dst, (4, 4), src_view=(4, 4), dst_view=(4, 4)))
    inputs = make_inputs(m, seed=4)
    inputs["Y"] = np.full((4, 4), 7, np.float16)
    out = run_kernel(m, inputs)
    expect = np.where(np.tri(4, dtype=bool), inputs["X"], np.float16(7))
    np.testing.assert_array_equal(out["Y"], expect)


def test_strided_set_packs_its_points_in_order():
    # every other column of a 2x8 view, packed into a 2x4 tile
    evens = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d1 mod 2 == 0)>"
    src = tile("tx", "vx", (2, 8), ["%c0", "%c0"], (2, 4), tset=evens)
    dst = tile("ty", "vy", (2, 4), ["%c0", "%c0"], (2, 4))
    m = parse_module(copy_kernel(src, dst, (2, 4), src_view=(2, 8), dst_view=(2, 4)))
    inputs = make_inputs(m, seed=6)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][:, ::2])


def test_strided_view_column_major():
    # Y is viewed column-major: element (i, j) at i + 6 * j
    src = tile("tx", "vx", (6, 4), ["%c0", "%c0"], (6, 4))
    dst = tile("ty", "vy", (6, 4), ["%c0", "%c0"], (6, 4))
    m = parse_module(copy_kernel(src, dst, (6, 4), dst_strides=(1, 6)))
    inputs = make_inputs(m, seed=7)
    out = run_kernel(m, inputs)
    # Y's buffer is 24 flat slots holding X in column-major order
    np.testing.assert_array_equal(out["Y"].reshape(-1), inputs["X"].T.reshape(-1))


def test_symbolic_tile_set_and_dynamic_view_size():
    k = kernel(
        "%X: index, %Y: index, %n: index",
        "\n".join(
            [
                "%c0 = arith.constant 0 : index",
                "%vx = ktdp.construct_memory_view %X, sizes: [%n], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?xf32>",
                "%vy = ktdp.construct_memory_view %Y, sizes: [%n], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?xf32>",
                "%tx = ktdp.construct_access_tile %vx[%c0] symbols(%n) {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>} : memref<?xf32> -> !ktdp.access_tile<?xindex>",
                "%ty = ktdp.construct_access_tile %vy[%c0] symbols(%n) {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>} : memref<?xf32> -> !ktdp.access_tile<?xindex>",
                "%d = ktdp.load %tx : <?xindex> -> tensor<?xf32>",
                "%r = math.sqrt %d : tensor<?xf32>",
                "ktdp.store %r, %ty : tensor<?xf32>, <?xindex>",
            ]
        ),
    )
    m = parse_module(k)
    inputs = make_inputs(m, seed=0, scalars={"n": 10}, low=0.0, high=4.0)
    assert inputs["X"].shape == (10,) and int(inputs["n"]) == 10
    out = run_kernel(m, inputs)
    np.testing.assert_allclose(out["Y"], np.sqrt(inputs["X"].astype(np.float64)).astype(np.float32), rtol=1e-7)


# ---------------------------------------------------------------------------------------
# scratchpads, 2-D grids, races, errors
# ---------------------------------------------------------------------------------------

LOCAL = "#ktdp.memory_space<ct_local>"


def test_scratchpad_round_trip_and_2d_grid():
    body = "\n".join(
        [
            index_constants(0, 2, indent=""),
            "%id:2 = ktdp.get_compute_tile_id : index, index",
            "%r = arith.muli %id#0, %c2 : index",
            "%col = arith.muli %id#1, %c2 : index",
            view("va", "A", (4, 6), (6, 1)),
            view("vc", "C", (4, 6), (6, 1)),
            view("vl", "c0", (2, 2), (2, 1), space=LOCAL),
            tile("ta", "va", (4, 6), ["%r", "%col"], (2, 2)),
            tile("tl", "vl", (2, 2), ["%c0", "%c0"], (2, 2)),
            tile("tc", "vc", (4, 6), ["%r", "%col"], (2, 2)),
            "%a = ktdp.load %ta : <2x2xindex> -> tensor<2x2xf16>",
            "%n = arith.negf %a : tensor<2x2xf16>",
            "ktdp.store %n, %tl : tensor<2x2xf16>, <2x2xindex>",
            "%back = ktdp.load %tl : <2x2xindex> -> tensor<2x2xf16>",
            "ktdp.store %back, %tc : tensor<2x2xf16>, <2x2xindex>",
        ]
    )
    m, inputs = kernel_with_inputs("%A: index, %C: index", body, grid=(2, 3), seed=10)
    result = run(m, inputs)
    np.testing.assert_array_equal(result.outputs["C"], -inputs["A"])
    assert sorted(result.scratchpads) == list(range(6))
    # tile (1, 2) is tile 5 row-major; its scratchpad holds -A[2:4, 4:6]
    np.testing.assert_array_equal(
        result.scratchpads[5].fetch(0, (2, 2), result.layout.buffers[0].element), -inputs["A"][2:4, 4:6]
    )


def test_tile_id_rank_must_match_grid():
    body = "%id = ktdp.get_compute_tile_id : index"
    m = parse_module(kernel("", body, grid=(2, 2)))
    with pytest.raises(DiagnosticError, match="grid"):
        run_kernel(m, {})


def test_overlapping_stores_from_two_tiles_are_a_race():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            view("vc", "C", (2, 4), (4, 1)),
            tile("tc", "vc", (2, 4), ["%c0", "%c0"], (1, 4)),
            # each tile stores its own id: the final value depends on the order
            "%id = ktdp.get_compute_tile_id : index",
            "%i = arith.index_cast %id : index to i64",
            "%f = arith.sitofp %i : i64 to f16",
            "%z = tensor.splat %f : tensor<1x4xf16>",
            "ktdp.store %z, %tc : tensor<1x4xf16>, <1x4xindex>",
        ]
    )
    m = parse_module(kernel("%C: index", body, grid=(2,)), name="race.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {})
    diag = exc.value.diagnostic
    assert "race" in diag.message and diag.file == "race.mlir" and diag.line is not None
    run_kernel(m, {}, check_races=False)  # the same kernel runs when races are not checked


def test_access_outside_a_view_is_a_located_error_or_masked():
    body = "\n".join(
        [
            index_constants(0, 3, indent=""),
            view("va", "A", (4, 4), (4, 1)),
            view("vc", "C", (2, 4), (4, 1)),
            tile("ta", "va", (4, 4), ["%c3", "%c0"], (2, 4)),
            tile("tc", "vc", (2, 4), ["%c0", "%c0"], (2, 4)),
            "%a = ktdp.load %ta : <2x4xindex> -> tensor<2x4xf16>",
            "ktdp.store %a, %tc : tensor<2x4xf16>, <2x4xindex>",
        ]
    )
    text = kernel("%A: index, %C: index", body)
    m = parse_module(text, name="oob.mlir")
    inputs = make_inputs(m, seed=11)
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, inputs, out_of_bounds="error")
    diag = exc.value.diagnostic
    assert "outside" in diag.message
    load_line = next(i for i, line in enumerate(text.splitlines(), 1) if "ktdp.load" in line)
    assert (diag.file, diag.line) == ("oob.mlir", load_line)
    out = run_kernel(m, inputs, out_of_bounds="mask")
    np.testing.assert_array_equal(out["C"][0], inputs["A"][3])
    np.testing.assert_array_equal(out["C"][1], np.zeros(4, np.float16))


def test_unsupported_op_is_a_located_error():
    text = """
    func.func @k() attributes {grid = [1]} {
      %c = arith.constant 1 : i32
      %x = math.ctlz %c : i32
      return
    }
    """
    m = parse_module(text, name="unsup.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {})
    assert "does not support 'math.ctlz'" in exc.value.diagnostic.message
    assert exc.value.diagnostic.line == 4


def test_unregistered_op_is_a_located_error():
    from dfsched.compat import LocatingParser
    from dfsched.dialects import make_context

    text = 'func.func @k() attributes {grid = [1]} {\n  "foo.bar"() : () -> ()\n  return\n}\n'
    m = LocatingParser(make_context(allow_unregistered=True), text, "u.mlir").parse_module()
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {})
    assert "'foo.bar'" in exc.value.diagnostic.message and exc.value.diagnostic.line == 2


def test_division_by_zero_is_a_located_error():
    src = "func.func @d(%a: index) -> index {\n  %z = arith.constant 0 : index\n  %q = arith.divsi %a, %z : index\n  return %q : index\n}\n"
    with pytest.raises(DiagnosticError, match="division by zero"):
        call_function(parse_module(src), "d", 3)


# ---------------------------------------------------------------------------------------
# distributed and indirect access
# ---------------------------------------------------------------------------------------


def test_distributed_view_routes_coordinates_to_parts():
    left = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2 >= 0)>"
    right = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 3 >= 0, -d1 + 5 >= 0)>"
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            view("v0", "P", (4, 3), (3, 1), cset=left),
            view("v1", "Q", (4, 3), (3, 1), cset=right),
            "%d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<4x3xf16>, memref<4x3xf16>) : memref<4x6xf16>",
            view("vy", "Y", (4, 6), (6, 1)),
            tile("td", "d", (4, 6), ["%c0", "%c0"], (4, 6)),
            tile("ty", "vy", (4, 6), ["%c0", "%c0"], (4, 6)),
            "%x = ktdp.load %td : <4x6xindex> -> tensor<4x6xf16>",
            "ktdp.store %x, %ty : tensor<4x6xf16>, <4x6xindex>",
        ]
    )
    m, inputs = kernel_with_inputs("%P: index, %Q: index, %Y: index", body, seed=12)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], np.concatenate([inputs["P"], inputs["Q"]], axis=1))


def test_indirect_access_tile_gathers_rows():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            view("vx", "X", (8, 4), (4, 1)),
            view("vi", "I", (3,), (1,), elt="i32"),
            view("vy", "Y", (3, 4), (4, 1)),
            "%t = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %vx[ind(%vi[%m]), (%k)] "
            "{variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = "
            + box(3, 4)
            + "} : memref<8x4xf16>, memref<3xi32> -> !ktdp.access_tile<3x4xindex>",
            tile("ty", "vy", (3, 4), ["%c0", "%c0"], (3, 4)),
            "%x = ktdp.load %t : <3x4xindex> -> tensor<3x4xf16>",
            "ktdp.store %x, %ty : tensor<3x4xf16>, <3x4xindex>",
        ]
    )
    m, inputs = kernel_with_inputs("%X: index, %I: index, %Y: index", body, seed=13)
    inputs["I"] = np.array([5, 0, 7], np.int32)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][[5, 0, 7]])
