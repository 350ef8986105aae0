"""DataflowIR dialects (dataflow, agen, vectorchain, uniform, symbol) and the shared subscript helper.

The lit tests cover the textual syntax; these tests cover the Python side: subscript parsing
and MLIR-style expression building/printing, building ops from code, and that malformed input
always ends in a ParseError / located diagnostic, never an internal exception.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (AffineMapAttr, AffineSetAttr, IndexType, IntegerAttr, MemRefType, ModuleOp,
                                   VectorType, f16, i32)
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineMap, AffineSet
from xdsl.utils.exceptions import ParseError, VerifyException

from dfsched.compat import LocatingParser, verify_module
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import make_context
from dfsched.dialects import affine_subscripts as sub
from dfsched.dialects.agen import VectorLoadOp
from dfsched.dialects.dataflow import (CustomMXType, CustomMXFloatType, GetLogicalMemoryViewOp, GetUnitOp,
                                       ProgramUnitOp, ReturnOp, SendOp, mx_type)
from dfsched.dialects.symbol import CreateIdOp, CreateSymbolOp
from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.dialects.vectorchain import ConstantBitstreamOp, ShuffleOp
from dfsched.printing import module_to_string


def format_subscripts(affine_map: AffineMap | AffineMapAttr, names: list[str]) -> str:
    """The subscript text `print_subscripts` writes for `affine_map` over operands named `names`."""
    amap = affine_map.data if isinstance(affine_map, AffineMapAttr) else affine_map
    return "[" + ", ".join(sub.format_affine_expr(r, lambda i: names[i], lambda i: f"symbol({names[amap.num_dims + i]})")
                           for r in amap.results) + "]"

d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
s0 = AffineExpr.symbol(0)


def c(v: int) -> AffineExpr:
    return AffineExpr.constant(v)


def parse(text: str) -> ModuleOp:
    return LocatingParser(make_context(), text, "test.mlir").parse_module()


def parse_subscripts(text: str) -> tuple[AffineMap, list[str]]:
    parsed = sub.parse_subscripts(LocatingParser(make_context(), text, "sub.mlir"))
    return parsed.map, [o.span.text for o in parsed.operands]


# ---------------------------------------------------------------------------
# affine_subscripts
# ---------------------------------------------------------------------------


class TestSubscriptParsing:
    def test_distinct_names_become_dims_in_order_of_appearance(self):
        amap, names = parse_subscripts("[%j + 3, %i * 2, %j]")
        assert names == ["%j", "%i"]
        assert amap.num_dims == 2 and amap.num_symbols == 0
        assert format_subscripts(amap, names) == "[%j + 3, %i * 2, %j]"

    def test_repeated_name_is_one_operand(self):
        amap, names = parse_subscripts("[%c0, %c0]")
        assert names == ["%c0"]
        assert amap == AffineMap(1, 0, (d0, d0))

    def test_symbols_follow_dims(self):
        amap, names = parse_subscripts("[symbol(%s) + %i, 0]")
        assert names == ["%i", "%s"]
        assert (amap.num_dims, amap.num_symbols) == (1, 1)
        assert format_subscripts(amap, names) == "[%i + symbol(%s), 0]"

    def test_tuple_results_are_distinct_values(self):
        amap, names = parse_subscripts("[%r#0, %r#1, %r#0]")
        assert amap.num_dims == 2

    @pytest.mark.parametrize(
        "text, printed",
        [
            ("[3 + %i]", "[%i + 3]"),
            ("[%i - 3]", "[%i - 3]"),
            ("[2 * %i - %j]", "[%i * 2 - %j]"),
            ("[-%i + 63]", "[-%i + 63]"),
            ("[%i - (%j + 1)]", "[%i - (%j + 1)]"),
            ("[%i - %j * 3]", "[%i - %j * 3]"),
            ("[(%i + 1) floordiv 2]", "[(%i + 1) floordiv 2]"),
            ("[%i * 4 floordiv 2]", "[%i * 2]"),
            ("[%i + 2 + %j]", "[%i + %j + 2]"),
            ("[%i mod 1]", "[0]"),
            ("[(%i * 8 + %j) mod 4]", "[%j mod 4]"),
            ("[%i - %i]", "[0]"),
            ("[%i + %i]", "[%i * 2]"),
            ("[-(%i + %j)]", "[-(%i + %j)]"),
            ("[%i ceildiv 1, 7 floordiv 2, -7 floordiv 2, -7 mod 3]", "[%i, 3, -4, 2]"),
        ],
    )
    def test_mlir_simplification_and_printing(self, text, printed):
        amap, names = parse_subscripts(text)
        assert format_subscripts(amap, names) == printed

    @pytest.mark.parametrize(
        "text, message",
        [
            ("[%i * %j]", "at least one of the multiply operands has to be either a constant or symbolic"),
            ("[%i floordiv %j]", "right operand of floordiv has to be either a constant or symbolic"),
            ("[d0]", "use of undeclared identifier 'd0'"),
            ("[%i +]", "expected affine expression"),
            ("[* 2]", "missing left operand of binary operator"),
            ("[symbol(3)]", "expected SSA operand in 'symbol(...)'"),
            ("[(%i]", "to close the affine expression"),
        ],
    )
    def test_syntax_errors_are_parse_errors(self, text, message):
        with pytest.raises(ParseError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_subscripts(text)

    def test_brackets_optional_form(self):
        parser = LocatingParser(make_context(), "%a, %b + 1]", "x.mlir")
        parsed = sub.parse_subscripts(parser, brackets=False)
        assert len(parsed.map.results) == 2
        assert sub.parse_optional_subscripts(LocatingParser(make_context(), "{", "x")) is None

    def test_operand_count_check(self):
        sub.check_subscript_operands(AffineMap(1, 1, (d0 + s0,)), 2)
        with pytest.raises(VerifyException, match="expected 2 src map operands, but got 1"):
            sub.check_subscript_operands(AffineMapAttr(AffineMap(1, 1, (d0 + s0,))), 1, "src map")


class TestAffineExprFormatting:
    @pytest.mark.parametrize(
        "expr, text",
        [
            (sub.affine_add(sub.affine_mul(d0, c(64)), d1), "d0 * 64 + d1"),
            (sub.affine_add(sub.affine_mul(d0, c(64)), c(-3)), "d0 * 64 - 3"),
            (sub.affine_add(sub.affine_neg(d0), c(63)), "-d0 + 63"),
            (sub.affine_floordiv(sub.affine_add(d0, c(1)), c(2)), "(d0 + 1) floordiv 2"),
            (sub.affine_mul(sub.affine_add(d0, d1), c(-1)), "-(d0 + d1)"),
            (sub.affine_sub(d0, sub.affine_mul(d1, c(5))), "d0 - d1 * 5"),
            (sub.affine_mul(d0, s0), "d0 * s0"),
            (sub.affine_add(c(2), c(3)), "5"),
            (sub.affine_mul(c(0), d0), "0"),
        ],
    )
    def test_mlir_spelling(self, expr, text):
        assert sub.format_affine_expr(expr) == text

    def test_custom_names(self):
        expr = sub.affine_add(d0, s0)
        assert sub.format_affine_expr(expr, lambda i: f"%i{i}", lambda i: f"symbol(%s{i})") == "%i0 + symbol(%s0)"

    def test_mod_of_floordiv_pattern(self):
        # e + (e floordiv 4) * -4 is e mod 4, as MLIR folds it.
        expr = sub.affine_add(d0, sub.affine_mul(sub.affine_floordiv(d0, c(4)), c(-4)))
        assert sub.format_affine_expr(expr) == "d0 mod 4"

    def test_largest_known_divisor(self):
        assert sub.largest_known_divisor(sub.affine_mul(d0, c(12))) == 12
        assert sub.largest_known_divisor(sub.affine_add(sub.affine_mul(d0, c(12)), c(8))) == 4


# ---------------------------------------------------------------------------
# Building ops from Python
# ---------------------------------------------------------------------------


def _func_module(ops) -> ModuleOp:
    return ModuleOp(list(ops))


class TestBuilders:
    def test_program_unit_with_peer_map(self):
        u0 = GetUnitOp("C0-sfu", "sfu", attributes={"core": IntegerAttr(0, i32)})
        u1 = GetUnitOp("C1-sfu", "sfu", attributes={"core": IntegerAttr(1, i32)})
        body = Region(Block(arg_types=[IndexType()]))
        me = body.block.args[0]
        peers = DefImmutableMappingOp([u0.units[0], u1.units[0]], [u1.units[0], u0.units[0]])
        peer = QueryMapOp(peers.result, me, IndexType())
        body.block.add_ops([peers, peer])
        program = ProgramUnitOp([u0.units[0], u1.units[0]], body)
        assert isinstance(body.block.last_op, ReturnOp)
        assert program.iter_arg is me
        assert peers.lookup(u1.units[0]) is u0.units[0]
        module = _func_module([u0, u1, program])
        verify_module(module)
        text = module_to_string(module)
        assert "dataflow.program_unit iter_arg : %arg0 -> (%0, %1) : {" in text
        assert "uniform.def_immutable_mapping([%0 -> %1], [%1 -> %0]):index" in text
        assert "uniform.query_map(map:%2, key:%arg0) : index" in text

    def test_memory_view_and_load(self):
        c0 = ConstantOp.from_int_and_width(0, IndexType())
        unit = GetUnitOp("hbm", "hbm")
        sym = CreateSymbolOp(-3)
        view = GetLogicalMemoryViewOp(unit.units[0], sym.result,
                                      AffineMapAttr(AffineMap(2, 0, (sub.affine_add(sub.affine_mul(d0, c(64)), d1),))),
                                      MemRefType(f16, [4, 64]))
        load_set = AffineSetAttr(AffineSet(1, 0, (AffineConstraintExpr(AffineConstraintKind.ge, d0, c(0)),)))
        load = VectorLoadOp(VectorType(f16, [64]), view.data, AffineMap(1, 0, (sub.affine_add(d0, c(1)), c(0))),
                            [c0.result], load_set, AffineMapAttr(AffineMap.identity(1)))
        module = _func_module([c0, unit, sym, view, load])
        verify_module(module)
        assert sym.symbol_id == -3
        text = module_to_string(module)
        assert "symbol.create_symbol {SymbolId = -3 : i64} : index" in text
        assert "agen.vector_load %2[%c0 + 1, 0] {load_order = #map1, load_set = #set} : memref<4x64xf16>, vector<64xf16>" in text

    def test_load_with_too_few_operands_is_rejected(self):
        mem = GetLogicalMemoryViewOp(GetUnitOp("l1", "l1").units[0], GetUnitOp("a", "b").units[0],
                                     AffineMapAttr(AffineMap.identity(1)), MemRefType(f16, [64]))
        load = VectorLoadOp(VectorType(f16, [64]), mem.data, AffineMap(2, 0, (d0 + d1,)), [mem.from_unit],
                            AffineSetAttr(AffineSet(1, 0, ())), AffineMapAttr(AffineMap.identity(1)))
        with pytest.raises(VerifyException, match="expected 2 map operands, but got 1"):
            load.verify()

    def test_shuffle_splat_and_bitstream(self):
        scalar = ConstantBitstreamOp([0x3C00], VectorType(f16, [1]))
        splat = ShuffleOp(scalar.result, [0], 64, VectorType(f16, [64]))
        module = _func_module([scalar, splat])
        verify_module(module)
        text = module_to_string(module)
        assert "vectorchain.constant_bitstream {value = [0x3c00]} : vector<1xf16>" in text
        assert ("vectorchain.shuffle input(%0) {indices = [0 : i32], repetition = 64 : i32} : "
                "vector<1xf16>, vector<64xf16>") in text

    def test_shuffle_bounds(self):
        scalar = ConstantBitstreamOp([0, 0], VectorType(f16, [2]))
        with pytest.raises(VerifyException, match="out of bounds indices element"):
            ShuffleOp(scalar.result, [2], 32, VectorType(f16, [32])).verify()

    def test_create_id_is_signed(self):
        unit = GetUnitOp("x", "y")
        decl = CreateIdOp(unit.units[0], -1)
        decl.verify()
        assert "si64" in str(decl.symbol_id.type)

    def test_send_takes_vectors(self):
        unit = GetUnitOp("x", "y")
        send = SendOp.create(operands=[unit.units[0], unit.units[0]])
        with pytest.raises(VerifyException):
            send.verify()


class TestMXTypes:
    def test_width_spelling_normalises_to_short_spelling(self):
        assert mx_type("mxfp", 4) == mx_type("mxfp", 4)
        assert isinstance(mx_type("mxfp", 8), CustomMXType)
        assert isinstance(mx_type("mxfp", 6), CustomMXFloatType)
        module = parse("func.func @f(%a: !dataflow.mxfp<4>, %b: !dataflow.custom<mxfp4>, %c: !dataflow.mxint<4>)")
        func = module.body.block.first_op
        a, b, c_ = func.body.blocks.first.args if func.body.blocks else func.function_type.inputs.data
        assert a == b == mx_type("mxfp", 4)
        assert c_ == mx_type("mxint", 4)


# ---------------------------------------------------------------------------
# Bad input never escapes as an internal error
# ---------------------------------------------------------------------------

MALFORMED = [
    "%u = dataflow.get_unit {name = 1, type = \"t\"} : index",
    "%u = dataflow.get_unit : index",
    "dataflow.program_unit iter_arg %a -> () : {\n}",
    "dataflow.program_unit iter_arg : %a -> (%b) : {\n}",
    "%c = arith.constant 0 : index\ndataflow.program_unit %c : {\n}, {\n}",
    "%c = arith.constant 0 : index\n%v = dataflow.get_paged_logical_memory_view %c, %c {segments = page0: (idx_set = 3, start_addr = %c)} : index, index, memref<4xf16>",
    "%c = arith.constant 0 : index\n%m = uniform.def_immutable_mapping([%c -> ]):index",
    "%c = arith.constant 0 : index\n%m = uniform.def_immutable_mapping([%c -> %c]",
    "%c = arith.constant 0 : index\n%q = uniform.query_map(map:%c key:%c) : index",
    "%c = arith.constant 0 : index\nuniform.uniformize_regions -> index {\n(%a -> %c) {\n}\n}",
    "%c = arith.constant 0 : index\n%m = symbol.symbol_immutable_mapping ([%c %c]) : index",
    "%v = vectorchain.constant_bitstream {value = [0x1]} : i32",
    "%v = vectorchain.constant_bitstream {value = 3} : vector<1xf16>",
    "%c = arith.constant dense<0.0> : vector<4xf16>\n%v = vectorchain.shuffle input(%c), bogus(%c) {indices = [0 : i32], repetition = 4 : i32} : vector<4xf16>, vector<4xf16>",
    "%c = arith.constant dense<0.0> : vector<4xf16>\n%v = vectorchain.shuffle input(%c) {repetition = 4 : i32} : vector<4xf16>, vector<4xf16>",
    "%c = arith.constant 0 : index\n%m = memref.alloc() : memref<4xf16>\n%v = agen.vector_load %m[%c {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<4xf16>, vector<4xf16>",
    "%c = arith.constant 0 : index\n%m = memref.alloc() : memref<4xf16>\nagen.composite_load_and_store src:%m[%c] dst:%m[%c] time_symbols(), load_iv(%iv) {} {\n} : memref<4xf16>, memref<4xf16>",
    "%c = arith.constant 0 : index\n%m = agen.set_transfer_mask_state mask_value(%c) {num_slices = 8 : i32, slice_mask_map = \"(A)\", mask = \"(unmasked = 1, masked = 1)\"} : index, vector<4xf16>",
    "%c = arith.constant 0 : index\n%m = agen.set_transfer_mask_state mask_value(%c) {num_slices = 8 : i32, slice_mask_map = \"(A)\", maskA = 3} : index, vector<4xf16>",
    "%c = arith.constant 0 : index\n%m = memref.alloc() : memref<4xf16>\n%v = agen.symbolic_vector_load %m[indices:(%c), strides:()] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<4xf16>, vector<4xf16>",
    "func.func @f(%a: !dataflow.custom_vector<?xf16>)",
    "func.func @f(%a: !dataflow.mxfp<x>)",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_input_is_reported_not_crashed(text):
    with pytest.raises((ParseError, VerifyException, DiagnosticError)):
        module = parse(text)
        verify_module(module)


def test_get_unit_core_and_corelet():
    module = parse(
        "%a = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = \"C0-x\", type = \"x\"} : index\n"
        "%b = dataflow.get_unit {name = \"C1-x\", type = \"x\"} : index\n")
    verify_module(module)
    a, b = [op for op in module.walk() if isinstance(op, GetUnitOp)]
    assert (a.core, a.corelet, b.core, b.corelet) == (0, 1, None, None)


def test_optional_subscripts_forms():
    ctx = make_context()
    empty = sub.parse_optional_subscripts(LocatingParser(ctx, "[]", "x"))
    assert empty is not None and empty.map == AffineMap(0, 0, ()) and empty.operands == []
    two = sub.parse_optional_subscripts(LocatingParser(ctx, "[%a, 4]", "x"))
    assert two is not None and format_subscripts(two.map, ["%a"]) == "[%a, 4]"
    with pytest.raises(ParseError, match="to close the affine subscript"):
        sub.parse_optional_subscripts(LocatingParser(ctx, "[%a, 4", "x"))
