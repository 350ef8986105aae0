"""The `vectorchain` dialect: element-wise vector compute of a DataflowIR compute unit.

Every op is side-effect free and works on builtin vectors or `!dataflow.custom_vector`s. Most
take an optional lane mask written right after their operands (`%a, %b[%m : vector<64xi1>]`)
and an optional `dbgName`. The scheduler emits `binary` (add/mul/sub/max/min/abs_max with an
identity map), `shuffle` (splats/broadcasts) and `constant_bitstream` (raw bit patterns);
the other ops are peripheral and only round-trip.
"""

from __future__ import annotations

import types
from collections.abc import Sequence

from xdsl.dialects.builtin import (AffineMapAttr, AffineSetAttr, AnyFloatConstr, ArrayAttr, BoolAttr, IndexType,
                                   IntegerAttr, IntegerType, StringAttr, VectorType, i1, i32)
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, ParsePropInAttrDict, base, irdl_attr_definition,
                       irdl_op_definition, operand_def, opt_operand_def, opt_prop_def, prop_def, result_def,
                       traits_def, var_operand_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, Pure
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import EnumAttribute, StrEnum, UnresolvedOperand
from dfsched.dialects.syntax import op_class
from dfsched.dialects.dataflow import (CustomVectorType, VectorLike, element_type, int_or_float_bit_width,
                                       dfir_dialect, num_elements, print_attr_dict,
                                       split_attr_dict)

# ---------------------------------------------------------------------------
# Enum attributes: #vectorchain<mnemonic value>
# ---------------------------------------------------------------------------


def _enum_attr(mnemonic: str, enum_name: str, cases: str) -> tuple[type[StrEnum], type[EnumAttribute]]:
    """The enum `enum_name` whose cases (space separated) are their own spellings, and its attribute
    class `#vectorchain<mnemonic case>` (named `...Attr`)."""
    enum = StrEnum(enum_name, {case: case for case in cases.split()}, module=__name__)
    attr = types.new_class(f"{enum_name}Attr", (EnumAttribute[enum], SpacedOpaqueSyntaxAttribute),
                           exec_body=lambda ns: ns.update(name=f"vectorchain.{mnemonic}", __module__=__name__))
    return enum, irdl_attr_definition(attr)


BinaryOperator, BinaryOperatorAttr = _enum_attr(
    "binary_operator", "BinaryOperator", "and0 or0 xnor and_not min max abs_min abs_max add mul sub mul_div2")
CompareOperator, CompareOperatorAttr = _enum_attr(
    "element_wise_compare_operator", "CompareOperator",
    "compare_eq compare_neq compare_lt compare_le compare_gt compare_ge")
ExpEstimate, ExpEstimateAttr = _enum_attr("exp_estimate", "ExpEstimate", "a b")
EstimateVersion, EstimateVersionAttr = _enum_attr("estimate_versions", "EstimateVersion", "slope offset")
EvalOrder, EvalOrderAttr = _enum_attr("eval_order", "EvalOrder", "left_to_right right_to_left")


# ---------------------------------------------------------------------------
# Shared shapes
# ---------------------------------------------------------------------------

_MASK = "(`[` $mask^ `:` type($mask) `]`)?"
_SCALAR = base(IndexType) | base(IntegerType) | AnyFloatConstr
_INDEX_ATTR = IntegerAttr[IndexType]


def _check_i1_mask(mask: SSAValue | None) -> None:
    """Masks of compare/estimate ops are `vector<Nxi1>`."""
    if mask is None:
        return
    t = mask.type
    if not isinstance(t, VectorType) or len(t.get_shape()) != 1 or t.element_type != i1:
        raise VerifyException(f"mask must be a 1-D vector of i1, got {t}")


class _ChainOp(IRDLOperation):
    """What every op with a declarative format here shares: side-effect free, isolated,
    properties written in the attr-dict."""

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)


class _UnaryOp(_ChainOp):
    """`%r = vectorchain.X %x[%mask : vector<Nxi1>] {attrs} : T, R` on builtin vectors."""

    op = operand_def(VectorType)
    mask = opt_operand_def(VectorType)
    dbgName = opt_prop_def(StringAttr)
    data = result_def(VectorType)

    assembly_format = f"$op {_MASK} attr-dict `:` type($op) `,` type(results)"

    def verify_(self) -> None:
        _check_i1_mask(self.mask)


FastExpOp = op_class("FastExpOp", _UnaryOp, "vectorchain.fast_exp")
FloorOp = op_class("FloorOp", _UnaryOp, "vectorchain.floor")
RecEstimateOp = op_class("RecEstimateOp", _UnaryOp, "vectorchain.rec_estimate")
LnEstimateOp = op_class("LnEstimateOp", _UnaryOp, "vectorchain.ln_estimate")
RsqrtEstimateOp = op_class("RsqrtEstimateOp", _UnaryOp, "vectorchain.rsqrt_estimate")
NegOp = op_class("NegOp", _UnaryOp, "vectorchain.neg")
ExpEstimateOp = op_class("ExpEstimateOp", _UnaryOp, "vectorchain.exp_estimate", version=prop_def(ExpEstimateAttr))
SigmoidEstimateOp = op_class("SigmoidEstimateOp", _UnaryOp, "vectorchain.sigmoid_estimate",
                             version=prop_def(EstimateVersionAttr))
TanhEstimateOp = op_class("TanhEstimateOp", _UnaryOp, "vectorchain.tanh_estimate",
                          version=prop_def(EstimateVersionAttr))


class _BinaryShapedOp(_ChainOp):
    """`%r = vectorchain.X %a, %b[%mask : M] {attrs} : Ta, Tb, R` on vectors or custom vectors."""

    op1 = operand_def(VectorLike)
    op2 = operand_def(VectorLike)
    mask = opt_operand_def(VectorType)
    dbgName = opt_prop_def(StringAttr)
    data = result_def(VectorLike)

    assembly_format = f"$op1 `,` $op2 {_MASK} attr-dict `:` type($op1) `,` type($op2) `,` type(results)"


BinaryOp = op_class("BinaryOp", _BinaryShapedOp, "vectorchain.binary",
                    "Element-wise `binary_op` of two vectors, shaped by `op_specific_map`.",
                    binary_op=prop_def(BinaryOperatorAttr), op_specific_map=prop_def(AffineMapAttr))
MultiplyOp = op_class("MultiplyOp", _BinaryShapedOp, "vectorchain.multiply", reduction_map=prop_def(AffineMapAttr))
PackOp = op_class("PackOp", _BinaryShapedOp, "vectorchain.pack", indices=prop_def(ArrayAttr),
                  repetition=prop_def(_INDEX_ATTR), sign_extend=prop_def(BoolAttr, default_value=BoolAttr(False, i1)))


ElementWiseCompareOp = op_class("ElementWiseCompareOp", _BinaryShapedOp, "vectorchain.element_wise_compare",
                                "The binary shape on builtin vectors, its mask of i1.",
                                op1=operand_def(VectorType), op2=operand_def(VectorType), data=result_def(VectorType),
                                compare_op=prop_def(CompareOperatorAttr), verify_=_UnaryOp.verify_)


@irdl_op_definition
class SelectOp(_ChainOp):
    name = "vectorchain.select"

    data = operand_def(VectorLike)
    selection_map = prop_def(AffineMapAttr)
    selected_data = result_def(VectorLike)

    assembly_format = "$data attr-dict `:` type($data) `,` type(results)"


@irdl_op_definition
class MergeOp(_ChainOp):
    name = "vectorchain.merge"

    op1 = operand_def(VectorLike)
    op2 = operand_def(VectorLike)
    dbgName = opt_prop_def(StringAttr)
    iteration_space_CA = prop_def(AffineSetAttr)
    access_function_CA = prop_def(AffineMapAttr)
    access_function_A = prop_def(AffineMapAttr)
    iteration_space_CB = prop_def(AffineSetAttr)
    access_function_CB = prop_def(AffineMapAttr)
    access_function_B = prop_def(AffineMapAttr)
    data = result_def(VectorLike)

    assembly_format = "$op1 `,` $op2 attr-dict `:` type($op1) `,` type($op2) `,` type(results)"


@irdl_op_definition
class CreateAffineMaskOp(_ChainOp):
    name = "vectorchain.create_affine_mask"

    mask_parameter = opt_operand_def(IndexType)
    mask_set = prop_def(AffineSetAttr)
    data = result_def(VectorType)

    assembly_format = "($mask_parameter^)? attr-dict `:` type(results)"

    def verify_(self) -> None:
        _check_i1_mask(self.data)


@irdl_op_definition
class CastOp(_ChainOp):
    """Converts each element; input and result have the same number of elements."""

    name = "vectorchain.cast"

    input = operand_def(VectorLike)
    mask = opt_operand_def(VectorType)
    dbgName = opt_prop_def(StringAttr)
    data = result_def(VectorLike)

    assembly_format = f"$input {_MASK} attr-dict `:` type($input) `,` type(results)"

    def verify_(self) -> None:
        if num_elements(self.data.type) != num_elements(self.input.type):
            raise VerifyException("result size does not match input size")


@irdl_op_definition
class MultiplyAndAccumulateOp(_ChainOp):
    name = "vectorchain.multiply_and_accumulate"

    op1 = operand_def(VectorLike)
    op2 = operand_def(VectorLike)
    op3 = operand_def(VectorLike)
    mask = opt_operand_def(VectorType)
    dbgName = opt_prop_def(StringAttr)
    reduction_map = prop_def(AffineMapAttr)
    data = result_def(VectorLike)

    assembly_format = (f"$op1 `,` $op2 `,` $op3 {_MASK} attr-dict `:` type($op1) `,` type($op2) `,` "
                       "type($op3) `,` type(results)")


@irdl_op_definition
class ElementWiseSelectionOp(_ChainOp):
    name = "vectorchain.element_wise_selection"

    cond = operand_def(VectorType)
    lhs = operand_def(VectorLike)
    rhs = operand_def(VectorLike)
    mask = opt_operand_def(VectorType)
    dbgName = opt_prop_def(StringAttr)
    data = result_def(VectorLike)

    assembly_format = (f"$cond `?` $lhs `:` $rhs {_MASK} attr-dict `:` type($cond) `,` type($lhs) `,` "
                       "type($rhs) `,` type(results)")


@irdl_op_definition
class ScanWithGapOp(_ChainOp):
    name = "vectorchain.scan_with_gap"

    input = operand_def(VectorLike)
    dbgName = opt_prop_def(StringAttr)
    reduction_op = prop_def(BinaryOperatorAttr)
    gap = prop_def(_INDEX_ATTR)
    eval_order = prop_def(EvalOrderAttr)
    output = result_def(VectorLike)

    assembly_format = "$input attr-dict `:` type($input) `,` type(results)"


@irdl_op_definition
class RotateOp(_ChainOp):
    name = "vectorchain.rotate"

    input = operand_def(VectorLike)
    position = operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    right_shift = prop_def(BoolAttr, default_value=BoolAttr(True, i1))
    output = result_def(VectorLike)

    assembly_format = "$input `,` $position attr-dict `:` type($input) `,` type($position) `,` type(results)"


# ---------------------------------------------------------------------------
# constant_bitstream: raw bit patterns, printed in hex
# ---------------------------------------------------------------------------


def _is_symbol(attrs: dict[str, Attribute]) -> bool:
    attr = attrs.get("is_symbol")
    return isinstance(attr, IntegerAttr) and attr.type == i1 and attr.value.data != 0


def _as_int64(value: int) -> int:
    """The two's-complement i64 reading of a literal (hex literals above 2^63 wrap, as in MLIR)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


@irdl_op_definition
class ConstantBitstreamOp(IRDLOperation):
    """A vector constant given as the raw bit pattern of each element: `{value = [0x0, 0x3c00]} : vector<2xf16>`."""

    name = "vectorchain.constant_bitstream"

    value = prop_def(ArrayAttr)
    result = result_def(VectorLike)

    traits = traits_def(Pure(), IsolatedFromAbove())

    def __init__(self, bits: Sequence[int], result_type: Attribute):
        super().__init__(properties={"value": ArrayAttr([IntegerAttr(b, 64) for b in bits])},
                         result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantBitstreamOp:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        props, others = split_attr_dict(cls, attrs)
        return cls.create(properties=props, attributes=others, result_types=[result_type])

    def print(self, printer: Printer) -> None:
        if not _is_symbol({**self.properties, **self.attributes}):
            bits = (e.value.data if isinstance(e, IntegerAttr) else 0 for e in self.value.data)
            printer.print_string(f" {{value = [{', '.join(f'0x{b & ((1 << 64) - 1):x}' for b in bits)}]}}")
        else:
            print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        result_type = self.result.type
        if not isinstance(result_type, VectorType | CustomVectorType):
            raise VerifyException("result element type is not vector type.")
        width = int_or_float_bit_width(element_type(result_type))
        if width is None:
            raise VerifyException("result element type is not ints or floats")
        if num_elements(result_type) != len(self.value.data):
            raise VerifyException("result does not match value array")
        if _is_symbol({**self.properties, **self.attributes}):
            return
        for element in self.value.data:
            if not isinstance(element, IntegerAttr):
                raise VerifyException("value attribute should only contain integer representations")
            bits = _as_int64(element.value.data)
            if 0 < width < 64 and bits & ((1 << width) - 1) != bits:
                raise VerifyException("value attribute contains element that exceeds bitwidth of output element type")


# ---------------------------------------------------------------------------
# shuffle: input(%in)[, variable(...)][, pad(...)][, mask(%m)]
# ---------------------------------------------------------------------------


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """Output element i*|indices|+j is input element `indices[j]`; -1, -2, ... name the variable then pad scalars."""

    name = "vectorchain.shuffle"

    input = operand_def(VectorLike)
    variable = var_operand_def(_SCALAR)
    pad = var_operand_def(_SCALAR)
    mask = opt_operand_def(VectorType)
    dbgName = opt_prop_def(StringAttr)
    indices = prop_def(ArrayAttr)
    repetition = prop_def(IntegerAttr[IntegerType])
    output = result_def(VectorLike)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, input: SSAValue, indices: Sequence[int], repetition: int, result_type: Attribute,
                 variable: Sequence[SSAValue] = (), pad: Sequence[SSAValue] = (), mask: SSAValue | None = None):
        super().__init__(
            operands=[input, variable, pad, [mask] if mask is not None else []],
            result_types=[result_type],
            properties={"indices": ArrayAttr([IntegerAttr(i, i32) for i in indices]),
                        "repetition": IntegerAttr(repetition, i32)})

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        parser.parse_keyword("input")
        parser.parse_punctuation("(")
        input_ = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        groups: dict[str, list[UnresolvedOperand]] = {}
        while parser.parse_optional_punctuation(","):
            pos = parser.pos
            kind = parser.parse_optional_keyword_in([k for k in ("variable", "pad", "mask") if k not in groups])
            if kind is None:
                parser.raise_error("expected 'variable', 'pad', or 'mask' keyword", pos, parser.pos)
            parser.parse_punctuation("(")
            groups[kind] = [parser.parse_unresolved_operand()]
            while kind != "mask" and parser.parse_optional_punctuation(","):
                groups[kind].append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        input_type = parser.parse_type()

        def typed(operand: UnresolvedOperand) -> SSAValue:
            parser.parse_punctuation(",")
            return parser.resolve_operand(operand, parser.parse_type())

        resolved = {kind: [typed(o) for o in groups.get(kind, [])] for kind in ("variable", "pad", "mask")}
        parser.parse_punctuation(",")
        result_type = parser.parse_type()
        props, others = split_attr_dict(cls, attrs)
        return cls.build(
            operands=[parser.resolve_operand(input_, input_type), resolved["variable"], resolved["pad"],
                      resolved["mask"]],
            result_types=[result_type], properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        printer.print_string(" input(")
        printer.print_operand(self.input)
        printer.print_string(")")
        mask = [self.mask] if self.mask is not None else []
        for kind, operands in (("variable", self.variable), ("pad", self.pad), ("mask", mask)):
            if operands:
                printer.print_string(f", {kind}(")
                printer.print_list(operands, printer.print_operand)
                printer.print_string(")")
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list([o.type for o in self.operands] + [self.output.type], printer.print_attribute)

    def verify_(self) -> None:
        indices = self.indices.data
        out_elems = num_elements(self.output.type)
        if out_elems != len(indices) * self.repetition.value.data:
            raise VerifyException("result does not scale with indices and repetitions")
        if element_type(self.output.type) != element_type(self.input.type):
            raise VerifyException("input element type does not match output element type")
        max_index = (num_elements(self.input.type) or 0) - 1
        min_index = -(len(self.variable) + len(self.pad))
        for index in indices:
            if not isinstance(index, IntegerAttr):
                raise VerifyException("indices element is not integer")
            if not min_index <= index.value.data <= max_index:
                raise VerifyException("out of bounds indices element")


VECTORCHAIN = dfir_dialect("vectorchain", [
    SelectOp, MultiplyOp, BinaryOp, ElementWiseCompareOp, MergeOp, CreateAffineMaskOp, PackOp, CastOp, FastExpOp,
    ExpEstimateOp, FloorOp, RecEstimateOp, LnEstimateOp, RsqrtEstimateOp, SigmoidEstimateOp, TanhEstimateOp, NegOp,
    MultiplyAndAccumulateOp, ElementWiseSelectionOp, ConstantBitstreamOp, ShuffleOp, ScanWithGapOp, RotateOp,
], [BinaryOperatorAttr, CompareOperatorAttr, ExpEstimateAttr, EstimateVersionAttr, EvalOrderAttr])
