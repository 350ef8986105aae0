"""ktdp, spyreop and linalg from Python: builders, rules no text can break, and printing."""

from io import StringIO

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IndexType, MemRefType, ModuleOp, TensorType, f16, f32, i32
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineMap, AffineSet
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.affine_subscripts import format_affine_expr
from dfsched.compat import LocatingParser, verify_module
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import ktdp, ktdp_inter_tile, linalg_ext, make_context, spyreop
from dfsched.dialects.ktdp import (AccessTileType, ConstructAccessTileOp, ConstructIndirectAccessTileOp,
                                   ConstructMemoryViewOp, GetComputeTileIdOp, LoadOp, MemorySpaceAttr,
                                   RuntimeArgExtractKind, RuntimeArgExtractOp, RuntimeArgType, StoreOp, TileFutureType)
from dfsched.printing import print_module
from unit_helpers import assert_contains

d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
g = AffineExpr.symbol(0)


def box(*extents: int) -> AffineSet:
    """{(d...) | 0 <= d_i < extent_i}"""
    constraints = []
    for i, n in enumerate(extents):
        d = AffineExpr.dimension(i)
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d, AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, -d + (n - 1), AffineExpr.constant(0)))
    return AffineSet(len(extents), 0, tuple(constraints))


def parse(text: str) -> ModuleOp:
    module = LocatingParser(make_context(), text, "test.mlir").parse_module()
    verify_module(module)
    return module


def printed(module: ModuleOp, generic: bool = False) -> str:
    stream = StringIO()
    print_module(module, stream, generic=generic)
    return stream.getvalue()


def in_function(*arg_types, build) -> ModuleOp:
    """A module holding `func.func @f(args)` whose body `build(block)` fills."""
    block = Block(arg_types=list(arg_types))
    build(block)
    block.add_op(ReturnOp())
    func = FuncOp("f", (list(arg_types), []), Region(block))
    return ModuleOp([func])


# ---------------------------------------------------------------------------
# Types and attributes: the rules the parser enforces also hold for built values
# ---------------------------------------------------------------------------


def test_access_tile_rules_hold_for_built_types():
    assert AccessTileType([3, 64]).get_shape() == (3, 64)
    assert AccessTileType([ktdp.DYNAMIC, 64]).get_num_dims() == 2
    with pytest.raises(VerifyException, match="tile dimension size must be dynamic or >= 0"):
        AccessTileType([-5, 64])
    with pytest.raises(VerifyException, match="tile element type must be 'index', but got: f16"):
        AccessTileType([4], f16)


def test_runtime_arg_rules_hold_for_built_types():
    t = RuntimeArgType(IndexType(), granularity=3, upperbound=300)
    assert (t.get_granularity(), t.get_upperbound()) == (3, 300)
    assert RuntimeArgType(i32).get_granularity() is None
    with pytest.raises(VerifyException, match="granularity must be positive, but got: 0"):
        RuntimeArgType(IndexType(), granularity=0)
    with pytest.raises(VerifyException, match="underlying type must be a builtin type"):
        RuntimeArgType(TensorType(f16, [4]))


def test_tile_future_and_memory_space_rules_hold_for_built_values():
    groups = AffineSet(1, 0, (AffineConstraintExpr(AffineConstraintKind.eq, d0, AffineExpr.constant(0)),))
    future = TileFutureType([TensorType(f16, [1, 64])], groups)
    assert future.get_partial_types() == (TensorType(f16, [1, 64]),)
    with pytest.raises(VerifyException, match="at least one partial type"):
        TileFutureType([], groups)
    assert MemorySpaceAttr("ct_local", 3).ct_id.data == 3
    assert MemorySpaceAttr("global").is_global
    with pytest.raises(VerifyException, match="ct_id is only valid for ct_local"):
        MemorySpaceAttr("global", 3)
    with pytest.raises(VerifyException, match="must be 'global' or 'ct_local'"):
        MemorySpaceAttr("HBM")


# ---------------------------------------------------------------------------
# Builders produce IR that verifies and prints in the upstream syntax
# ---------------------------------------------------------------------------


def build_add_row(block: Block) -> None:
    """view -> access tile at [tile id, 0] -> load -> store, as a kernel would."""
    (address,) = block.args
    tile = GetComputeTileIdOp()
    zero = arith.ConstantOp.from_int_and_width(0, IndexType())
    view = ConstructMemoryViewOp(
        address, [2, 64], [64, 1], MemRefType(f16, [2, 64]), MemorySpaceAttr("global"), box(2, 64)
    )
    access = ConstructAccessTileOp(
        AccessTileType([1, 64]),
        view.result,
        AffineMap(2, 0, (d0, d1)),
        [tile.ids[0], zero.result],
        box(1, 64),
        AffineMap.identity(2),
    )
    load = LoadOp(access.result, TensorType(f16, [1, 64]))
    store = StoreOp(load.result, access.result)
    for op in (tile, zero, view, access, load, store):
        block.add_op(op)


def test_builders_give_verified_ir_in_upstream_syntax():
    module = in_function(IndexType(), build=build_add_row)
    verify_module(module)
    text = printed(module)
    assert_contains(text, "ktdp.construct_memory_view %arg0, sizes: [2, 64], strides: [64, 1]",
                    "ktdp.construct_access_tile %1[%0, %c0] {access_tile_order = #map, access_tile_set = #set1}",
                    "ktdp.load %2 : <1x64xindex> -> tensor<1x64xf16>", "ktdp.store %3, %2 : tensor<1x64xf16>, <1x64xindex>")
    # What was printed reads back to the same text, in both forms.
    assert printed(parse(text)) == text
    assert printed(parse(printed(module, generic=True))) == text


def test_runtime_arg_extract_infers_its_result_type():
    arg_type = RuntimeArgType(i32, granularity=4)

    def build(block: Block) -> None:
        block.add_op(RuntimeArgExtractOp(RuntimeArgExtractKind.value, block.args[0]))
        block.add_op(RuntimeArgExtractOp(RuntimeArgExtractKind.granularity, block.args[0]))

    module = in_function(arg_type, build=build)
    verify_module(module)
    value, granularity = [op for op in module.walk() if isinstance(op, RuntimeArgExtractOp)]
    assert value.result.type == i32 and granularity.result.type == IndexType()
    assert value.get_kind() is RuntimeArgExtractKind.value


def test_indirect_access_tile_builder_makes_the_hidden_region():
    def build(block: Block) -> None:
        table, index_view, offset = block.args
        op = ConstructIndirectAccessTileOp(
            AccessTileType([16, 128]),
            table,
            [True, False],
            # dims: (offset, r, c) -- captured first, then intermediate
            [AffineMap(3, 0, (AffineExpr.dimension(1) + AffineExpr.dimension(0),)), AffineMap(3, 0, (AffineExpr.dimension(2),))],
            [index_view],
            [offset],
            box(16, 128),
            AffineMap.identity(2),
        )
        block.add_op(op)

    module = in_function(MemRefType(f16, [512, 128]), MemRefType(i32, [16]), IndexType(), build=build)
    verify_module(module)
    (op,) = [o for o in module.walk() if isinstance(o, ConstructIndirectAccessTileOp)]
    assert len(op.intermediate_variables) == 2
    assert op.subscript_kinds() == [True, False]
    assert "%arg0[ind(%arg1[%arg3 + %arg2]), (%arg4)]" in printed(module)


def test_verifier_errors_are_located_on_the_op():
    text = "\n".join(
        [
            "func.func @f(%t: !ktdp.access_tile<4x8xindex>) {",
            "  %x = ktdp.load %t : <4x8xindex> -> tensor<8x4xf16>",
            "  return",
            "}",
        ]
    )
    with pytest.raises(DiagnosticError) as caught:
        parse(text)
    diagnostic = caught.value.diagnostic
    assert diagnostic.message == "'ktdp.load' op access tile shape must match result tensor shape"
    assert (diagnostic.file, diagnostic.line) == ("test.mlir", 2)


# ---------------------------------------------------------------------------
# Affine expressions over SSA ids print as MLIR prints them (the one printer ktdp uses)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr, expected",
    [
        (d0 * 2 + 1, "%i * 2 + 1"),
        (d0 - d1, "%i - %j"),
        (-d0 + 3, "-%i + 3"),
        (d0 - d1 * 4, "%i - %j * 4"),
        ((d0 + d1) // 2, "(%i + %j) floordiv 2"),
        (d0 % 4 - 2, "%i mod 4 - 2"),
        (d0.ceil_div(8), "%i ceildiv 8"),
        (d0 * -1, "-%i"),
        (AffineExpr.constant(7), "7"),
    ],
)
def test_affine_expressions_print_as_mlir(expr, expected):
    names = ["%i", "%j"]
    assert format_affine_expr(expr, lambda i: names[i]) == expected


# ---------------------------------------------------------------------------
# Enumerating small integer sets (the producer-disjointness check)
# ---------------------------------------------------------------------------


def test_group_values_and_tiles_of_enumerate_bounded_sets():
    two_groups = AffineSet(
        1,
        0,
        (
            AffineConstraintExpr(AffineConstraintKind.ge, d0, AffineExpr.constant(0)),
            AffineConstraintExpr(AffineConstraintKind.ge, -d0 + 1, AffineExpr.constant(0)),
        ),
    )
    assert ktdp_inter_tile.group_values(two_groups) == [0, 1]
    quads = AffineSet(
        1,
        1,
        (
            AffineConstraintExpr(AffineConstraintKind.ge, d0 - g * 4, AffineExpr.constant(0)),
            AffineConstraintExpr(AffineConstraintKind.ge, -d0 + g * 4 + 3, AffineExpr.constant(0)),
        ),
    )
    assert ktdp_inter_tile.tiles_of(quads, 1) == {4, 5, 6, 7}
    evens = AffineSet(
        1,
        1,
        (
            AffineConstraintExpr(AffineConstraintKind.ge, -d0 + 7, AffineExpr.constant(0)),
            AffineConstraintExpr(AffineConstraintKind.eq, d0 % 2, AffineExpr.constant(0)),
        ),
    )
    assert ktdp_inter_tile.tiles_of(evens, 0) == {0, 2, 4, 6}
    unbounded = AffineSet(1, 0, (AffineConstraintExpr(AffineConstraintKind.ge, d0, AffineExpr.constant(0)),))
    assert ktdp_inter_tile.group_values(unbounded) is None


# ---------------------------------------------------------------------------
# spyreop
# ---------------------------------------------------------------------------


def test_fused_pairs_map_to_their_scalars_and_back():
    for scalar, fused in [
        (f16, spyreop.FP16FusedType()),
        (spyreop.DF16Type(), spyreop.DF16FusedType()),
        (f32, spyreop.FP32FusedType()),
    ]:
        assert spyreop.fused_of(scalar) == fused
        assert spyreop.scalar_of(fused) == scalar
    assert spyreop.fused_of(i32) is None


def test_spyreop_builders_verify():
    def build(block: Block) -> None:
        x, y = block.args
        block.add_op(spyreop.ExpOp(x))
        block.add_op(spyreop.RealDivOp(x, y))
        block.add_op(spyreop.CompareOp(x, y, predicate=spyreop.ComparePredicateAttr(spyreop.ComparePredicate.GREATERTHAN)))
        block.add_op(spyreop.SoftplusOp(x, beta=FloatAttr(0.5, f32), threshold=FloatAttr(20.0, f32)))
        block.add_op(spyreop.ConstantOp(FloatAttr(1.5, f16)))

    module = in_function(f16, f16, build=build)
    verify_module(module)
    text = printed(module)
    assert "spyreop.compare <greaterthan> %arg0, %arg1 : f16" in text
    assert "spyreop.softplus %arg0 beta 5.000000e-01 threshold 2.000000e+01 : f16" in text
    assert "spyreop.constant 1.500000e+00 : f16" in text


# ---------------------------------------------------------------------------
# linalg
# ---------------------------------------------------------------------------


def test_linalg_dialect_replaces_xdsl_syntax_and_adds_ops():
    names = {op.name: op for op in linalg_ext.LINALG.operations}
    for added in ("linalg.div", "linalg.div_unsigned", "linalg.reciprocal", "linalg.batch_matmul"):
        assert added in names
    assert names["linalg.add"] is linalg_ext.AddOp
    assert names["linalg.generic"] is linalg_ext.GenericOp
    assert names["linalg.reduce"] is linalg_ext.ReduceOp
    assert names["linalg.yield"] is linalg_ext.YieldOp


def test_div_builder_makes_its_body():
    t = TensorType(f16, [4])

    def build(block: Block) -> None:
        a, out = block.args
        block.add_op(linalg_ext.DivOp([a, a], [out]))

    module = in_function(t, t, build=build)
    verify_module(module)
    (div,) = [op for op in module.walk() if isinstance(op, linalg_ext.DivOp)]
    body = list(div.regions[0].blocks.first.ops)
    assert [op.name for op in body] == ["arith.divf", "linalg.yield"]
    assert "linalg.div ins(%arg0, %arg0 : tensor<4xf16>, tensor<4xf16>) outs(%arg1 : tensor<4xf16>) -> tensor<4xf16>" in printed(module)


def test_reduce_short_form_body_is_accumulator_first():
    module = parse(
        "\n".join(
            [
                "func.func @f(%a: tensor<4x8xf16>, %e: tensor<4xf16>) -> tensor<4xf16> {",
                "  %r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf16>) outs(%e : tensor<4xf16>) dimensions = [1]",
                "  return %r : tensor<4xf16>",
                "}",
            ]
        )
    )
    (reduce,) = [op for op in module.walk() if isinstance(op, linalg_ext.ReduceOp)]
    block = reduce.region.blocks.first
    add = block.first_op
    assert isinstance(add, arith.AddfOp)
    assert list(add.operands) == [block.args[1], block.args[0]]
    assert "linalg.reduce { arith.addf } ins(" in printed(module)
