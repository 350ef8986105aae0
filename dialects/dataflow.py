"""The `dataflow` dialect: DataflowIR units, SPMD programs and unit-to-unit transfers.

A DataflowIR program names hardware units with `dataflow.get_unit` (plain `index` handles),
runs one `dataflow.program_unit` body on every unit of a list (SPMD: per-unit differences are
looked up with `uniform.query_map` keyed by the body's `iter_arg`), and moves vectors and
synchronisation signals between units (`send`/`receive`, `sync_send`/`sync_recv`). Memories
are seen through `get_logical_memory_view`, which turns a unit and a start address (in
elements) into a memref.

This module also holds the small helpers the other DFIR dialects (`agen`, `vectorchain`,
`uniform`, `symbol`) share: the vector-type constraint, element counts, and the printing of an
MLIR-style merged attribute dictionary from hand-written printers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (AffineMapAttr, AffineSetAttr, ArrayAttr, BoolAttr, DictionaryAttr, IndexType,
                                   IntAttr, IntegerAttr, IntegerType, MemRefType, StringAttr, VectorType)
from xdsl.ir import (Attribute, Dialect, Operation, ParametrizedAttribute, Region, SpacedOpaqueSyntaxAttribute,
                     SSAValue, TypeAttribute)
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, base, irdl_attr_definition, irdl_op_definition,
                       operand_def, opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def,
                       var_result_def)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import EnumAttribute, StrEnum
from dfsched.dialects.directives import PagedSegments
from dfsched.dialects.syntax import (parse_operand_list, print_attr_dict,  # noqa: F401  (re-exported to the DataflowIR dialects)
                                     add_implicit_terminator, split_attr_dict)

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class CustomVectorType(ParametrizedAttribute, TypeAttribute):
    """`!dataflow.custom_vector<64xT>`: a 1-D vector whose element type need not be builtin (MX formats)."""

    name = "dataflow.custom_vector"

    element_type: Attribute
    num_elements: IntAttr

    def __init__(self, element_type: Attribute, num_elements: int):
        super().__init__(element_type, IntAttr(num_elements))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            shape, element_type = parser.parse_ranked_shape()
            if len(shape) != 1 or shape[0] < 0:
                parser.raise_error("expected '<N x element-type>' with one static dimension", pos, parser.pos)
        return (element_type, IntAttr(shape[0]))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.num_elements.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


_MX_SPELLINGS = {("mxfp", 4): "mxfp4", ("mxfp", 8): "mxfp8", ("mxint", 4): "mxint4"}


@irdl_attr_definition
class CustomMXType(ParametrizedAttribute, TypeAttribute):
    """An MX element type with a short spelling: `!dataflow.custom<mxfp4>`, `<mxfp8>`, `<mxint4>`.

    `!dataflow.mxfp<4>` parses to the same type; widths without a short spelling keep the long
    form (`CustomMXFloatType`, `CustomMXIntType`). Build MX types with `mx_type(family, width)`.
    """

    name = "dataflow.custom"

    family: StringAttr  # "mxfp" | "mxint"
    width: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            word = parser.parse_optional_identifier()
            for (family, width), spelling in _MX_SPELLINGS.items():
                if word == spelling:
                    return (StringAttr(family), IntAttr(width))
            parser.raise_error(f"expected 'mxfp4', 'mxfp8' or 'mxint4' but got '{word or ''}'", pos, parser.pos)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{_MX_SPELLINGS[(self.family.data, self.width.data)]}>")

    def verify(self) -> None:
        if (self.family.data, self.width.data) not in _MX_SPELLINGS:
            raise VerifyException(f"no short spelling for {self.family.data}<{self.width.data}>")


class _MXWidthType(ParametrizedAttribute, TypeAttribute):
    """`!dataflow.mxfp<N>` / `!dataflow.mxint<N>`; normalised to `CustomMXType` when it has a short spelling."""

    FAMILY: ClassVar[str] = ""
    width: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            width = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return (IntAttr(width),)

    @classmethod
    def new(cls, params: Sequence[Attribute]):  # type: ignore[override]
        (width,) = params
        assert isinstance(width, IntAttr)
        if (cls.FAMILY, width.data) in _MX_SPELLINGS:
            return CustomMXType(StringAttr(cls.FAMILY), width)
        return super().new(params)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.width.data}>")


@irdl_attr_definition
class CustomMXFloatType(_MXWidthType):
    name = "dataflow.mxfp"
    FAMILY: ClassVar[str] = "mxfp"


@irdl_attr_definition
class CustomMXIntType(_MXWidthType):
    name = "dataflow.mxint"
    FAMILY: ClassVar[str] = "mxint"


def mx_type(family: str, width: int) -> TypeAttribute:
    """The MX element type of `family` ("mxfp" or "mxint") and `width` bits, in its canonical class."""
    cls = {"mxfp": CustomMXFloatType, "mxint": CustomMXIntType}[family]
    return cls.new([IntAttr(width)])


# ---------------------------------------------------------------------------
# Helpers on vector-like types (dataflow Utils)
# ---------------------------------------------------------------------------

VectorLike = base(VectorType) | base(CustomVectorType)
"""The operand/result constraint `AnyTypeOf<[AnyVectorOfAnyRank, Dataflow_CustomVectorType]>`."""


def int_or_float_bit_width(t: Attribute) -> int | None:
    """The width of a builtin integer/float type or an MX custom element type; None for any other type."""
    from xdsl.dialects.builtin import AnyFloat

    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    if isinstance(t, CustomMXType | CustomMXFloatType | CustomMXIntType):
        return t.width.data
    return None


def num_elements(t: Attribute) -> int | None:
    """Element count of a vector, custom vector or static memref (None if unknown)."""
    if isinstance(t, CustomVectorType):
        return t.num_elements.data
    if isinstance(t, VectorType | MemRefType):
        shape = t.get_shape()
        return None if any(d < 0 for d in shape) else prod(shape)
    return None


def element_type(t: Attribute) -> Attribute | None:
    return t.element_type if isinstance(t, CustomVectorType | VectorType | MemRefType) else None


# ---------------------------------------------------------------------------
# Helpers for hand-written parsers and printers
# ---------------------------------------------------------------------------


def located_format_errors(op_type: type[IRDLOperation]) -> type[IRDLOperation]:
    """Class decorator: a constraint violation met while parsing a declarative format becomes a parse error.

    xDSL's format parser checks operand/result types against their constraints and raises a bare
    VerifyException; this turns it into a located `ParseError` naming the op.
    """
    format_parse = op_type.parse.__func__  # type: ignore[attr-defined]

    def parse(cls, parser: Parser):
        start = parser.pos
        try:
            return format_parse(cls, parser)
        except VerifyException as exc:
            parser.raise_error(f"'{cls.name}' op constraint not satisfied: {exc}", start, parser.pos)

    op_type.parse = classmethod(parse)  # type: ignore[method-assign]
    return op_type


def dfir_dialect(name: str, ops: Sequence[type[IRDLOperation]], attributes: Sequence[type[Attribute]] = ()) -> Dialect:
    """A DataflowIR dialect whose declaratively formatted ops report a constraint violation met
    while parsing as a located parse error (`located_format_errors`)."""
    for op in ops:
        if op.get_irdl_definition().assembly_format is not None:
            located_format_errors(op)
    return Dialect(name, list(ops), list(attributes))


def ensure_implicit_terminator(op: Operation, terminator: type[Operation]) -> Operation:
    """MLIR's `ensureTerminator` on each of `op`'s regions (`add_implicit_terminator`); returns `op`.

    Unlike xDSL's `ensure_terminator`, a block ending in the wrong terminator is left alone so the
    op verifier reports it (as MLIR does), instead of failing inside the parser.
    """
    for region in op.regions:
        add_implicit_terminator(region, terminator)
    return op


class RegionYieldOp(IRDLOperation):
    """The terminator of a DataflowIR dialect's region ops (`agen.yield`, `uniform.yield`),
    implicit when it yields nothing."""

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator())
    assembly_format = "attr-dict ($values^ `:` type($values))?"


def newline(printer: Printer) -> None:
    """MLIR's `printNewline()`: a line break at the current indentation."""
    printer.print_string("\n")


# ---------------------------------------------------------------------------
# Enum attribute: #dataflow<direction Clockwise>
# ---------------------------------------------------------------------------


RoutingDirection = StrEnum("RoutingDirection", {d: d for d in "PseudoRandom CounterClockwise Clockwise BothWays".split()},
                           module=__name__)


@irdl_attr_definition
class RoutingDirectionAttr(EnumAttribute[RoutingDirection], SpacedOpaqueSyntaxAttribute):
    """Routing direction of a transfer on the ring (`dir` on `dataflow.send`)."""

    name = "dataflow.direction"


# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------

_INDEX = IndexType()


@irdl_op_definition
class GetUnitOp(IRDLOperation):
    """A handle on a hardware unit; one `index` result per program time step."""

    name = "dataflow.get_unit"

    unit_name = prop_def(StringAttr, prop_name="name")
    unit_type = prop_def(StringAttr, prop_name="type")
    units = var_result_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type(results)"

    def __init__(self, name: str, type: str, num_results: int = 1,
                 attributes: Mapping[str, Attribute] | None = None):
        super().__init__(result_types=[[_INDEX] * num_results],
                         properties={"name": StringAttr(name), "type": StringAttr(type)},
                         attributes=dict(attributes or {}))

    @property
    def unit(self) -> SSAValue:
        """The handle of the first program time step (upstream `getUnit`)."""
        return self.results[0]

    def _int(self, name: str) -> int | None:
        attr = self.attributes.get(name)
        # `type(...) is` first: a grid's lowering asks each unit for its core millions of times.
        return attr.value.data if type(attr) is IntegerAttr or isinstance(attr, IntegerAttr) else None

    @property
    def core(self) -> int | None:
        return self._int("core")

    @property
    def corelet(self) -> int | None:
        """None for a unit without a corelet (memory units)."""
        return self._int("corelet")

    def verify_(self) -> None:
        if not self.results:
            raise VerifyException("expects at least one result (one unit handle per program time step)")


@irdl_op_definition
class GetLocalUnitOp(IRDLOperation):
    name = "dataflow.get_local_unit"

    unitId = operand_def(IndexType)
    unit_name = prop_def(StringAttr, prop_name="name")
    unit = result_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$unitId attr-dict `:` type(results)"


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Terminator of a `dataflow.program_unit` body (implicit; generic syntax only)."""

    name = "dataflow.return"

    traits = traits_def(IsTerminator())


@irdl_op_definition
class ProgramUnitOp(IRDLOperation):
    """The one program run by every unit in `units` (SPMD); `iter_arg` is "the unit I run on"."""

    name = "dataflow.program_unit"

    units = var_operand_def(IndexType)
    precision = opt_prop_def(StringAttr)
    body = region_def()

    traits = traits_def(SingleBlockImplicitTerminator(ReturnOp))

    def __init__(self, units: Sequence[SSAValue], body: Region):
        super().__init__(operands=[units], regions=[body])
        ensure_implicit_terminator(self, ReturnOp)

    @property
    def iter_arg(self) -> SSAValue | None:
        block = self.body.blocks.first
        return block.args[0] if block is not None and block.args else None

    @classmethod
    def parse(cls, parser: Parser) -> ProgramUnitOp:
        region_args: list[Parser.Argument] = []
        if parser.parse_optional_keyword("iter_arg"):
            parser.parse_punctuation(":")
            region_args.append(parser.parse_argument(expect_type=False).resolve(_INDEX))
            parser.parse_punctuation("->")
            units = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        else:
            units = parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        body = parser.parse_optional_region(region_args)
        if body is None:
            parser.raise_error("expected the program body region")
        if parser.parse_optional_punctuation(","):
            parser.raise_error("'dataflow.program_unit' has exactly one region")
        props, others = split_attr_dict(cls, attrs)
        op = cls.create(operands=[parser.resolve_operand(u, _INDEX) for u in units],
                        properties=props, attributes=others, regions=[body])
        return ensure_implicit_terminator(op, ReturnOp)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        block = self.body.blocks.first
        args = block.args if block is not None else ()
        if args:
            printer.print_string("iter_arg : ")
            printer.print_list(args, printer.print_operand)
            printer.print_string(" -> (")
        operands_text = getattr(printer, "operands_text", None)  # dfsched's printer: one string
        if operands_text is not None:
            printer.print_string(operands_text(self.units))
        else:
            printer.print_list(self.units, printer.print_operand)
        if args:
            printer.print_string(")")
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        term = block.last_op if block is not None else None  # elided when it carries nothing
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=term is not None and bool(
            term.operands or term.results or term.attributes or term.properties))

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None:
            return
        if len(block.args) > 1 or any(a.type != _INDEX for a in block.args):
            raise VerifyException("body may only have one argument, the 'iter_arg' unit handle of type index")


@irdl_op_definition
class CreateGroupOp(IRDLOperation):
    name = "dataflow.create_group"

    unit_ids = var_operand_def(IndexType)
    group_id = result_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    assembly_format = "`(` ($unit_ids^ `:` type($unit_ids))? `)` attr-dict `:` type(results)"


@irdl_op_definition
class CreateMulticastGroupOp(IRDLOperation):
    name = "dataflow.create_multicast_group"

    producer = operand_def(IndexType)
    consumers = var_operand_def(IndexType)
    num_consumers = prop_def(IntegerAttr[IntegerType])
    group_id = prop_def(IntegerAttr[IntegerType])
    count = prop_def(IntegerAttr[IntegerType])
    result = result_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $producer `->` `(` ($consumers^)? `)` `)` attr-dict `:` type(results)"

    def verify_(self) -> None:
        for attr in ("num_consumers", "group_id", "count"):
            _check_i32(getattr(self, attr), attr)
        if self.consumers and len(self.consumers) != self.num_consumers.value.data:
            raise VerifyException(
                f"has {len(self.consumers)} consumers but num_consumers = {self.num_consumers.value.data}")


def _check_i32(attr: IntegerAttr, name: str) -> None:
    if attr.type != IntegerType(32):
        raise VerifyException(f"attribute '{name}' must be a 32-bit signless integer, got {attr.type}")


@irdl_op_definition
class SyncSendOp(IRDLOperation):
    """Sends a synchronisation signal to `to_unit`."""

    name = "dataflow.sync_send"

    to_unit = operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    wait_immediately_for_async_transfers = opt_prop_def(BoolAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$to_unit attr-dict `:` type($to_unit)"


@irdl_op_definition
class SyncRecvOp(IRDLOperation):
    """Waits for a synchronisation signal from `from_unit`."""

    name = "dataflow.sync_recv"

    from_unit = operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$from_unit attr-dict `:` type($from_unit)"


@irdl_op_definition
class ImplicitSyncOnStreamingBufferOp(IRDLOperation):
    name = "dataflow.implicit_sync_on_streaming_buffer"

    memory_unit = operand_def(MemRefType)
    dst_unit = operand_def(IndexType)
    buffer_size = operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$memory_unit `,` $dst_unit `,` $buffer_size attr-dict `:` "
                       "type($memory_unit) `,` type($dst_unit) `,` type($buffer_size)")


@irdl_op_definition
class GetLogicalMemoryViewOp(IRDLOperation):
    """A memref view of a memory unit, starting at `start_address` (in elements), laid out by `layout_map`."""

    name = "dataflow.get_logical_memory_view"

    from_unit = operand_def(IndexType)
    start_address = operand_def(IndexType)
    layout_map = prop_def(AffineMapAttr)
    data = result_def(MemRefType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$from_unit `,` $start_address attr-dict `:` type($from_unit) `,` "
                       "type($start_address) `,` type(results)")

    def __init__(self, from_unit: SSAValue, start_address: SSAValue, layout_map: AffineMapAttr,
                 result_type: MemRefType):
        super().__init__(operands=[from_unit, start_address], result_types=[result_type],
                         properties={"layout_map": layout_map})


@irdl_op_definition
class GetPagedLogicalMemoryViewOp(IRDLOperation):
    """A memref view made of pages; page `i` covers `idx_sets[i]` and starts at `page_start_addrs[i]`."""

    name = "dataflow.get_paged_logical_memory_view"

    unit = operand_def(IndexType)
    start_addr = operand_def(IndexType)
    page_start_addrs = var_operand_def(IndexType)
    layout_map = prop_def(AffineMapAttr)
    idx_sets = prop_def(ArrayAttr)
    data = result_def(MemRefType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (PagedSegments,)
    assembly_format = ("$unit `,` $start_addr attr-dict custom<PagedSegments>($idx_sets, $page_start_addrs) "
                       "`:` type($unit) `,` type($start_addr) `,` type($data)")

    def verify_(self) -> None:
        from xdsl.dialects.arith import ConstantOp

        if len(self.idx_sets.data) != len(self.page_start_addrs):
            raise VerifyException("there should be a start address and idx_set for every page")
        for idx_set, page in zip(self.idx_sets.data, self.page_start_addrs):
            if not isinstance(page.owner, ConstantOp):
                raise VerifyException("page start addresses should be arith::ConstantOp")
            if not isinstance(idx_set, AffineSetAttr):
                raise VerifyException("idx_sets should be IntegerSetAttrs")
            if not _is_hyper_rectangular(idx_set):
                raise VerifyException("idx_set should be hyper rectangular")


def _is_hyper_rectangular(idx_set: AffineSetAttr) -> bool:
    """Every constraint bounds at most one variable (MLIR's `isHyperRectangular` over all columns)."""
    from dfsched.dialects.ktdp_inter_tile import linear_form

    integer_set = idx_set.data
    for constraint in integer_set.constraints:
        row = linear_form(constraint.lhs + (-1 * constraint.rhs), integer_set.num_dims, integer_set.num_symbols)
        if row is None or sum(1 for c in row[:-1] if c) > 1:
            return False
    return True


@irdl_op_definition
class SendOp(IRDLOperation):
    """Sends a vector to the unit `to_unit`."""

    name = "dataflow.send"

    to_unit = operand_def(IndexType)
    send_data = operand_def(VectorLike)
    dir = opt_prop_def(RoutingDirectionAttr)
    dbgName = opt_prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$to_unit `,` $send_data attr-dict `:` type($send_data)"


@irdl_op_definition
class ReceiveOp(IRDLOperation):
    """Receives a vector from the unit `from_unit`."""

    name = "dataflow.receive"

    from_unit = operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    data = result_def(VectorLike)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$from_unit attr-dict `:` type(results)"


@irdl_op_definition
class OpaqueOp(IRDLOperation):
    """An auxiliary function call with its register and parameter bindings."""

    name = "dataflow.opaque"

    dbgName = opt_prop_def(StringAttr)
    func_name = prop_def(StringAttr)
    read_write_register_dictionary = prop_def(DictionaryAttr)
    read_only_register_dictionary = prop_def(DictionaryAttr)
    parameter_dictionary = prop_def(DictionaryAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


DATAFLOW = dfir_dialect("dataflow", [GetUnitOp, GetLocalUnitOp, ProgramUnitOp, ReturnOp, CreateGroupOp,
                                     CreateMulticastGroupOp, SyncSendOp, SyncRecvOp, ImplicitSyncOnStreamingBufferOp,
                                     GetLogicalMemoryViewOp, GetPagedLogicalMemoryViewOp, SendOp, ReceiveOp,
                                     OpaqueOp],
                        [CustomVectorType, CustomMXType, CustomMXFloatType, CustomMXIntType, RoutingDirectionAttr])
