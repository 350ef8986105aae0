"""The `spyreop` dialect: IBM Spyre intrinsics, usable in KTIR compute bodies.

Scalar (or register-row) operations the Spyre compute units implement directly: activation
functions, division, normalisation building blocks, integer address arithmetic, slice
reductions, compares and selects on floats, and register constants. Syntax and verifier
messages follow the upstream C++ dialect (`docs/dialects.md#spyreop`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import Float16Type, Float32Type, FloatAttr, IntegerType, TensorType, f32
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, irdl_attr_definition, irdl_op_definition, operand_def, opt_prop_def, prop_def,
                       result_def, traits_def, var_operand_def, var_result_def)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import EnumAttribute, StrEnum
from dfsched.dialects.syntax import op_class, print_attr_dict

# ===========================================================================
# Types
# ===========================================================================


DF16Type, DF16FusedType, FP16FusedType, FP32FusedType = (
    irdl_attr_definition(type(class_name, (ParametrizedAttribute, TypeAttribute),
                              {"__module__": __name__, "__doc__": doc, "name": f"spyreop.{name}"}))
    for class_name, name, doc in (
        ("DF16Type", "df16", "`!spyreop.df16`: IBM DLFloat16 (1 sign, 6 exponent, 9 mantissa bits)."),
        ("DF16FusedType", "df16_fused", "`!spyreop.df16_fused`: a pair of df16 values held as one (mean, mean of squares)."),
        ("FP16FusedType", "fp16_fused", "`!spyreop.fp16_fused`: a pair of f16 values held as one."),
        ("FP32FusedType", "fp32_fused", "`!spyreop.fp32_fused`: a pair of f32 values held as one."),
    ))


_FUSED_PAIRS = {Float16Type: FP16FusedType, DF16Type: DF16FusedType, Float32Type: FP32FusedType}


def fused_of(scalar: Attribute) -> Attribute | None:
    """The fused-pair type holding two values of `scalar`'s type."""
    fused = _FUSED_PAIRS.get(type(scalar))
    return None if fused is None else fused()


def scalar_of(fused: Attribute) -> Attribute | None:
    """The scalar type a fused pair holds two of."""
    return next((scalar() for scalar, pair in _FUSED_PAIRS.items() if isinstance(fused, pair)), None)


class _TypeClass:
    """A named set of types, described the way MLIR's ODS describes type constraints."""

    def __init__(self, description: str, *types: type[Attribute]):
        self.description = description
        self.types = types

    def __contains__(self, t: Attribute) -> bool:
        return isinstance(t, self.types)


FLOAT = _TypeClass("16-bit float or IBM df16 float or 32-bit float", Float16Type, DF16Type, Float32Type)
HALF_FLOAT = _TypeClass("16-bit float or IBM df16 float", Float16Type, DF16Type)
FUSED = _TypeClass("A pair of df16 floats held as one value or A pair of 16-bit floats held as one value or "
                   "A pair of 32-bit floats held as one value", DF16FusedType, FP16FusedType, FP32FusedType)
IEEE_FLOAT = _TypeClass("16-bit float or 32-bit float", Float16Type, Float32Type)
I32 = _TypeClass("32-bit signless integer", IntegerType)
I64 = _TypeClass("64-bit signless integer", IntegerType)


def _check_type(role: str, index: int, t: Attribute, allowed: _TypeClass, exact: Attribute | None = None) -> None:
    if t not in allowed or (exact is not None and t != exact):
        raise VerifyException(f"{role} #{index} must be {allowed.description}, but got '{t}'")


# ===========================================================================
# Enum attributes: #spyreop.compare_predicate<equal>, ...
# ===========================================================================


class ComparePredicate(StrEnum):
    EQUAL = "equal"
    NOTEQUAL = "notequal"
    GREATERTHAN = "greaterthan"
    GREATEREQUAL = "greaterequal"
    LESSERTHAN = "lesserthan"
    LESSEREQUAL = "lesserequal"


class ReductionKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MAX = "max"
    MIN = "min"
    MUL = "mul"
    ABS_MAX = "abs_max"


class ReductionScope(StrEnum):
    IN_SLICE = "in_slice"
    ACROSS_SLICE = "across_slice"


class _AngleBracketEnum:
    """MLIR's EnumAttr syntax: `#spyreop.<mnemonic><keyword>`; `<keyword>` alone in op syntax."""

    enum_type: ClassVar[type[StrEnum]]

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)  # type: ignore[attr-defined]


@irdl_attr_definition
class ComparePredicateAttr(_AngleBracketEnum, EnumAttribute[ComparePredicate]):
    name = "spyreop.compare_predicate"


@irdl_attr_definition
class ReductionKindAttr(_AngleBracketEnum, EnumAttribute[ReductionKind]):
    name = "spyreop.reduction_kind"


@irdl_attr_definition
class ReductionScopeAttr(_AngleBracketEnum, EnumAttribute[ReductionScope]):
    name = "spyreop.reduction_scope"


# ===========================================================================
# Operations
# ===========================================================================


class _IntrinsicOp(IRDLOperation):
    """Operands and results all of one type, spelled once: `%a <sep> %b ... : T`, or not at all
    for a fixed-width integer intrinsic (`%r = spyreop.addi32toi32 %a, %b`).

    `SYNTAX` is what follows the op name, word by word: `%x` the operand x, `$p` the f32
    property p as a bare float, `<$p>` the enum property p as its case in angle brackets, any
    other word itself (`,` or a keyword such as `squares`); `ALLOWED` is the type constraint;
    `FIXED` the one integer type of a fixed-width intrinsic (None: the type is written).
    """

    SYNTAX: ClassVar[tuple[str, ...]] = ()
    ALLOWED: ClassVar[_TypeClass] = FLOAT
    FIXED: ClassVar[IntegerType | None] = None

    traits = traits_def(Pure())

    def __init__(self, *operands: SSAValue, **properties: Attribute):
        super().__init__(operands=operands, properties=properties,
                         result_types=[operands[0].type] * len(type(self).get_irdl_definition().results))

    @classmethod
    def parse(cls, parser: Parser):
        names, props = [], {}
        for word in cls.SYNTAX:
            if word.startswith("%"):
                names.append(parser.parse_unresolved_operand())
            elif word.startswith("<$"):
                enum_attr = cls.get_irdl_definition().properties[word[2:-1]].constr.attr
                props[word[2:-1]] = enum_attr(enum_attr.parse_parameter(parser))
            elif word.startswith("$"):
                start = parser.pos
                number = float(parser.parse_number())
                try:
                    props[word[1:]] = FloatAttr(number, f32)
                except OverflowError:  # xDSL packs the value with `struct`
                    parser.raise_error(f"value out of range for f32: {number}", start, parser.pos)
            elif word == ",":
                parser.parse_punctuation(",")
            else:
                parser.parse_keyword(word)
        attrs = parser.parse_optional_attr_dict()
        if cls.FIXED is None:
            parser.parse_punctuation(":")
        t = cls.FIXED or parser.parse_type()
        return cls.build(operands=[parser.resolve_operand(n, t) for n in names], properties=props,
                         result_types=[t] * len(cls.get_irdl_definition().results), attributes=attrs)

    def print(self, printer: Printer) -> None:
        operands = iter(self.operands)
        for word in self.SYNTAX:
            printer.print_string("," if word == "," else " ")
            if word.startswith("%"):
                printer.print_operand(next(operands))
            elif word.startswith("<$"):
                self.properties[word[2:-1]].print_parameter(printer)
            elif word.startswith("$"):
                printer.print_float(self.properties[word[1:]].value.data, f32)
            elif word != ",":
                printer.print_string(word)
        print_attr_dict(printer, self, self.properties)
        if self.FIXED is None:
            printer.print_string(" : ")
            printer.print_attribute(self.result_types[0])

    def verify_(self) -> None:
        for role, types in (("operand", self.operand_types), ("result", self.result_types)):
            for i, t in enumerate(types):
                _check_type(role, i, t, self.ALLOWED, self.FIXED)
        if self.FIXED is None and len(set([*self.operand_types, *self.result_types])) != 1:
            raise VerifyException("requires the same type for all operands and results")


def _intrinsic(class_name: str, syntax: str, doc: str, allowed: _TypeClass = FLOAT, fixed: IntegerType | None = None,
               results: tuple[str, ...] = ("result",), **namespace) -> type[_IntrinsicOp]:
    """An intrinsic from its `syntax`, `"spyreop.NAME %a, %b"` or `"spyreop.NAME %x squares %sq"`:
    the op name, then the words of `_IntrinsicOp.SYNTAX`; `namespace` holds the properties'
    definitions and any further method."""
    op_name, *words = syntax.replace(",", " , ").split()
    return op_class(class_name, _IntrinsicOp, op_name, doc, ALLOWED=allowed, FIXED=fixed, SYNTAX=tuple(words),
                    __annotations__=dict.fromkeys(("ALLOWED", "FIXED", "SYNTAX"), "ClassVar"),
                    **{w[1:]: operand_def() for w in words if w.startswith("%")}, **{r: result_def() for r in results},
                    **namespace)


ExpOp = _intrinsic("ExpOp", "spyreop.exp %operand", "`%r = spyreop.exp %x : f16`: e^x.")
GeluOp = _intrinsic("GeluOp", "spyreop.gelu %operand", "`spyreop.gelu %x : T`: x * Phi(x) (f16 or df16 only).",
                    HALF_FLOAT)
SigmoidOp = _intrinsic("SigmoidOp", "spyreop.sigmoid %operand", "`spyreop.sigmoid %x : T`: 1 / (1 + e^-x).")
SiluOp = _intrinsic("SiluOp", "spyreop.silu %operand", "`spyreop.silu %x : T`: x * sigmoid(x).")
SqrtOp = _intrinsic("SqrtOp", "spyreop.sqrt %operand", "`spyreop.sqrt %x : T`: square root.")
RsqrtOp = _intrinsic("RsqrtOp", "spyreop.rsqrt %operand", "`spyreop.rsqrt %x : T`: 1 / sqrt(x).")
ReciprocalOp = _intrinsic("ReciprocalOp", "spyreop.reciprocal %operand", "`spyreop.reciprocal %x : T`: 1 / x.")
RealDivOp = _intrinsic("RealDivOp", "spyreop.realdiv %lhs, %rhs", "`%r = spyreop.realdiv %a, %b : T`: a / b.")
SelectOp = _intrinsic("SelectOp", "spyreop.select %condition, %true_value, %false_value",
                      "`%r = spyreop.select %c, %t, %f : T`: %t where the float %c is non-zero, else %f.")
Exx2Op = _intrinsic("Exx2Op", "spyreop.exx2 %operand",
                    "`%mean, %squares = spyreop.exx2 %x : T`: mean and mean of squares over a stick.",
                    results=("result", "squares"))
LayerNormScaleOp = _intrinsic("LayerNormScaleOp", "spyreop.layernormscale %operand squares %squares",
                              "`%s = spyreop.layernormscale %mean squares %sq : T`: LayerNorm's scale factor.")
LayerNormNormOp = _intrinsic(
    "LayerNormNormOp", "spyreop.layernormnorm %operand squares %squares scale %scale weight %weight bias %bias",
    "`%y = spyreop.layernormnorm %x squares %a scale %b weight %w bias %c : T`: the normalising part of LayerNorm.")
AddI32ToI32Op = _intrinsic("AddI32ToI32Op", "spyreop.addi32toi32 %lhs, %rhs",
                           "`%r = spyreop.addi32toi32 %a, %b`: 32-bit integer addition.", I32, IntegerType(32))
AddI64ToI64Op = _intrinsic("AddI64ToI64Op", "spyreop.addi64toi64 %lhs, %rhs",
                           "`%r = spyreop.addi64toi64 %a, %b`: 64-bit integer addition.", I64, IntegerType(64))
MulI32ToI32Op = _intrinsic("MulI32ToI32Op", "spyreop.muli32toi32 %lhs, %rhs",
                           "`%r = spyreop.muli32toi32 %a, %b`: 32-bit product of 32-bit integers.", I32,
                           IntegerType(32))
Idx32ToAddrOp = _intrinsic("Idx32ToAddrOp", "spyreop.idx32toaddr %index base %base stride %stride",
                           "`%r = spyreop.idx32toaddr %i base %b stride %s`: the address b + s * i.", I32,
                           IntegerType(32))


class _FusedOp(IRDLOperation):
    """`%r = spyreop.OP %x : T -> U` where U is inferred from T (scalar <-> fused pair)."""

    OPERANDS: ClassVar[_TypeClass] = FLOAT
    RESULTS: ClassVar[_TypeClass] = FUSED

    operand = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    @staticmethod
    def infer(operand_type: Attribute) -> Attribute | None:
        raise NotImplementedError

    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def verify_(self) -> None:
        _check_type("operand", 0, self.operand_types[0], self.OPERANDS)
        _check_type("result", 0, self.result_types[0], self.RESULTS)
        inferred = self.infer(self.operand_types[0])
        if inferred != self.result_types[0]:
            raise VerifyException(f"inferred type(s) '{inferred}' are incompatible with return type(s) of operation "
                                  f"'{self.result_types[0]}'; failed to infer returned types")


Exx2FusedOp = op_class("Exx2FusedOp", _FusedOp, "spyreop.exx2_fused",
                       "`%p = spyreop.exx2_fused %x : f16 -> !spyreop.fp16_fused`: exx2 as one fused value.",
                       infer=staticmethod(fused_of))
Exx2ZeroMeanFusedOp = op_class(
    "Exx2ZeroMeanFusedOp", _FusedOp, "spyreop.exx2_zeromean_fused",
    "`%p = spyreop.exx2_zeromean_fused %x : f16 -> !spyreop.fp16_fused`: exx2_fused with the mean taken as zero "
    "(only the mean of squares is accumulated).", infer=staticmethod(fused_of))
LayerNormScaleFusedOp = op_class(
    "LayerNormScaleFusedOp", _FusedOp, "spyreop.layernormscale_fused",
    "`%s = spyreop.layernormscale_fused %p : !spyreop.fp16_fused -> f16`: LayerNorm's scale from a fused "
    "(mean, mean of squares) pair.", OPERANDS=FUSED, RESULTS=FLOAT, infer=staticmethod(scalar_of),
    __annotations__=dict.fromkeys(("OPERANDS", "RESULTS"), "ClassVar"))


def _verify_softplus(op: _IntrinsicOp) -> None:
    for name in ("beta", "threshold"):
        attr = op.properties[name]
        if not (isinstance(attr, FloatAttr) and isinstance(attr.type, Float32Type)):
            raise VerifyException(f"attribute '{name}' failed to satisfy constraint: 32-bit float attribute")
    if op.properties["beta"].value.data == 0.0:
        raise VerifyException("attribute 'beta' failed to satisfy constraint: 32-bit float attribute which is non-zero")
    _IntrinsicOp.verify_(op)


SoftplusOp = _intrinsic(
    "SoftplusOp", "spyreop.softplus %operand beta $beta threshold $threshold",
    "`%r = spyreop.softplus %x beta 2.000000e-01 threshold 1.000000e-01 : f16`: (1/beta) * log(1 + e^(beta*x)), "
    "linear above the threshold.", HALF_FLOAT, beta=prop_def(FloatAttr), threshold=prop_def(FloatAttr),
    verify_=_verify_softplus)
CompareOp = _intrinsic(
    "CompareOp", "spyreop.compare <$predicate> %lhs, %rhs",
    "`%r = spyreop.compare <greaterthan> %a, %b : T`: 1.0 where the (IEEE-ordered) predicate holds, 0.0 elsewhere, "
    "in the width compared.", predicate=prop_def(ComparePredicateAttr))


@irdl_op_definition
class SliceReductionOp(IRDLOperation):
    """`%r = spyreop.slice_reduction %x {reduction_kind = ..., reduction_scope = ...} :
    tensor<64xf16> -> tensor<64xf16>`: reduce within each slice of a register row
    (`in_slice`: into the slice's first element) or across slices (`across_slice`: into
    the first slice)."""

    name = "spyreop.slice_reduction"

    operand = operand_def()
    reduction_kind = opt_prop_def(Attribute)
    reduction_scope = opt_prop_def(Attribute)
    result = result_def()

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def verify_(self) -> None:
        for name, cls in (("reduction_kind", ReductionKindAttr), ("reduction_scope", ReductionScopeAttr)):
            attr = self.properties.get(name)
            if attr is None:
                raise VerifyException(f"requires attribute '{name}'")
            if not isinstance(attr, cls):
                raise VerifyException(f"attribute '{name}' failed to satisfy constraint: #{cls.name}<...>")
        for role, t in (("operand", self.operand.type), ("result", self.result.type)):
            if not isinstance(t, TensorType):
                raise VerifyException(f"{role} #0 must be ranked tensor of any type values, but got '{t}'")
        if self.operand.type != self.result.type:
            raise VerifyException("requires the same type for all operands and results")


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`%c = spyreop.constant 1.500000e+00 : f16`: a register-resident float constant."""

    name = "spyreop.constant"

    # Counts are checked in verify_, with MLIR's wording ("requires zero operands").
    unexpected_operands = var_operand_def()
    value = opt_prop_def(Attribute)
    results_ = var_result_def()

    traits = traits_def(Pure())

    def __init__(self, value: FloatAttr, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[[]], result_types=[[value.type]], properties={"value": value}, attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        parsed = parser.parse_optional_attr_dict()
        start = parser.pos
        value = parser.parse_attribute()
        t = getattr(value, "type", None)
        if not isinstance(t, Attribute):
            parser.raise_error("expected a typed constant value such as `1.5 : f16`", start, parser.pos)
        return cls.build(operands=[[]], result_types=[[t]], properties={"value": value}, attributes=parsed)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self, ("value",))
        printer.print_string(" ")
        printer.print_attribute(self.properties["value"])

    def verify_(self) -> None:
        if self.unexpected_operands:
            raise VerifyException("requires zero operands")
        if len(self.results) != 1:
            raise VerifyException("requires one result")
        _check_type("result", 0, self.results[0].type, IEEE_FLOAT)
        value = self.properties.get("value")
        if value is None:
            raise VerifyException("requires attribute 'value'")
        if getattr(value, "type", None) != self.results[0].type:
            raise VerifyException("failed to verify that all of {value, result} have same type")
        if not isinstance(value, FloatAttr):
            raise VerifyException(f"requires a floating-point value attribute, got {value}")


SPYREOP = Dialect("spyreop", [
    ExpOp, GeluOp, SigmoidOp, SiluOp, SqrtOp, RsqrtOp, ReciprocalOp, RealDivOp, SelectOp, Exx2Op, Exx2FusedOp,
    Exx2ZeroMeanFusedOp, LayerNormScaleOp, LayerNormScaleFusedOp, LayerNormNormOp, AddI32ToI32Op, AddI64ToI64Op,
    MulI32ToI32Op, Idx32ToAddrOp, SoftplusOp, SliceReductionOp, CompareOp, ConstantOp,
], [
    DF16Type, DF16FusedType, FP16FusedType, FP32FusedType, ComparePredicateAttr, ReductionKindAttr, ReductionScopeAttr,
])
