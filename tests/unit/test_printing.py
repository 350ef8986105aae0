"""Unit tests of dfsched.printing: MLIR's affine syntax, float literals, names and aliases."""

from __future__ import annotations

import math

import pytest
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    StringAttr,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineSymExpr
from xdsl.irdl import IRDLOperation, irdl_op_definition, region_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from dfsched import dialects, printing
from dfsched.compat import MLIRAffineParsing
from dfsched.dialects.affine_subscripts import (affine_add, affine_ceildiv, affine_floordiv, affine_mod, affine_mul,
                                                affine_neg, affine_sub)


def _on_ints_too(op):
    """MLIR's operator `op` (affine_subscripts' builders), its operands expressions or plain integers."""
    def expr(x):
        return AffineConstantExpr(x) if isinstance(x, int) else x
    return lambda *operands: op(*map(expr, operands))


add, sub, mul, floordiv, ceildiv, mod, neg = map(_on_ints_too, (affine_add, affine_sub, affine_mul, affine_floordiv,
                                                               affine_ceildiv, affine_mod, affine_neg))
from dfsched.dialects.affine_subscripts import format_affine_expr, format_affine_map, format_affine_set
from dfsched.float_text import float_bits, format_float

d0, d1, d2 = AffineDimExpr(0), AffineDimExpr(1), AffineDimExpr(2)
s0, s1 = AffineSymExpr(0), AffineSymExpr(1)


def raw(kind: str, lhs, rhs) -> AffineBinaryOpExpr:
    """A binary node exactly as given (no simplification), to test the printer alone."""
    kinds = {"+": AffineBinaryOpKind.Add, "*": AffineBinaryOpKind.Mul, "floordiv": AffineBinaryOpKind.FloorDiv,
             "ceildiv": AffineBinaryOpKind.CeilDiv, "mod": AffineBinaryOpKind.Mod}
    wrap = lambda x: AffineConstantExpr(x) if isinstance(x, int) else x  # noqa: E731
    return AffineBinaryOpExpr(kinds[kind], wrap(lhs), wrap(rhs))


# ---------------------------------------------------------------------------
# The expression printer (MLIR's printAffineExprInternal)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr, text",
    [
        (d0, "d0"),
        (s1, "s1"),
        (AffineConstantExpr(-5), "-5"),
        (raw("+", raw("*", d0, 64), d1), "d0 * 64 + d1"),
        (raw("+", d0, 10), "d0 + 10"),
        (raw("+", d0, -10), "d0 - 10"),
        (raw("*", d0, -1), "-d0"),
        (raw("+", raw("*", d0, -1), 95), "-d0 + 95"),
        (raw("+", d0, raw("*", d1, -1)), "d0 - d1"),
        (raw("+", d0, raw("*", d1, -3)), "d0 - d1 * 3"),
        (raw("+", d0, raw("*", raw("+", d1, d2), -1)), "d0 - (d1 + d2)"),
        (raw("*", raw("+", d0, d1), -1), "-(d0 + d1)"),
        (raw("*", raw("+", d0, 1), 2), "(d0 + 1) * 2"),
        (raw("floordiv", d0, 4), "d0 floordiv 4"),
        (raw("ceildiv", d0, 4), "d0 ceildiv 4"),
        (raw("mod", d0, 2), "d0 mod 2"),
        (raw("floordiv", raw("+", d0, 1), 2), "(d0 + 1) floordiv 2"),
        (raw("*", raw("floordiv", d0, 2), 4), "(d0 floordiv 2) * 4"),
        (raw("mod", raw("*", d0, 3), 5), "(d0 * 3) mod 5"),
        (raw("+", raw("+", d0, s0), raw("mod", d1, 2)), "d0 + s0 + d1 mod 2"),
        (raw("+", d0, raw("+", d1, d2)), "d0 + d1 + d2"),
        (raw("*", d0, s0), "d0 * s0"),
        (raw("*", s0, 2), "s0 * 2"),
    ],
)
def test_expression_printer(expr, text):
    assert format_affine_expr(expr) == text


def test_expression_printer_names_operands():
    expr = raw("+", raw("*", d0, 2), s0)
    assert format_affine_expr(expr, lambda pos: f"%i{pos}", lambda pos: f"symbol(%n{pos})") == "%i0 * 2 + symbol(%n0)"


# ---------------------------------------------------------------------------
# MLIR's construction-time simplifications
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "build, text",
    [
        (lambda: mul(2, d0), "d0 * 2"),
        (lambda: add(3, d0), "d0 + 3"),
        (lambda: add(add(d0, 2), 3), "d0 + 5"),
        (lambda: add(add(d0, 2), d1), "d0 + d1 + 2"),
        (lambda: sub(95, d0), "-d0 + 95"),
        (lambda: sub(d0, 10), "d0 - 10"),
        (lambda: add(s0, d0), "d0 + s0"),
        (lambda: sub(s1, s0), "s1 - s0"),
        (lambda: add(d0, d0), "d0 * 2"),
        (lambda: sub(d0, d0), "0"),
        (lambda: mul(add(d0, 1), 2), "(d0 + 1) * 2"),
        (lambda: mul(mul(d0, 2), 3), "d0 * 6"),
        (lambda: mul(d0, 1), "d0"),
        (lambda: mul(d1, s0), "d1 * s0"),
        (lambda: neg(add(d0, d1)), "-(d0 + d1)"),
        (lambda: floordiv(mul(d0, 128), 64), "d0 * 2"),
        (lambda: floordiv(add(mul(d0, 8), d1), 4), "d0 * 2 + d1 floordiv 4"),
        (lambda: ceildiv(d0, 1), "d0"),
        (lambda: ceildiv(7, 2), "4"),
        (lambda: floordiv(-7, 2), "-4"),
        (lambda: mod(-7, 2), "1"),
        (lambda: mod(mul(d0, 128), 64), "0"),
        (lambda: mod(add(mul(d0, 4), d1), 4), "d1 mod 4"),
        (lambda: sub(d0, mul(floordiv(d0, 4), 4)), "d0 mod 4"),
        (lambda: floordiv(d0, 0), "d0 floordiv 0"),
    ],
)
def test_mlir_builders(build, text):
    assert format_affine_expr(build()) == text


# ---------------------------------------------------------------------------
# Maps and sets, from the parser
# ---------------------------------------------------------------------------


class MLIRParser(MLIRAffineParsing, Parser):
    """What compat.LocatingParser becomes with the mix-in."""


def parse_attr(text: str, mlir: bool = True):
    ctx = dialects.make_context()
    parser = (MLIRParser if mlir else Parser)(ctx, text)
    return parser.parse_attribute()


@pytest.mark.parametrize("mlir", [True, False])
@pytest.mark.parametrize(
    "source, printed",
    [
        ("affine_map<(d0, d1) -> (64 * d0 + d1)>", "(d0, d1) -> (d0 * 64 + d1)"),
        ("affine_map<(d0) -> (95 - d0)>", "(d0) -> (-d0 + 95)"),
        ("affine_map<(d0) -> (d0 - 3, d0 floordiv 4, d0 mod 2, d0 ceildiv 8)>",
         "(d0) -> (d0 - 3, d0 floordiv 4, d0 mod 2, d0 ceildiv 8)"),
        ("affine_map<()[s0] -> (s0 * 2)>", "()[s0] -> (s0 * 2)"),
        ("affine_map<(i, j)[n] -> (i + n, 0)>", "(d0, d1)[s0] -> (d0 + s0, 0)"),
        ("affine_map<() -> ()>", "() -> ()"),
    ],
)
def test_map_format(source, printed, mlir):
    attr = parse_attr(source, mlir)
    assert isinstance(attr, AffineMapAttr)
    assert format_affine_map(attr.data) == printed


@pytest.mark.parametrize("mlir", [True, False])
@pytest.mark.parametrize(
    "source, printed",
    [
        ("affine_set<(d0) : (d0 >= 10)>", "(d0) : (d0 - 10 >= 0)"),
        ("affine_set<(d0, d1) : (d0 >= 0, d0 <= 95, d1 == 0)>", "(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 == 0)"),
        ("affine_set<(d0)[s0] : (s0 - 1 - d0 >= 0)>", "(d0)[s0] : (-d0 + s0 - 1 >= 0)"),
        ("affine_set<() : ()>", "() : (0 == 0)"),
    ],
)
def test_set_format(source, printed, mlir):
    assert format_affine_set(parse_attr(source, mlir).data) == printed


def test_mixin_keeps_mlir_shapes_xdsl_loses():
    # xDSL distributes the product and cannot build the semi-affine term at all.
    text = "affine_map<(d0, d1)[s0] -> ((d0 + 1) * 2, d0 + d1 * s0, -(d0 + d1))>"
    assert format_affine_map(parse_attr(text).data) == "(d0, d1)[s0] -> ((d0 + 1) * 2, d0 + d1 * s0, -(d0 + d1))"


def test_mixin_rejects_non_affine_products():
    with pytest.raises(ParseError, match="non-affine expression"):
        parse_attr("affine_map<(d0, d1) -> (d0 * d1)>")
    with pytest.raises(ParseError, match="right operand of mod"):
        parse_attr("affine_map<(d0, d1) -> (d0 mod d1)>")


# ---------------------------------------------------------------------------
# Floats (MLIR's printFloatValue)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, type, text",
    [
        (0.0, Float16Type(), "0.000000e+00"),
        (-0.0, Float32Type(), "-0.000000e+00"),
        (1.0, Float32Type(), "1.000000e+00"),
        (1.5, BFloat16Type(), "1.500000e+00"),
        (0.1, Float16Type(), "9.997560e-02"),
        (0.1, Float32Type(), "1.000000e-01"),
        (65504.0, Float16Type(), "6.550400e+04"),
        (math.pi, Float32Type(), "3.14159274"),
        (0.1 + 0.2, Float64Type(), "0.30000000000000004"),
        (123456789.0, Float64Type(), "0x419D6F3454000000"),
        (math.inf, Float16Type(), "0x7C00"),
        (-math.inf, Float32Type(), "0xFF800000"),
        (math.nan, Float32Type(), "0x7FC00000"),
    ],
)
def test_format_float(value, type, text):
    assert format_float(value, type) == text


@pytest.mark.parametrize(
    "value, type, bits",
    [
        (1.0, Float16Type(), 0x3C00),
        (65520.0, Float16Type(), 0x7C00),  # past f16's largest finite value: infinity
        (-1e300, Float32Type(), 0xFF800000),  # past f32's range (struct refuses it): -infinity
        (1.0 / 3, BFloat16Type(), 0x3EAB),  # rounded to nearest, not truncated (0x3EAA)
        (3.4e38, BFloat16Type(), 0x7F80),  # rounds past bf16's largest finite value
        (0.5, Float64Type(), 0x3FE0000000000000),
    ],
)
def test_float_bits_round_as_a_conversion(value, type, bits):
    """One home for a float's bits: the printer's hex literals and `linalg.fill`'s constants."""
    assert float_bits(value, type) == bits


# ---------------------------------------------------------------------------
# Names, aliases and the whole-module layout
# ---------------------------------------------------------------------------


def parse_module(text: str) -> ModuleOp:
    ctx = dialects.make_context(allow_unregistered=True)
    return Parser(ctx, text).parse_module()


def test_module_layout_aliases_then_module():
    module = parse_module(
        'func.func @f(%a: index) { %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%a)\n return }\n'
        '"test.op"() {s = affine_set<(d0) : (d0 == 0)>} : () -> ()'
    )
    text = printing.module_to_string(module)
    assert text.startswith("#map = affine_map<(d0) -> (d0 + 1)>\n#set = affine_set<(d0) : (d0 == 0)>\nmodule {\n")
    assert "%0 = affine.apply #map(%arg0)" in text
    assert text.endswith("}\n")


def test_op_to_string_uses_whole_module_names_and_inline_attributes():
    module = parse_module("func.func @f(%a: index) { %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%a)\n return }")
    func = next(iter(module.body.block.ops))
    apply = next(iter(func.regions[0].blocks.first.ops))
    assert printing.op_to_string(apply) == "%0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%arg0)"


def test_alias_hook_names_dictionaries():
    def hook(attr):
        if isinstance(attr, DictionaryAttr) and isinstance(attr.data.get("kind"), StringAttr):
            return attr.data["kind"].data
        return None

    printing.register_alias_hook(hook)
    try:
        module = parse_module('"test.op"() {a = {kind = "L1", size = 4}, b = [{kind = "L1", size = 4}]} : () -> ()')
        text = printing.module_to_string(module)
    finally:
        printing._ALIAS_HOOKS.remove(hook)
    # A trailing digit gets `_`, as MLIR's sanitizer does, and both uses share the alias.
    assert text.splitlines()[0] == '#L1_ = {kind = "L1", size = 4 : i64}'
    assert '"test.op"() {a = #L1_, b = [#L1_]} : () -> ()' in text


def test_aliased_attributes_nest_by_depth():
    printing.register_alias_hook(lambda attr: "arr" if isinstance(attr, ArrayAttr) and len(attr.data) == 2 else None)
    try:
        module = parse_module('"test.op"() {x = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 * 2)>]} : () -> ()')
        text = printing.module_to_string(module)
    finally:
        printing._ALIAS_HOOKS.pop()
    # The array's alias refers to the maps', so it is printed after them.
    assert text.splitlines()[:3] == [
        "#map = affine_map<(d0) -> (d0)>",
        "#map1 = affine_map<(d0) -> (d0 * 2)>",
        "#arr = [#map, #map1]",
    ]


def test_unknown_values_do_not_crash():
    module = parse_module('%0 = "test.def"() : () -> i32\n"test.use"(%0) : (i32) -> ()')
    ops = list(module.body.block.ops)
    use = ops[1].clone()  # operand still refers to %0, but the clone is not in the module
    assert printing.op_to_string(use) == '"test.use"(<<UNKNOWN SSA VALUE>>) : (i32) -> ()'


def test_sanitized_result_names():
    assert printing._sanitize("9lives") == "_9lives"
    assert printing._sanitize("a b") == "a_b"
    assert printing._sanitize("x#y") == "x23y"
    assert printing._sanitize("L1", "$_-", allow_trailing_digit=False) == "L1_"


# ---------------------------------------------------------------------------
# The OpAsmOpInterface-style hooks other dialects implement
# ---------------------------------------------------------------------------

@irdl_op_definition
class HookedOp(IRDLOperation):
    """Names its results and block arguments, and makes `tst` the default dialect of its region."""

    name = "tst.hooked"
    args = var_operand_def()
    res = var_result_def()
    body = region_def()

    def get_asm_result_names(self, set_name) -> None:
        for r in self.results:
            set_name(r, "val")

    def get_asm_block_argument_names(self, region, set_name) -> None:
        for a in region.blocks.first.args:
            set_name(a, "x")

    @classmethod
    def get_default_dialect(cls) -> str:
        return "tst"

    def print(self, printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class InnerOp(IRDLOperation):
    name = "tst.inner"
    args = var_operand_def()

    def print(self, printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.args, printer.print_operand)


def test_op_hooks_name_values_and_strip_the_default_dialect():
    body = Block(arg_types=[i32, i32])
    body.add_op(InnerOp.create(operands=list(body.args)))
    hooked = HookedOp.create(result_types=[i32, i32, i32], regions=[Region(body)])
    module = ModuleOp([hooked, InnerOp.create(operands=[hooked.results[2]])])
    assert printing.module_to_string(module) == (
        "module {\n"
        "  %val, %val_0, %val_1 = tst.hooked {\n"
        "  ^bb0(%x: i32, %x_2: i32):\n"
        "    inner %x, %x_2\n"
        "  }\n"
        "  tst.inner %val_1\n"
        "}\n"
    )


def test_shadow_region_args_prints_arguments_as_the_given_values():
    body = Block(arg_types=[i32])
    body.add_op(InnerOp.create(operands=[body.args[0]]))
    producer = HookedOp.create(result_types=[i32, i32], regions=[Region(Block())])
    consumer = HookedOp.create(operands=[producer.results[1]], regions=[Region(body)])
    module = ModuleOp([producer, consumer])
    printer = printing.MLIRPrinter(stream=None)
    printer.names = printing.NameTable(module)
    printer.shadow_region_args(consumer.body, [producer.results[1]])
    assert printer.value_text(body.args[0]) == "%val_0"
