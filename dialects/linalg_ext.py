"""`linalg` as KTIR writes it and `mlir-opt` prints it.

xDSL's linalg ops, with the textual syntax corrected where it differs from MLIR (named ops
take their attribute dictionary before `ins`; `broadcast`/`transpose`/`reduce` print
`ins(%x : T)` with spaces; `reduce` has MLIR's short form `{ arith.addf }`; `generic`
keeps every attribute and prints them sorted), plus the named elementwise ops KTIR inputs
use that xDSL lacks (`linalg.div`, ...) and `linalg.batch_matmul`.

Passes that build linalg ops should use the classes exported here, not xDSL's: an op built
from xDSL's own class prints with xDSL's syntax.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (AffineMapAttr, AnyFloat, ArrayAttr, DenseArrayBase, FloatAttr, IntegerType,
                                   StringAttr, TensorType, i64)
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.printer import Printer

from dfsched.compat import XDSL_LINALG as _XDSL_LINALG
from dfsched.compat import ElementwiseOperation, IteratorType, IteratorTypeAttr, NamedOperation, indented
from dfsched.compat import linalg_ops as _x
from dfsched.dialects.syntax import (op_class, parse_optional_arrow_type_list, print_attr_dict,
                                    print_optional_arrow_type_list, sorted_attrs, split_attr_dict)

# ===========================================================================
# Shared pieces of MLIR's structured-op syntax
# ===========================================================================


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """`keyword(%a, %b : T1, T2)` if present."""
    if not parser.parse_optional_keyword(keyword):
        return []
    pos = parser.pos
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")"):
        return []
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"expected {len(names)} types in '{keyword}(...)', but got {len(types)}", pos)
    return parser.resolve_operands(names, types, pos)


def _print_operand_group(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    if not values:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _parse_dense_i64_list(parser: Parser, name: str) -> DenseArrayBase:
    """`name = [1, 0]` (MLIR's printDenseI64ArrayAttr)."""
    parser.parse_keyword(name)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))
    return DenseArrayBase.from_list(i64, values)


def _print_dense_i64_list(printer: Printer, name: str, values: DenseArrayBase) -> None:
    printer.print_string(f" {name} = [{', '.join(map(str, values.get_values()))}]")


# ===========================================================================
# Named ops: `linalg.add {attrs} ins(...) outs(...) -> T`
# ===========================================================================


class NamedOpSyntax:
    """mlir-opt's syntax of linalg named ops (mixed into each named op class).

    The attribute dictionary comes before `ins` (MLIR also accepts one after `outs`, and
    xDSL's `attrs = {...}` is read too); matmul-like ops print `indexing_maps = [...]`
    first when they are not the default ones.
    """

    @classmethod
    def parse(cls, parser: Parser):
        start = parser.pos
        maps = None
        if parser.parse_optional_keyword("indexing_maps"):
            parser.parse_punctuation("=")
            maps_pos = parser.pos
            maps = parser.parse_attribute()
            if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps.data):
                parser.raise_error("expected indexing_maps to be an array of affine maps", maps_pos)
        parsed = dict(parser.parse_optional_attr_dict())
        ins = _parse_operand_group(parser, "ins")
        outs = _parse_operand_group(parser, "outs")
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            parsed |= parser.expect(parser.parse_optional_attr_dict, "expected an attribute dictionary")
        else:
            parsed |= parser.parse_optional_attr_dict()
        result_types = parse_optional_arrow_type_list(parser)
        props, attrs = split_attr_dict(cls, parsed)  # type: ignore[arg-type]
        if maps is not None:
            props["indexing_maps"] = maps
        if not outs:
            parser.raise_error(f"'{cls.name}' op expects at least one 'outs' operand", start)  # type: ignore[attr-defined]
        try:
            body = cls.get_hidden_region(ins, outs)  # type: ignore[attr-defined]
        except (AssertionError, IndexError, ValueError, TypeError):
            parser.raise_error(f"'{cls.name}' op cannot build its body: operands must be tensors or memrefs of "  # type: ignore[attr-defined]
                               "float or integer elements, or such scalars", start)
        return cls.build(operands=(ins, outs), result_types=(result_types,), properties=props,  # type: ignore[attr-defined]
                         attributes=attrs, regions=(body,))

    def print(self, printer: Printer) -> None:
        op: IRDLOperation = self  # type: ignore[assignment]
        elided = ["linalg.memoized_indexing_maps", "indexing_maps"]
        maps = op.properties.get("indexing_maps")
        if isinstance(maps, ArrayAttr) and hasattr(op, "get_default_indexing_maps_attr"):
            if maps != op.get_default_indexing_maps_attr():  # type: ignore[attr-defined]
                printer.print_string(" indexing_maps = ")
                printer.print_attribute(maps)
        print_attr_dict(printer, op, elided)
        _print_operand_group(printer, "ins", op.inputs)  # type: ignore[attr-defined]
        _print_operand_group(printer, "outs", op.outputs)  # type: ignore[attr-defined]
        print_optional_arrow_type_list(printer, op.result_types)


AddOp, SubOp, MulOp, ExpOp, LogOp, SqrtOp, SelectOp, FillOp, CopyOp, MaxOp, MinOp = (
    op_class(base.__name__, (NamedOpSyntax, base), None)
    for base in (_x.AddOp, _x.SubOp, _x.MulOp, _x.ExpOp, _x.LogOp, _x.SqrtOp, _x.SelectOp, _x.FillOp, _x.CopyOp,
                 _x.MaxOp, _x.MinOp))


_MATMUL_MAPS = ArrayAttr([AffineMapAttr(AffineMap.from_callable(f)) for f in (
    lambda i, _, k: (i, k), lambda _, j, k: (k, j), lambda i, j, _: (i, j))])


def contraction_region(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    """The body of `linalg.matmul` / `batch_matmul`: `out + cast(a) * cast(b)`, a float operand
    narrower than the output first `arith.extf`-ed to it (MLIR's semantics; f16 x f16 -> f32 is
    the mixed-precision contraction). xDSL's own body multiplies the operands unconverted."""
    arg_types = _x.MatmulOp.body_arg_types((*inputs, *outputs))
    out_type = arg_types[-1]
    is_float = isinstance(out_type, AnyFloat)
    block = Block(arg_types=arg_types)
    with ImplicitBuilder(block):
        factors = []
        for arg in block.args[:2]:
            if is_float and isinstance(arg.type, AnyFloat) and arg.type.bitwidth < out_type.bitwidth:
                arg = arith.ExtFOp(arg, out_type).result
            factors.append(arg)
        product = (arith.MulfOp if is_float else arith.MuliOp)(factors[0], factors[1]).result
        total = (arith.AddfOp if is_float else arith.AddiOp)(product, block.args[2]).result
        _x.YieldOp(total)
    return Region(block)


# The summation order a schedule chose for a reduction (Decision 65's lane-wide stepping):
# `dfsched.lane_wide = L` on a linalg op says its rows are summed in L lanes (lane l folds
# the elements l, l + L, ... in order, across the steps of its loop when stepped), the lanes
# then folded by halving (l with l + L/2, ...) and the result into the op's init. Passes set
# it (`passes/lane_wide.py`); the interpreters follow it (`interp/linalg_impl.py`).
LANE_WIDE = "dfsched.lane_wide"


def lane_width(op) -> int | None:
    """The L of an op marked `dfsched.lane_wide`, else None."""
    attr = op.attributes.get(LANE_WIDE)
    value = getattr(getattr(attr, "value", None), "data", None)
    return value if isinstance(value, int) else None


def is_contraction_body(block: Block) -> bool:
    """Whether a structured op's body is `out + a * b` of its first two arguments (each maybe
    `arith.extf`-ed) into its third, as `contraction_region` builds it: the one recognizer of
    a float contraction, for the interpreters' `np.einsum` and the matrix-unit planning."""
    ops = list(block.ops)
    if len(block.args) != 3 or len(ops) < 3 or ops[-3].name != "arith.mulf" or ops[-2].name != "arith.addf":
        return False
    widened = {}
    for op in ops[:-3]:
        if op.name != "arith.extf" or op.operands[0] not in block.args[:2]:
            return False
        widened[op.results[0]] = op.operands[0]
    mul, add = ops[-3], ops[-2]
    factors = sorted(block.args.index(f) if f in block.args else -1 for f in (widened.get(v, v) for v in mul.operands))
    return (factors == [0, 1] and set(add.operands) == {mul.results[0], block.args[2]}
            and list(ops[-1].operands) == [add.results[0]])


class _Contraction(NamedOpSyntax):
    """matmul's and batch_matmul's syntax and body; `MAPS` are the op's default indexing maps."""

    MAPS: ClassVar[ArrayAttr]

    @classmethod
    def get_default_indexing_maps_attr(cls) -> ArrayAttr:
        return cls.MAPS

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return contraction_region(inputs, outputs)


class MatmulOp(_Contraction, _x.MatmulOp):
    MAPS: ClassVar[ArrayAttr] = _MATMUL_MAPS


# ===========================================================================
# Named elementwise ops xDSL does not have
# ===========================================================================

BodyBuilder = Callable[[Sequence[BlockArgument], Attribute], SSAValue]


def _float_or_int(float_op, int_op) -> BodyBuilder:
    def build(args: Sequence[BlockArgument], element_type: Attribute) -> SSAValue:
        op = float_op if isinstance(element_type, AnyFloat) or int_op is None else int_op
        return op(args[0], args[1]).result

    return build


def _unary(float_op, int_op=None) -> BodyBuilder:
    def build(args: Sequence[BlockArgument], element_type: Attribute) -> SSAValue:
        if isinstance(element_type, IntegerType) and int_op is not None:
            return int_op(args[0]).result
        return float_op(args[0]).result

    return build


def _reciprocal(args: Sequence[BlockArgument], element_type: Attribute) -> SSAValue:
    one = arith.ConstantOp(FloatAttr(1.0, element_type))  # type: ignore[arg-type]
    return arith.DivfOp(one.result, args[0]).result


def _square(args: Sequence[BlockArgument], element_type: Attribute) -> SSAValue:
    if isinstance(element_type, IntegerType):
        return arith.MuliOp(args[0], args[0]).result
    return arith.MulfOp(args[0], args[0]).result


def _named_init(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue] = (),
                res: Sequence[Attribute] | None = None, attributes: Mapping[str, Attribute] | None = None):
    """The builder of the named ops defined here, xDSL's signature: the results are the tensor
    outputs' types unless `res` says otherwise; the body is the op's hidden region."""
    result_types = [o.type for o in outputs if isinstance(o.type, TensorType)] if res is None else list(res)
    NamedOperation.__init__(self, ins=inputs, outs=outputs, result_types=result_types, attributes=attributes,
                            hidden_region=type(self).get_hidden_region(inputs, outputs))


def _named_elementwise(class_name: str, op_name: str, doc: str, body: BodyBuilder) -> type[IRDLOperation]:
    """A named elementwise op whose hidden body is `body(args, element type)`."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        block = Block(arg_types=arg_types)
        with ImplicitBuilder(block):
            _x.YieldOp(body(block.args, arg_types[-1]))
        return Region(block)

    return op_class(class_name, (NamedOpSyntax, ElementwiseOperation), op_name, doc, __init__=_named_init,
                    get_hidden_region=get_hidden_region)


DivOp, DivUnsignedOp, PowFOp, AbsOp, CeilOp, FloorOp, RoundOp, NegFOp, ReciprocalOp, RsqrtOp, SquareOp, TanhOp, ErfOp = (
    _named_elementwise(f"{name}Op", f"linalg.{op_name}", doc, body) for name, op_name, doc, body in (
        ("Div", "div", "Elementwise a / b (signed for integers).", _float_or_int(arith.DivfOp, arith.DivSIOp)),
        ("DivUnsigned", "div_unsigned", "Elementwise unsigned integer a / b.", _float_or_int(arith.DivUIOp, arith.DivUIOp)),
        ("PowF", "powf", "Elementwise a ** b.", _float_or_int(math.PowFOp, None)),
        ("Abs", "abs", "Elementwise |x|.", _unary(math.AbsFOp, math.AbsIOp)),
        ("Ceil", "ceil", "Elementwise ceil(x).", _unary(math.CeilOp)),
        ("Floor", "floor", "Elementwise floor(x).", _unary(math.FloorOp)),
        ("Round", "round", "Elementwise round(x).", _unary(math.RoundOp)),
        ("NegF", "negf", "Elementwise -x.", _unary(arith.NegfOp)),
        ("Reciprocal", "reciprocal", "Elementwise 1 / x.", _reciprocal),
        ("Rsqrt", "rsqrt", "Elementwise 1 / sqrt(x).", _unary(math.RsqrtOp)),
        ("Square", "square", "Elementwise x * x.", _square),
        ("Tanh", "tanh", "Elementwise tanh(x).", _unary(math.TanhOp)),
        ("Erf", "erf", "Elementwise erf(x).", _unary(math.ErfOp))))


_BATCH_MATMUL_MAPS = ArrayAttr([AffineMapAttr(AffineMap.from_callable(f)) for f in (
    lambda b, i, _, k: (b, i, k), lambda b, _, j, k: (b, k, j), lambda b, i, j, _: (b, i, j))])


@irdl_op_definition
class BatchMatmulOp(_Contraction, NamedOperation):
    """`linalg.batch_matmul ins(%a, %b : T1, T2) outs(%c : T3) -> T3`: a matmul per batch."""

    name = "linalg.batch_matmul"
    MAPS: ClassVar[ArrayAttr] = _BATCH_MATMUL_MAPS

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_BATCH_MATMUL_MAPS)

    __init__ = _named_init

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        p, r = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr([p, p, p, r])


# ===========================================================================
# linalg.generic
# ===========================================================================

_GENERIC_TRAIT_ATTRS = ("doc", "indexing_maps", "iterator_types", "library_call")


class GenericOp(_x.GenericOp):
    """`linalg.generic {indexing_maps = [...], iterator_types = [...]} ins(...) outs(...)
    attrs = {...} { ^bb0(...): ... } -> T`, printed and parsed as MLIR does."""

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        start = parser.pos
        head = parser.parse_optional_attr_dict()
        end = parser.pos

        def fail(message: str):
            parser.raise_error(f"'linalg.generic' op {message}", start, end)

        maps = head.pop("indexing_maps", None)
        if maps is None:
            fail("requires attribute 'indexing_maps'")
        if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps.data):
            fail("expected indexing_maps to be an array of affine maps")
        iterators = head.pop("iterator_types", None)
        if iterators is None:
            fail("requires attribute 'iterator_types'")
        if not isinstance(iterators, ArrayAttr):
            fail("expected iterator_types to be an array")
        iterator_types: list[IteratorTypeAttr] = []
        for it in iterators.data:
            if isinstance(it, IteratorTypeAttr):
                iterator_types.append(it)
            elif isinstance(it, StringAttr) and it.data in {t.value for t in IteratorType}:
                iterator_types.append(IteratorTypeAttr(IteratorType(it.data)))
            else:
                fail(f"unknown iterator type {it}")
        doc = head.pop("doc", None)
        library_call = head.pop("library_call", None)
        for name, value in (("doc", doc), ("library_call", library_call)):
            if value is not None and not isinstance(value, StringAttr):
                fail(f"expected '{name}' to be a string")

        ins = _parse_operand_group(parser, "ins")
        outs = _parse_operand_group(parser, "outs")
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            head |= parser.expect(parser.parse_optional_attr_dict, "expected an attribute dictionary")
        body = parser.expect(parser.parse_optional_region, "'linalg.generic' op expected a region")
        result_types = parse_optional_arrow_type_list(parser)
        op = cls(ins, outs, body, maps, iterator_types, result_types, doc, library_call)  # type: ignore[arg-type]
        op.attributes.update(head)
        return op

    def print(self, printer: Printer) -> None:
        head: dict[str, Attribute] = {}
        if self.doc is not None:
            head["doc"] = self.doc
        head["indexing_maps"] = self.indexing_maps
        head["iterator_types"] = ArrayAttr(
            [StringAttr(t.data.value) if isinstance(t, IteratorTypeAttr) else t for t in self.iterator_types.data]
        )
        if self.library_call is not None:
            head["library_call"] = self.library_call
        printer.print_string(" ")
        printer.print_attr_dict(head)
        _print_operand_group(printer, "ins", self.inputs)
        _print_operand_group(printer, "outs", self.outputs)
        extra = sorted_attrs(self, _GENERIC_TRAIT_ATTRS)
        if extra:
            printer.print_string(" attrs = ")
            printer.print_op_attributes(extra)
        printer.print_string(" ")
        printer.print_region(self.body)
        print_optional_arrow_type_list(printer, self.result_types)


# ===========================================================================
# broadcast, transpose, reduce
# ===========================================================================


def _single(parser: Parser, values: list[SSAValue], keyword: str, op_name: str, start) -> SSAValue:
    if len(values) != 1:
        parser.raise_error(f"'{op_name}' op expects exactly one '{keyword}' operand", start)
    return values[0]


def _parse_unary_with_list(cls, parser: Parser, list_name: str, start=None):
    """`[attr-dict] ins(%x : T) outs(%y : U) <list_name> = [..] [attr-dict]` (broadcast,
    transpose, reduce; errors located at `start`, by default here) → (source, init, list, attrs, start)."""
    start = parser.pos if start is None else start
    attrs = dict(parser.parse_optional_attr_dict())
    source = _single(parser, _parse_operand_group(parser, "ins"), "ins", cls.name, start)
    init = _single(parser, _parse_operand_group(parser, "outs"), "outs", cls.name, start)
    values = _parse_dense_i64_list(parser, list_name)
    attrs |= parser.parse_optional_attr_dict()
    return source, init, values, attrs, start


class _UnaryWithList:
    """`ins(%x : T) outs(%y : U) <LIST> = [..]`: broadcast's and transpose's syntax."""

    LIST: str

    @classmethod
    def parse(cls, parser: Parser):
        source, init, values, attrs, start = _parse_unary_with_list(cls, parser, cls.LIST)
        try:
            op = cls(source, init, values)
        except (AssertionError, ValueError, TypeError):
            parser.raise_error(f"'{cls.name}' op expects tensors or memrefs of float or integer elements", start)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        single = isinstance(self, _x.BroadcastOp)  # one `input` and one `init`; transpose's are lists
        _print_operand_group(printer, "ins", [self.input] if single else self.inputs)
        _print_operand_group(printer, "outs", [self.init] if single else self.outputs)
        _print_dense_i64_list(printer, self.LIST, self.properties[self.LIST])
        print_attr_dict(printer, self, (self.LIST,))


class BroadcastOp(_UnaryWithList, _x.BroadcastOp):
    """`linalg.broadcast ins(%x : T) outs(%y : U) dimensions = [0]`."""

    LIST = "dimensions"

    def verify_(self) -> None:
        """Added dimensions must be distinct: xDSL's verifier (and MLIR's) pairs the input's
        dimensions with the output's remaining ones and indexes past the input when one repeats."""
        dims = self.dimensions.get_values()
        if len(set(dims)) != len(dims):
            raise VerifyException(f"dimensions should be unique, got {list(dims)}")
        super().verify_()


class TransposeOp(_UnaryWithList, _x.TransposeOp):
    """`linalg.transpose ins(%x : T) outs(%y : U) permutation = [1, 0]`."""

    LIST = "permutation"

    def verify_(self) -> None:
        """MLIR's check that `permutation` permutes the input's dimensions, which xDSL's
        verifier lacks (it indexes shapes with the entries, and accepts repeats)."""
        perm = list(self.permutation.get_values())
        rank = len(getattr(self.inputs[0].type, "get_shape", lambda: ())()) if self.inputs else 0
        if len(perm) == rank and sorted(perm) != list(range(rank)):
            raise VerifyException(f"permutation is not valid: {perm} does not permute [0, {rank - 1}]")
        super().verify_()


class ReduceOp(_x.ReduceOp):
    """`linalg.reduce ins(%x : T) outs(%acc : U) dimensions = [1] (%in: f16, %init: f16) {...}`,
    or MLIR's short form `linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [1]`
    whose body is `%r = arith.addf %init, %in; linalg.yield %r`."""

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        start = parser.pos
        payload_name = None
        payload_attrs: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("{"):
            payload_name = parser.parse_identifier("expected the name of the reduction's payload op")
            payload_attrs = parser.parse_optional_attr_dict()
            parser.parse_punctuation("}")
        source, init, dims, attrs, _ = _parse_unary_with_list(cls, parser, "dimensions", start)
        element_types = [getattr(v.type, "element_type", None) for v in (source, init)]
        if any(t is None for t in element_types):
            parser.raise_error(f"'{cls.name}' op expects tensor or memref operands", start)
        if payload_name is not None:
            region = _payload_region(parser, payload_name, payload_attrs, element_types, start)  # type: ignore[arg-type]
        else:
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
            region = parser.parse_region(args)
        op = cls(source, init, dims, region)
        op.attributes.update(attrs)
        return op

    def verify_(self) -> None:
        """MLIR's range check on `dimensions`, before xDSL's verifier indexes shapes with them."""
        rank = len(getattr(self.input.type, "get_shape", lambda: ())())
        dims = self.dimensions.get_values()
        if any(d < 0 or d >= rank for d in dims):
            raise VerifyException(f"dimensions for reduction should be in the range [0, {rank - 1}]")
        if len(set(dims)) != len(dims):
            raise VerifyException("dimensions for reduction should be unique")
        super().verify_()

    def print(self, printer: Printer) -> None:
        payload = _short_form_payload(self.region)
        if payload is not None:
            printer.print_string(f" {{ {payload.name}")
            shown = {**payload.properties, **payload.attributes}
            shown = {k: shown[k] for k in sorted(shown) if not _is_default_fastmath(shown[k])}
            printer.print_op_attributes(shown)
            printer.print_string(" }")
        _print_operand_group(printer, "ins", [self.input])
        _print_operand_group(printer, "outs", [self.init])
        _print_dense_i64_list(printer, "dimensions", self.dimensions)
        print_attr_dict(printer, self, ("dimensions",))
        if payload is None:
            block = self.region.blocks.first
            with indented(printer):
                printer.print_string("\n(")
                printer.print_list(block.args if block else (), printer.print_block_argument)
                printer.print_string(") ")
                printer.print_region(self.region, print_entry_block_args=False)


def _is_default_fastmath(attr: Attribute) -> bool:
    return isinstance(attr, arith.FastMathFlagsAttr) and not attr.data


def _short_form_payload(region: Region):
    """The single payload op of a reduce body in MLIR's short form, or None."""
    block = region.blocks.first
    if block is None or len(region.blocks) != 1:
        return None
    ops = list(block.ops)
    if len(ops) != 2 or not isinstance(ops[1], _x.YieldOp):
        return None
    payload, yield_op = ops
    args = list(block.args)
    if not payload.operands or len(payload.operands) != len(args) or len(payload.results) != 1:
        return None
    # MLIR's order: the accumulator first, then the inputs.
    if list(payload.operands) != [args[-1], *args[:-1]]:
        return None
    if list(yield_op.operands) != list(payload.results):
        return None
    return payload


def _payload_region(parser: Parser, name: str, attrs: Mapping[str, Attribute], element_types: Sequence[Attribute], start) -> Region:
    op_class = parser.ctx.get_optional_op(name)
    if op_class is None:
        parser.raise_error(f"unknown payload op '{name}' in linalg.reduce short form", start)
    block = Block(arg_types=list(element_types))
    definition = getattr(op_class, "get_irdl_definition", None)
    props: dict[str, Attribute] = {}
    others = dict(attrs)
    if definition is not None:
        prop_defs = definition().properties
        for key, prop in prop_defs.items():
            if key in others:
                props[key] = others.pop(key)
            elif getattr(prop, "default_value", None) is not None:
                props[key] = prop.default_value
    payload = op_class.create(operands=[block.args[-1], *block.args[:-1]], result_types=[element_types[-1]],
                              properties=props, attributes=others)
    block.add_op(payload)
    block.add_op(_x.YieldOp(payload.results[0]))
    return Region(block)


# ===========================================================================
# The dialect
# ===========================================================================


class IndexOp(_x.IndexOp):
    """`linalg.index`, whose dimension must be a loop of the enclosing `linalg.generic`, as MLIR verifies
    (a mutated `linalg.index 65536` reached the lowering as an IndexError)."""

    def verify_(self) -> None:
        super().verify_()  # its fields and traits (the generic parent)
        parent = self.parent_op()
        loops = len(parent.iterator_types) if isinstance(parent, _x.GenericOp) else None
        if loops is not None and not 0 <= self.dim.value.data < loops:
            raise VerifyException(f"expected dim ({self.dim.value.data}) to be lower than the number of loops "
                                  f"({loops}) of the enclosing LinalgOp")


_REPLACED = {op.name: op for op in (AddOp, SubOp, MulOp, ExpOp, LogOp, SqrtOp, SelectOp, FillOp, CopyOp, MaxOp, MinOp,
                                    MatmulOp, GenericOp, BroadcastOp, TransposeOp, ReduceOp, IndexOp)}

YieldOp = _x.YieldOp

ADDED_OPS = (DivOp, DivUnsignedOp, PowFOp, AbsOp, CeilOp, FloorOp, RoundOp, NegFOp, ReciprocalOp, RsqrtOp, SquareOp,
             TanhOp, ErfOp, BatchMatmulOp)

LINALG = Dialect(
    "linalg",
    [*(_REPLACED.get(op.name, op) for op in _XDSL_LINALG.operations), *ADDED_OPS],
    list(_XDSL_LINALG.attributes),
)
