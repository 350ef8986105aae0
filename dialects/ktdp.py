"""The `ktdp` dialect: how a KTIR kernel places, views and moves its data.

Memory views interpret already-allocated memory as strided tensors, access tiles describe
which coordinates of a view a compute tile touches, `load`/`store` move data through them,
and the inter-tile ops describe data exchanged between compute tiles. The syntax is the
one the upstream C++ dialect prints (see `docs/dialects.md#ktdp`), so that
KTIR written for the C++ tools parses here unchanged and our output reads back there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum

from xdsl.dialects.builtin import (
    I32,
    I64,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    BoolAttr,
    ContainerType,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    ShapedType,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    AnyFloat,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import UnresolvedOperand
from dfsched.dialects.affine_subscripts import Subscripts, parse_subscripts, print_subscripts
from dfsched.dialects.ktdp_spellings import (
    check_produce_annotation,
    collapse_delivery,
    delivery_result_types,
    parse_produce_annotation,
    parse_tile_future_partials,
)
from dfsched.dialects.syntax import parse_type_list, print_attr_dict, split_attr_dict

DYNAMIC = -(2**63)  # MLIR's ShapedType::kDynamic, also xDSL's DYNAMIC_INDEX


# ===========================================================================
# Small shared helpers
# ===========================================================================


def _show(value: Attribute | AffineMap | AffineSet) -> str:
    return str(value)


def _type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def _is_ranked_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType)


def _require_prop(op: IRDLOperation, name: str) -> Attribute:
    value = op.properties.get(name)
    if value is None:
        raise VerifyException(f"requires attribute '{name}'")
    return value


def _require_set(op: IRDLOperation, name: str) -> AffineSet:
    value = _require_prop(op, name)
    if not isinstance(value, AffineSetAttr):
        raise VerifyException(
            f"attribute '{name}' failed to satisfy constraint: integer set attribute"
        )
    return value.data


def _require_map(op: IRDLOperation, name: str) -> AffineMap:
    value = _require_prop(op, name)
    if not isinstance(value, AffineMapAttr):
        raise VerifyException(
            f"attribute '{name}' failed to satisfy constraint: AffineMap attribute"
        )
    return value.data


def _parse_set_value(parser: Parser, what: str) -> AffineSetAttr:
    pos = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, AffineSetAttr):
        parser.raise_error(f"expected an integer set (affine_set<...>) for '{what}'", pos)
    return attr


# ===========================================================================
# Types
# ===========================================================================


def _check_access_tile(shape: Sequence[int], element_type: Attribute) -> str | None:
    if not isinstance(element_type, IndexType):
        return f"tile element type must be 'index', but got: {_show(element_type)}"
    if any(d < 0 and d != DYNAMIC for d in shape):
        return "tile dimension size must be dynamic or >= 0"
    return None


@irdl_attr_definition
class AccessTileType(ParametrizedAttribute, TypeAttribute, ShapedType, ContainerType[Attribute]):
    """`!ktdp.access_tile<32x64xindex>`: a tensor-shaped collection of coordinates."""

    name = "ktdp.access_tile"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Iterable[int], element_type: Attribute | None = None):
        super().__init__(
            ArrayAttr([IntAttr(d) for d in shape]),
            IndexType() if element_type is None else element_type,
        )

    def get_num_dims(self) -> int:
        return len(self.shape.data)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def get_element_type(self) -> Attribute:
        return self.element_type

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[ArrayAttr[IntAttr], Attribute]:
        """`32x64xindex`, the part between the angle brackets."""
        dims, element_type = parser.parse_ranked_shape()
        problem = _check_access_tile(dims, element_type)
        if problem:
            parser.raise_error(problem)
        return ArrayAttr([IntAttr(d) for d in dims]), element_type

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            shape = self.get_shape()
            if shape:
                printer.print_dimension_list(shape)
                printer.print_string("x")
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        problem = _check_access_tile(self.get_shape(), self.element_type)
        if problem:
            raise VerifyException(problem)


def _check_runtime_arg(underlying: Attribute, granularity: int | None, upperbound: int | None) -> str | None:
    if not isinstance(underlying, IndexType | IntegerType | AnyFloat):
        return (
            "runtime_arg underlying type must be a builtin type (index, integer, or float), "
            f"but got: {_show(underlying)}"
        )
    if granularity is not None and granularity <= 0:
        return f"runtime_arg granularity must be positive, but got: {granularity}"
    if upperbound is not None and upperbound <= 0:
        return f"runtime_arg upperbound must be positive, but got: {upperbound}"
    return None


@irdl_attr_definition
class RuntimeArgType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.runtime_arg<index, granularity=3, upperbound=300>`: a kernel argument whose
    value is only known at run time, with what is known about it at compile time."""

    name = "ktdp.runtime_arg"

    underlying_type: Attribute
    granularity: IntAttr | NoneAttr
    upperbound: IntAttr | NoneAttr

    def __init__(self, underlying_type: Attribute, granularity: int | None = None, upperbound: int | None = None):
        super().__init__(
            underlying_type,
            NoneAttr() if granularity is None else IntAttr(granularity),
            NoneAttr() if upperbound is None else IntAttr(upperbound),
        )

    def get_granularity(self) -> int | None:
        return None if isinstance(self.granularity, NoneAttr) else self.granularity.data

    def get_upperbound(self) -> int | None:
        return None if isinstance(self.upperbound, NoneAttr) else self.upperbound.data

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[Attribute, Attribute, Attribute]:
        start = parser.pos
        underlying = parser.parse_type()
        found: dict[str, int] = {}
        while parser.parse_optional_punctuation(","):
            key_pos = parser.pos
            key = parser.parse_optional_keyword_in(("granularity", "upperbound"))
            if key is None:
                parser.raise_error("expected 'granularity' or 'upperbound' keyword")
            if key in found:
                parser.raise_error(f"duplicate '{key}' keyword", key_pos)
            parser.parse_punctuation("=")
            found[key] = parser.parse_integer(allow_boolean=False)
        problem = _check_runtime_arg(underlying, found.get("granularity"), found.get("upperbound"))
        if problem:
            parser.raise_error(problem, start)
        built = cls(underlying, found.get("granularity"), found.get("upperbound"))
        return built.underlying_type, built.granularity, built.upperbound

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.underlying_type)
            if (g := self.get_granularity()) is not None:
                printer.print_string(f", granularity={g}")
            if (u := self.get_upperbound()) is not None:
                printer.print_string(f", upperbound={u}")

    def verify(self) -> None:
        problem = _check_runtime_arg(self.underlying_type, self.get_granularity(), self.get_upperbound())
        if problem:
            raise VerifyException(problem)


def _check_tile_future(partials: Sequence[Attribute], groups: AffineSet) -> str | None:
    if not partials:
        return "tile_future must carry at least one partial type"
    for t in partials:
        if not _is_ranked_tensor(t):
            return f"tile_future partial types must be ranked tensors, but got: {_show(t)}"
    if groups.num_dims != 1:
        return "tile_future `groups` must have exactly one dimension (g)"
    if groups.num_symbols != 0:
        return "tile_future `groups` must have no symbols"
    return None


@irdl_attr_definition
class TileFutureType(ParametrizedAttribute, TypeAttribute):
    """`!ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>>`: the
    handle of per-tile partial results in flight between `inter_tile_produce` and the one
    delivery op that consumes them."""

    name = "ktdp.tile_future"

    partial_types: ArrayAttr[Attribute]
    groups: AffineSetAttr

    def __init__(self, partial_types: Iterable[Attribute], groups: AffineSetAttr | AffineSet):
        if isinstance(groups, AffineSet):
            groups = AffineSetAttr(groups)
        super().__init__(ArrayAttr(list(partial_types)), groups)

    def get_partial_types(self) -> tuple[Attribute, ...]:
        return self.partial_types.data

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[ArrayAttr[Attribute], AffineSetAttr]:
        start = parser.pos
        partials = parse_tile_future_partials(parser)
        parser.parse_keyword("groups")
        parser.parse_punctuation("=")
        groups = _parse_set_value(parser, "groups")  # type: ignore[arg-type]
        problem = _check_tile_future(partials, groups.data)
        if problem:
            parser.raise_error(problem, start)
        return ArrayAttr(partials), groups

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            with printer.in_parens():
                _type_list(printer, self.get_partial_types())
            printer.print_string(", groups = ")
            printer.print_attribute(self.groups)

    def verify(self) -> None:
        problem = _check_tile_future(self.get_partial_types(), self.groups.data)
        if problem:
            raise VerifyException(problem)


_KTDP_TYPES = (AccessTileType, RuntimeArgType, TileFutureType)


def parse_ktdp_type(parser: Parser, expected: type[ParametrizedAttribute]) -> Attribute:
    """A ktdp type where an op's syntax expects one: in full (`!ktdp.access_tile<...>`) or
    stripped of its name (`<...>`), which is how MLIR's declarative formats print it."""
    start = parser.pos
    full = parser.parse_optional_type()
    if full is not None:
        if not isinstance(full, expected):
            parser.raise_error(f"expected '!{expected.name}' type, but got '{_show(full)}'", start)
        return full
    parser.parse_punctuation("<", f" or '!{expected.name}' type")
    params = expected.parse_body(parser)  # type: ignore[attr-defined]
    parser.parse_punctuation(">")
    return expected.new(params)


def print_stripped_type(printer: Printer, t: Attribute) -> None:
    """Print a ktdp type as MLIR's declarative formats do: `<...>` without its name."""
    if isinstance(t, _KTDP_TYPES):
        t.print_parameters(printer)
    else:
        printer.print_attribute(t)


# ===========================================================================
# Attributes
# ===========================================================================

MEMORY_SPACE_KINDS = ("global", "ct_local")


def _check_memory_space(kind: str, ct_id: int) -> str | None:
    if kind not in MEMORY_SPACE_KINDS:
        return f"memory space kind must be 'global' or 'ct_local', but got: '{kind}'"
    if ct_id < -1:
        return f"ct_id must be non-negative, but got: {ct_id}"
    if ct_id >= 0 and kind != "ct_local":
        return (
            "ct_id is only valid for ct_local memory spaces, but got memory space "
            f"'{kind}' with ct_id = {ct_id}"
        )
    return None


@irdl_attr_definition
class MemorySpaceAttr(ParametrizedAttribute):
    """`#ktdp.memory_space<global>` / `<ct_local[, ct_id = N]>`: who can reach a memory.

    `global` is reachable by every compute tile, `ct_local` is private to one tile; `ct_id`
    names that tile (-1: not said).
    """

    name = "ktdp.memory_space"

    kind: StringAttr
    ct_id: IntAttr

    def __init__(self, kind: str, ct_id: int = -1):
        super().__init__(StringAttr(kind), IntAttr(ct_id))

    @property
    def is_global(self) -> bool:
        return self.kind.data == "global"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            kind = parser.parse_optional_keyword_in(MEMORY_SPACE_KINDS)
            if kind is None:
                parser.raise_error("expected memory space kind 'global' or 'ct_local'")
            ct_id = -1
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("ct_id")
                parser.parse_punctuation("=")
                ct_id = parser.parse_integer(allow_boolean=False)
            problem = _check_memory_space(kind, ct_id)
            if problem:
                parser.raise_error(problem, start)
        return StringAttr(kind), IntAttr(ct_id)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.kind.data)
            if self.ct_id.data != -1:
                printer.print_string(f", ct_id = {self.ct_id.data}")

    def verify(self) -> None:
        problem = _check_memory_space(self.kind.data, self.ct_id.data)
        if problem:
            raise VerifyException(problem)


class RuntimeArgExtractKind(IntEnum):
    """What `runtime_arg_extract` takes out of a runtime_arg (an I32 enum upstream)."""

    value = 0
    granularity = 1
    upperbound = 2


# ===========================================================================
# Operations: tile ids, memory views, access tiles, load/store, runtime args
# ===========================================================================


@irdl_op_definition
class RegionTerminatorOp(IRDLOperation):
    """Implicit terminator of `construct_indirect_access_tile`'s hidden region."""

    name = "ktdp.region_terminator"

    traits = traits_def(IsTerminator())

    def __init__(self):
        super().__init__()

    @classmethod
    def parse(cls, parser: Parser) -> RegionTerminatorOp:
        op = cls()
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)


@irdl_op_definition
class GetComputeTileIdOp(IRDLOperation):
    """`%id = ktdp.get_compute_tile_id : index`: which compute tile runs this code (one
    index per dimension of the function's `grid`)."""

    name = "ktdp.get_compute_tile_id"

    ids = var_result_def()

    traits = traits_def(Pure())

    def __init__(self, num_dims: int = 1):
        super().__init__(result_types=[[IndexType()] * num_dims])

    @classmethod
    def parse(cls, parser: Parser) -> GetComputeTileIdOp:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parse_type_list(parser)
        op = cls.build(result_types=[types], attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        _type_list(printer, self.result_types)

    def verify_(self) -> None:
        if not self.results:
            raise VerifyException("must return at least one index (num tile-grid dims >= 1)")
        if any(not isinstance(t, IndexType) for t in self.result_types):
            raise VerifyException("all results must be IndexType")


def tile_id_covers_grid(num_ids: int, grid: Sequence[int]) -> bool:
    """Whether a `get_compute_tile_id` with `num_ids` results can name the tiles of `grid`:
    one id per dimension, where trailing unit dimensions may be left out (Triton declares
    `grid = [N, 1]` and asks for one id); the ids are the leading coordinates."""
    return num_ids == len(grid) or (0 < num_ids < len(grid) and all(d == 1 for d in grid[num_ids:]))


def _operand_key(operand: UnresolvedOperand) -> tuple[str, int]:
    return operand.operand_name, operand.index


def _parse_dim_subscripts(parser: Parser, *, brackets: bool) -> Subscripts:
    """Affine subscripts over SSA ids (`affine_subscripts.py`); ktdp passes symbols apart, in
    `symbols(...)`, so `symbol(%s)` is refused here."""
    start = parser.pos
    subscripts = parse_subscripts(parser, brackets=brackets)
    if subscripts.map.num_symbols:
        parser.raise_error("a ktdp subscript takes no 'symbol(...)': pass symbols in 'symbols(...)'", start)
    return subscripts


def _index_operands(parser: Parser, operands: Sequence[UnresolvedOperand]) -> list[SSAValue]:
    return [parser.resolve_operand(o, IndexType()) for o in operands]


def _parse_dynamic_index_list(parser: Parser) -> tuple[list[UnresolvedOperand], list[int]]:
    """MLIR's `custom<DynamicIndexList>`: `[32, %n]`; SSA entries become kDynamic."""
    dynamic: list[UnresolvedOperand] = []
    static: list[int] = []

    def entry() -> None:
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            dynamic.append(operand)
            static.append(DYNAMIC)
            return
        value = parser.parse_optional_integer(allow_boolean=False)
        if value is None:
            parser.raise_error("expected an integer or an SSA value of type index")
        static.append(value)

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
    return dynamic, static


def _print_dynamic_index_list(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    values = iter(dynamic)

    def entry(v: int) -> None:
        if v == DYNAMIC:
            value = next(values, None)
            if value is None:
                printer.print_string("<<missing operand>>")
            else:
                printer.print_operand(value)
        else:
            printer.print_string(str(v))

    with printer.in_square_brackets():
        printer.print_list(static, entry)


@irdl_op_definition
class ConstructMemoryViewOp(IRDLOperation):
    """`ktdp.construct_memory_view %addr, sizes: [96, 64], strides: [64, 1] {...} : memref<...>`

    Views already-allocated memory at `offset` as a strided tensor; allocates nothing.
    `coordinate_set` says which global coordinates the view covers, `memory_space` who can
    reach it.
    """

    name = "ktdp.construct_memory_view"

    offset = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_sizes = prop_def(DenseArrayBase[I64])
    static_strides = prop_def(DenseArrayBase[I64])
    memory_space = opt_prop_def(Attribute)
    coordinate_set = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        offset: SSAValue,
        static_sizes: Sequence[int],
        static_strides: Sequence[int],
        result_type: Attribute,
        memory_space: Attribute,
        coordinate_set: AffineSetAttr | AffineSet,
        sizes: Sequence[SSAValue] = (),
        strides: Sequence[SSAValue] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if isinstance(coordinate_set, AffineSet):
            coordinate_set = AffineSetAttr(coordinate_set)
        super().__init__(
            operands=[offset, sizes, strides],
            result_types=[result_type],
            properties={
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
                "memory_space": memory_space,
                "coordinate_set": coordinate_set,
            },
            attributes=attributes,
        )

    def get_static_sizes(self) -> tuple[int, ...]:
        return tuple(self.static_sizes.get_values())

    def get_static_strides(self) -> tuple[int, ...]:
        return tuple(self.static_strides.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> ConstructMemoryViewOp:
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("sizes")
        parser.parse_punctuation(":")
        dyn_sizes, static_sizes = _parse_dynamic_index_list(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("strides")
        parser.parse_punctuation(":")
        dyn_strides, static_strides = _parse_dynamic_index_list(parser)
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        props["static_sizes"] = DenseArrayBase.from_list(i64, static_sizes)
        props["static_strides"] = DenseArrayBase.from_list(i64, static_strides)
        return cls.build(
            operands=[
                parser.resolve_operand(offset, IndexType()),
                _index_operands(parser, dyn_sizes),
                _index_operands(parser, dyn_strides),
            ],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.offset)
        printer.print_string(", sizes: ")
        _print_dynamic_index_list(printer, self.get_static_sizes(), self.sizes)
        printer.print_string(", strides: ")
        _print_dynamic_index_list(printer, self.get_static_strides(), self.strides)
        print_attr_dict(printer, self, ("static_sizes", "static_strides"))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        memory_space = _require_prop(self, "memory_space")
        if not isinstance(memory_space, MemorySpaceAttr):
            raise VerifyException(
                "attribute 'memory_space' failed to satisfy constraint: ktdp memory space "
                f"attribute (#ktdp.memory_space<...>), but got {_show(memory_space)}"
            )
        if self.properties.get("coordinate_set") is None:
            raise VerifyException(_missing_coordinate_set(self.get_static_sizes()))
        _require_set(self, "coordinate_set")
        sizes, strides = self.get_static_sizes(), self.get_static_strides()
        if len(sizes) != len(strides):
            raise VerifyException("static_sizes and static_strides must have equal length")
        if len(self.sizes) != sizes.count(DYNAMIC):
            raise VerifyException(
                "number of dynamic size operands does not match kDynamic entries in static_sizes"
            )
        if len(self.strides) != strides.count(DYNAMIC):
            raise VerifyException(
                "number of dynamic stride operands does not match kDynamic entries in static_strides"
            )
        result_type = self.result.type
        if not isinstance(result_type, MemRefType):
            raise VerifyException("result must be a memref type")
        if result_type.get_num_dims() != len(sizes):
            raise VerifyException("result memref rank does not match sizes/strides length")


def _missing_coordinate_set(sizes: Sequence[int]) -> str:
    """The error for a view without `coordinate_set`, with the attribute the view's static
    sizes call for (upstream KTIR requires it: the view's place in the global tensor)."""
    text = "requires attribute 'coordinate_set' (the global coordinates the view covers)"
    if not sizes or any(d == DYNAMIC for d in sizes):
        return text + "; add `coordinate_set = affine_set<(d0, ...) : (...)>` to its attributes"
    dims = ", ".join(f"d{i}" for i in range(len(sizes)))
    bounds = ", ".join(f"d{i} >= 0, -d{i} + {d - 1} >= 0" for i, d in enumerate(sizes))
    return text + f"; for these sizes add `coordinate_set = affine_set<({dims}) : ({bounds})>` to its attributes"


@irdl_op_definition
class ConstructDistributedMemoryViewOp(IRDLOperation):
    """`ktdp.construct_distributed_memory_view (%a, %b : T, T) : memref<...>`: one logical
    view over the union of its inputs' coordinate sets; the storage stays in the inputs."""

    name = "ktdp.construct_distributed_memory_view"

    memrefs = var_operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, memrefs: Sequence[SSAValue], result_type: Attribute):
        super().__init__(operands=[memrefs], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstructDistributedMemoryViewOp:
        parser.parse_punctuation("(")
        operands: list[SSAValue] = []
        if not parser.parse_optional_punctuation(")"):
            pos = parser.pos
            names = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            operands = parser.resolve_operands(names, types, pos)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        return cls.build(operands=[operands], result_types=[result_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")  # MLIR prints no space before a format's leading `(`
        if self.memrefs:
            printer.print_list(self.memrefs, printer.print_operand)
            printer.print_string(" : ")
            _type_list(printer, self.memrefs.types)
        printer.print_string(")")
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        result_type = self.result.type
        if not isinstance(result_type, MemRefType):
            raise VerifyException("result must be a memref type")
        for t in self.memrefs.types:
            if not isinstance(t, MemRefType):
                raise VerifyException("all inputs must be memref types")
            if t.element_type != result_type.element_type:
                raise VerifyException(
                    "all input memrefs must have the same element type as the result"
                )
            if t.get_num_dims() != result_type.get_num_dims():
                raise VerifyException("all input memrefs must have the same rank as the result")


def _check_memref_or_tensor(t: Attribute, what: str) -> None:
    if not isinstance(t, MemRefType | TensorType | UnrankedTensorType):
        raise VerifyException(
            f"{what} must be memref of any type values or tensor of any type values, "
            f"but got '{_show(t)}'"
        )


def _check_access_tile_result(op: IRDLOperation) -> AccessTileType:
    t = op.results[0].type
    if not isinstance(t, AccessTileType):
        raise VerifyException(
            f"result #0 must be a ktdp access tile (!ktdp.access_tile<...>), but got '{_show(t)}'"
        )
    return t


@irdl_op_definition
class ConstructAccessTileOp(IRDLOperation):
    """`ktdp.construct_access_tile %view[%i, %j] {access_tile_set = ..., access_tile_order = ...}
    : memref<...> -> !ktdp.access_tile<...>`

    The coordinates `access_tile_set` describes, taken relative to the anchor
    `base_map(indices)` and enumerated in `access_tile_order`. No memory is touched.
    """

    name = "ktdp.construct_access_tile"

    base = operand_def()
    indices = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    base_map = prop_def(AffineMapAttr)
    access_tile_set = opt_prop_def(Attribute)
    access_tile_order = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        result_type: Attribute,
        base: SSAValue,
        base_map: AffineMap,
        indices: Sequence[SSAValue],
        access_tile_set: AffineSet,
        access_tile_order: AffineMap,
        symbol_operands: Sequence[SSAValue] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[base, indices, symbol_operands],
            result_types=[result_type],
            properties={
                "base_map": AffineMapAttr(base_map),
                "access_tile_set": AffineSetAttr(access_tile_set),
                "access_tile_order": AffineMapAttr(access_tile_order),
            },
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstructAccessTileOp:
        start = parser.pos
        base = parser.parse_unresolved_operand()
        subscripts = _parse_dim_subscripts(parser, brackets=True)
        base_map = subscripts.map
        symbols: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("symbols"):
            symbols = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        base_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parse_ktdp_type(parser, AccessTileType)

        def fail(message: str):
            parser.raise_error(f"'{cls.name}' op {message}", start)

        tile_set = props.get("access_tile_set")
        if tile_set is None:
            fail("Access tile set is missing in the operation")
        if not isinstance(tile_set, AffineSetAttr):
            fail("access_tile_set must be an integer set (affine_set<...>)")
        if tile_set.data.num_dims != len(base_map.results):
            fail("Access tile set and Base input dimensions should match")
        if tile_set.data.num_symbols != len(symbols):
            fail(
                f"access_tile_set has {tile_set.data.num_symbols} symbols but got "
                f"{len(symbols)} symbol operands"
            )
        order = props.get("access_tile_order")
        if order is None:
            fail("Access tile order is missing in the operation")
        if not isinstance(order, AffineMapAttr):
            fail("access_tile_order must be an affine map (affine_map<...>)")
        if order.data.num_dims != len(order.data.results):
            fail(
                "Number of input dimensions and output dimensions in the access tile order "
                "should match"
            )
        if len(order.data.results) != tile_set.data.num_dims:
            fail("Number of dimensions in the access tile order and access tile set must match!")

        props["base_map"] = AffineMapAttr(base_map)
        return cls.build(
            operands=[
                parser.resolve_operand(base, base_type),
                _index_operands(parser, subscripts.operands),
                _index_operands(parser, symbols),
            ],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        print_subscripts(printer, self.base_map.data, self.indices)
        if self.symbol_operands:
            printer.print_string(" symbols(")
            printer.print_list(self.symbol_operands, printer.print_operand)
            printer.print_string(")")
        print_attr_dict(printer, self, ("base_map",))
        printer.print_string(" : ")
        printer.print_attribute(self.base.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _check_memref_or_tensor(self.base.type, "operand #0")
        result_type = _check_access_tile_result(self)
        tile_set = _require_set(self, "access_tile_set")
        order = _require_map(self, "access_tile_order")
        base_map = self.base_map.data
        if tile_set.num_dims != len(base_map.results):
            raise VerifyException(
                f"access_tile_set dimensions ({tile_set.num_dims}) must match base_map dims "
                f"({len(base_map.results)})"
            )
        if base_map.num_dims + base_map.num_symbols != len(self.indices):
            raise VerifyException(
                f"base_map expects {base_map.num_dims + base_map.num_symbols} operands but got "
                f"{len(self.indices)}"
            )
        if tile_set.num_symbols != len(self.symbol_operands):
            raise VerifyException(
                f"access_tile_set has {tile_set.num_symbols} symbols but got "
                f"{len(self.symbol_operands)} symbol operands"
            )
        if order.num_dims != len(order.results):
            raise VerifyException(
                f"access_tile_order must have equal number of inputs ({order.num_dims}) and "
                f"outputs ({len(order.results)})"
            )
        if len(order.results) != tile_set.num_dims:
            raise VerifyException(
                f"access_tile_order dimensions ({len(order.results)}) must match "
                f"access_tile_set dimensions ({tile_set.num_dims})"
            )
        _check_result_rank(result_type, tile_set, "access_tile_set")


def _check_result_rank(result_type: AccessTileType, space: AffineSet, set_name: str) -> None:
    """The access tile made has one dimension per dimension of the set it ranges over."""
    if result_type.get_num_dims() != space.num_dims:
        raise VerifyException(
            f"result type rank ({result_type.get_num_dims()}) must match {set_name} dimensions ({space.num_dims})"
        )


@irdl_op_definition
class ConstructIndirectAccessTileOp(IRDLOperation):
    """`ktdp.construct_indirect_access_tile intermediate_variables(%m, %k)
    %X[ind(%IDX[%m, %k]), (%k mod 64)] {...} : T, T_idx -> !ktdp.access_tile<...>`

    A gather/scatter access tile: per point of the intermediate-variable space, a direct
    subscript is a coordinate, an indirect one is read from an index view. The
    intermediate variables are the block arguments of a hidden region; other SSA ids in
    the subscripts are captured operands. Every subscript map is stored over the dims
    `(captured..., intermediate...)`.
    """

    name = "ktdp.construct_indirect_access_tile"

    base = operand_def()
    indirect_memrefs = var_operand_def()
    captured_variables = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    per_dim_subscript_kinds = prop_def(ArrayAttr)
    per_dim_subscript_maps = prop_def(ArrayAttr)
    variables_space_set = opt_prop_def(Attribute)
    variables_space_order = opt_prop_def(Attribute)
    region = region_def()
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(RegionTerminatorOp), MemoryReadEffect())
    )

    def __init__(
        self,
        result_type: Attribute,
        base: SSAValue,
        per_dim_subscript_kinds: Sequence[bool],
        per_dim_subscript_maps: Sequence[AffineMap],
        indirect_memrefs: Sequence[SSAValue],
        captured_variables: Sequence[SSAValue],
        variables_space_set: AffineSet,
        variables_space_order: AffineMap,
        symbol_operands: Sequence[SSAValue] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        body = Block(arg_types=[IndexType()] * variables_space_set.num_dims)
        body.add_op(RegionTerminatorOp())
        super().__init__(
            operands=[base, indirect_memrefs, captured_variables, symbol_operands],
            result_types=[result_type],
            properties={
                "per_dim_subscript_kinds": ArrayAttr([BoolAttr.from_bool(k) for k in per_dim_subscript_kinds]),
                "per_dim_subscript_maps": ArrayAttr([AffineMapAttr(m) for m in per_dim_subscript_maps]),
                "variables_space_set": AffineSetAttr(variables_space_set),
                "variables_space_order": AffineMapAttr(variables_space_order),
            },
            attributes=attributes,
            regions=[Region(body)],
        )

    @property
    def intermediate_variables(self) -> tuple[SSAValue, ...]:
        block = self.region.blocks.first
        return () if block is None else tuple(block.args)

    def subscript_kinds(self) -> list[bool]:
        return [bool(k.value.data) for k in self.per_dim_subscript_kinds.data if isinstance(k, IntegerAttr)]

    @classmethod
    def parse(cls, parser: Parser) -> ConstructIndirectAccessTileOp:
        start = parser.pos

        def fail(message: str, at=None):
            parser.raise_error(f"'{cls.name}' op {message}", start if at is None else at)

        if not parser.parse_optional_keyword("intermediate_variables"):
            fail("error parsing intermediate_variables: expected 'intermediate_variables(...)'", parser.pos)
        variables = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        variable_keys = [_operand_key(v) for v in variables]
        if len(set(variable_keys)) != len(variable_keys):
            fail("error parsing intermediate_variables: a name is repeated")
        base = parser.parse_unresolved_operand()

        kinds: list[bool] = []
        local_maps: list[list[AffineExpr]] = []
        local_ids: list[list[UnresolvedOperand]] = []
        indirect: list[UnresolvedOperand] = []
        parser.parse_punctuation("[")
        while not parser.parse_optional_punctuation("]"):
            if kinds and not parser.parse_optional_punctuation(","):
                fail("expecting a comma between subscripts", parser.pos)
            if parser.parse_optional_keyword("ind"):
                parser.parse_punctuation("(")
                indirect.append(parser.parse_unresolved_operand())
                subscripts = _parse_dim_subscripts(parser, brackets=True)
                parser.parse_punctuation(")")
                kinds.append(True)
            elif parser.parse_optional_punctuation("("):
                subscripts = _parse_dim_subscripts(parser, brackets=False)
                parser.parse_punctuation(")")
                kinds.append(False)
            else:
                fail("unexpected token in subscript list, expected 'ind', '(', or ']'", parser.pos)
            local_maps.append(list(subscripts.map.results))
            local_ids.append(subscripts.operands)

        symbols: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("symbols"):
            symbols = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())

        # Captured variables: the ids that are not intermediate, in first-appearance order.
        captured: list[UnresolvedOperand] = []
        seen: set[tuple[str, int]] = set(variable_keys)
        for ids in local_ids:
            for operand in ids:
                if _operand_key(operand) not in seen:
                    seen.add(_operand_key(operand))
                    captured.append(operand)
        unified = [_operand_key(o) for o in captured] + variable_keys
        position = {k: i for i, k in enumerate(unified)}
        maps = []
        for exprs, ids in zip(local_maps, local_ids):
            dims = [AffineExpr.dimension(position[_operand_key(o)]) for o in ids]
            maps.append(
                AffineMap(len(unified), 0, tuple(e.replace_dims_and_symbols(dims, []) for e in exprs))
            )

        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        result_type = parse_ktdp_type(parser, AccessTileType)
        if len(types) != len(indirect) + 1:
            fail(
                f"expected {len(indirect) + 1} types (base + {len(indirect)} indirect memrefs), "
                f"but got {len(types)}"
            )
        space = props.get("variables_space_set")
        if isinstance(space, AffineSetAttr) and space.data.num_symbols != len(symbols):
            fail(
                f"variables_space_set has {space.data.num_symbols} symbols but got "
                f"{len(symbols)} symbol operands"
            )

        index = IndexType()
        body = Block(arg_types=[index] * len(variables))
        for arg, name in zip(body.args, variables):
            if SSAValue.is_valid_name(name.operand_name):
                arg.name_hint = name.operand_name
        props["per_dim_subscript_kinds"] = ArrayAttr([BoolAttr.from_bool(k) for k in kinds])
        props["per_dim_subscript_maps"] = ArrayAttr([AffineMapAttr(m) for m in maps])
        op = cls.build(
            operands=[
                parser.resolve_operand(base, types[0]),
                [parser.resolve_operand(o, t) for o, t in zip(indirect, types[1:])],
                _index_operands(parser, captured),
                _index_operands(parser, symbols),
            ],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
            regions=[Region(body)],
        )
        ensure_terminator(op, SingleBlockImplicitTerminator(RegionTerminatorOp))
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" intermediate_variables(")
        printer.print_list(self.intermediate_variables, printer.print_operand)
        printer.print_string(") ")
        printer.print_operand(self.base)
        printer.print_string("[")
        variables = [*self.captured_variables, *self.intermediate_variables]
        indirect = iter(self.indirect_memrefs)
        maps = [m.data for m in self.per_dim_subscript_maps.data if isinstance(m, AffineMapAttr)]
        for i, (is_indirect, amap) in enumerate(zip(self.subscript_kinds(), maps)):
            if i:
                printer.print_string(", ")
            if is_indirect:
                printer.print_string("ind(")
                index_view = next(indirect, None)
                if index_view is None:
                    printer.print_string("<<missing index view>>")
                else:
                    printer.print_operand(index_view)
                print_subscripts(printer, amap, variables)
                printer.print_string(")")
            else:
                printer.print_string("(")
                print_subscripts(printer, amap, variables, brackets=False)
                printer.print_string(")")
        printer.print_string("]")
        if self.symbol_operands:
            printer.print_string(" symbols(")
            printer.print_list(self.symbol_operands, printer.print_operand)
            printer.print_string(")")
        print_attr_dict(printer, self, ("per_dim_subscript_kinds", "per_dim_subscript_maps"))
        printer.print_string(" : ")
        _type_list(printer, [self.base.type, *self.indirect_memrefs.types])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _check_memref_or_tensor(self.base.type, "operand #0")
        for i, t in enumerate(self.indirect_memrefs.types):
            if not isinstance(t, MemRefType):
                raise VerifyException(
                    f"operand #{i + 1} must be variadic of memref of any type values, but got "
                    f"'{_show(t)}'"
                )
        result_type = _check_access_tile_result(self)
        space = _require_set(self, "variables_space_set")
        order = _require_map(self, "variables_space_order")
        if space.num_dims != order.num_dims:
            raise VerifyException(
                f"variables_space_set dimensions ({space.num_dims}) must match "
                f"variables_space_order inputs ({order.num_dims})"
            )
        if order.num_dims != len(order.results):
            raise VerifyException(
                f"variables_space_order must have equal number of inputs ({order.num_dims}) and "
                f"outputs ({len(order.results)})"
            )
        variables = self.intermediate_variables
        if len(variables) != space.num_dims:
            raise VerifyException(
                f"number of intermediate variables ({len(variables)}) must match "
                f"variables_space_set dimensions ({space.num_dims})"
            )
        if any(not isinstance(v.type, IndexType) for v in variables):
            raise VerifyException("intermediate variables must be of type index")
        if space.num_symbols != len(self.symbol_operands):
            raise VerifyException(
                f"variables_space_set has {space.num_symbols} symbols but got "
                f"{len(self.symbol_operands)} symbol operands"
            )
        kinds = self.per_dim_subscript_kinds.data
        maps = self.per_dim_subscript_maps.data
        if len(kinds) != len(maps):
            raise VerifyException(
                f"per_dim_subscript_kinds size ({len(kinds)}) must match per_dim_subscript_maps "
                f"size ({len(maps)})"
            )
        base_type = self.base.type
        if not isinstance(base_type, MemRefType | TensorType):
            raise VerifyException("base must be a ranked memref or tensor type")
        if len(kinds) != base_type.get_num_dims():
            raise VerifyException(
                f"number of subscripts ({len(kinds)}) must match base rank "
                f"({base_type.get_num_dims()})"
            )
        for k in kinds:
            if not (isinstance(k, IntegerAttr) and k.type == IntegerType(1)):
                raise VerifyException("per_dim_subscript_kinds must contain BoolAttr elements")
        flags = self.subscript_kinds()
        if sum(flags) != len(self.indirect_memrefs):
            raise VerifyException(
                f"number of indirect dimensions ({sum(flags)}) must match number of indirect "
                f"memrefs ({len(self.indirect_memrefs)})"
            )
        expected_dims = len(self.captured_variables) + len(variables)
        indirect_types = iter(self.indirect_memrefs.types)
        for i, (flag, attr) in enumerate(zip(flags, maps)):
            if not isinstance(attr, AffineMapAttr):
                raise VerifyException(f"per_dim_subscript_maps[{i}] must be an AffineMapAttr")
            amap = attr.data
            if amap.num_dims != expected_dims:
                raise VerifyException(
                    f"subscript map for dimension {i} has {amap.num_dims} dimensions, but "
                    f"expected {expected_dims} (captured_variables + intermediate_variables)"
                )
            if flag:
                index_type = next(indirect_types)
                rank = index_type.get_num_dims() if isinstance(index_type, MemRefType | TensorType) else 0
                if len(amap.results) != rank:
                    raise VerifyException(
                        f"indirect subscript map for dimension {i} produces {len(amap.results)} "
                        f"results, but indirect memref has rank {rank}"
                    )
            elif len(amap.results) != 1:
                raise VerifyException(
                    f"direct subscript map for dimension {i} must produce exactly 1 result, but "
                    f"produces {len(amap.results)}"
                )
        _check_result_rank(result_type, space, "variables_space_set")


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`%d = ktdp.load %tile : <32x64xindex> -> tensor<32x64xf16>`: gather the elements at
    the tile's coordinates into a tensor of the tile's shape."""

    name = "ktdp.load"

    access_tile = operand_def(AccessTileType)
    result = result_def()

    traits = traits_def(MemoryReadEffect())

    def __init__(self, access_tile: SSAValue, result_type: Attribute, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[access_tile], result_types=[result_type], attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        tile = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tile_type = parse_ktdp_type(parser, AccessTileType)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls(parser.resolve_operand(tile, tile_type), result_type, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.access_tile)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_stripped_type(printer, self.access_tile.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _check_tensor_of_tile(self.result.type, self.access_tile.type, "result #0", "result",
                              "access tile shape must match result tensor shape")


def _check_tensor_of_tile(t: Attribute, tile: Attribute, slot: str, name: str, mismatch: str) -> None:
    """`t`, the op's `slot` (`result #0`, `operand #0`) called `name`, is a ranked tensor of the
    access tile's shape (ktdp.load's result, ktdp.store's data)."""
    if not isinstance(t, TensorType | UnrankedTensorType):
        raise VerifyException(f"{slot} must be tensor of any type values, but got '{_show(t)}'")
    if not isinstance(t, TensorType):
        raise VerifyException(f"{name} must be a ranked tensor")
    assert isinstance(tile, AccessTileType)
    if tuple(t.get_shape()) != tile.get_shape():
        raise VerifyException(mismatch)


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`ktdp.store %d, %tile : tensor<32x64xf16>, <32x64xindex>`: scatter a tensor to the
    tile's coordinates, one element per coordinate."""

    name = "ktdp.store"

    data_tile = operand_def()
    access_tile = operand_def(AccessTileType)

    traits = traits_def(MemoryWriteEffect())

    def __init__(self, data_tile: SSAValue, access_tile: SSAValue, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[data_tile, access_tile], attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        data = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        tile = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        data_type = parser.parse_type()
        parser.parse_punctuation(",")
        tile_type = parse_ktdp_type(parser, AccessTileType)
        return cls(parser.resolve_operand(data, data_type), parser.resolve_operand(tile, tile_type), attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.data_tile)
        printer.print_string(", ")
        printer.print_operand(self.access_tile)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.data_tile.type)
        printer.print_string(", ")
        print_stripped_type(printer, self.access_tile.type)

    def verify_(self) -> None:
        _check_tensor_of_tile(self.data_tile.type, self.access_tile.type, "operand #0", "data_tile",
                              "data tile shape must match access tile shape")


@irdl_op_definition
class RuntimeArgExtractOp(IRDLOperation):
    """`%v = ktdp.runtime_arg_extract value from %a : <index, granularity=3> -> index`:
    the value of a runtime argument, or what is known of it (`granularity`, `upperbound`)."""

    name = "ktdp.runtime_arg_extract"

    input = operand_def(RuntimeArgType)
    kind = prop_def(IntegerAttr[I32])
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, kind: RuntimeArgExtractKind, input: SSAValue, result_type: Attribute | None = None):
        if result_type is None:
            assert isinstance(input.type, RuntimeArgType)
            result_type = input.type.underlying_type if kind == RuntimeArgExtractKind.value else IndexType()
        super().__init__(
            operands=[input], result_types=[result_type], properties={"kind": IntegerAttr(int(kind), i32)}
        )

    def get_kind(self) -> RuntimeArgExtractKind | None:
        try:
            return RuntimeArgExtractKind(self.kind.value.data)
        except ValueError:
            return None

    @classmethod
    def parse(cls, parser: Parser) -> RuntimeArgExtractOp:
        names = [k.name for k in RuntimeArgExtractKind]
        kind = parser.parse_optional_keyword_in(names)
        if kind is None:
            parser.raise_error(f"expected one of {', '.join(names)}")
        parser.parse_keyword("from")
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parse_ktdp_type(parser, RuntimeArgType)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(RuntimeArgExtractKind[kind], parser.resolve_operand(source, source_type), result_type)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        kind = self.get_kind()
        printer.print_string(f" {kind.name if kind is not None else self.kind.value.data} from ")
        printer.print_operand(self.input)
        printer.print_string(" : ")
        print_stripped_type(printer, self.input.type)
        print_attr_dict(printer, self, ("kind",))
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        kind = self.get_kind()
        if kind is None:
            raise VerifyException(
                "attribute 'kind' failed to satisfy constraint: 32-bit signless integer attribute "
                "whose value is 0, 1, or 2"
            )
        source = self.input.type
        assert isinstance(source, RuntimeArgType)
        result_type = self.result.type
        if kind == RuntimeArgExtractKind.value:
            if result_type != source.underlying_type:
                raise VerifyException(
                    f"result type ({_show(result_type)}) must match runtime_arg underlying type "
                    f"({_show(source.underlying_type)}) when extracting value"
                )
            return
        present = source.get_granularity() if kind == RuntimeArgExtractKind.granularity else source.get_upperbound()
        if present is None:
            raise VerifyException(f"cannot extract {kind.name} from runtime_arg that doesn't have one")
        if not isinstance(result_type, IndexType):
            raise VerifyException(
                f"result type must be index when extracting {kind.name}, but got {_show(result_type)}"
            )


# ===========================================================================
# Inter-tile communication
# ===========================================================================


def _check_ranked_tensor_operands(op: IRDLOperation, values: Sequence[SSAValue], first_index: int = 0) -> None:
    for i, v in enumerate(values):
        if not _is_ranked_tensor(v.type):
            raise VerifyException(
                f"operand #{first_index + i} must be variadic of ranked tensor of any type "
                f"values, but got '{_show(v.type)}'"
            )


def _parse_yield_values(parser: Parser) -> tuple[list[SSAValue], dict[str, Attribute]]:
    """`($values^ : type($values))? attr-dict`"""
    values: list[SSAValue] = []
    first = parser.parse_optional_unresolved_operand()
    if first is not None:
        pos = parser.pos
        names = [first]
        while parser.parse_optional_punctuation(","):
            names.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        values = parser.resolve_operands(names, types, pos)
    return values, parser.parse_optional_attr_dict()


def _print_yield_values(printer: Printer, op: IRDLOperation) -> None:
    if op.operands:
        printer.print_string(" ")
        printer.print_list(op.operands, printer.print_operand)
        printer.print_string(" : ")
        _type_list(printer, op.operand_types)
    print_attr_dict(printer, op)


class _YieldTensorsOp(IRDLOperation):
    """Syntax and checks shared by the yields of the inter-tile regions: `%v, ... : types`,
    every value a ranked tensor."""

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser):
        values, attrs = _parse_yield_values(parser)
        op = cls(values)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_yield_values(printer, self)

    def verify_(self) -> None:
        _check_ranked_tensor_operands(self, self.values)


@irdl_op_definition
class YieldPartialOp(_YieldTensorsOp):
    """`ktdp.yield_partial %p : tensor<...>`: a tile's contribution, one value per role."""

    name = "ktdp.yield_partial"

    values = var_operand_def()

    traits = lazy_traits_def(
        lambda: (IsTerminator(), ReturnLike(), Pure(), HasParent(InterTileProduceOp))
    )


@irdl_op_definition
class YieldReducedOp(_YieldTensorsOp):
    """`ktdp.yield_reduced %s : tensor<...>`: the combination of two partials, per role."""

    name = "ktdp.yield_reduced"

    values = var_operand_def()

    traits = lazy_traits_def(
        lambda: (IsTerminator(), ReturnLike(), Pure(), HasParent(InterTileReduceOp))
    )


# -- enumerating small integer sets (the disjointness check of inter_tile_produce) ----------


def _linear(expr: AffineExpr, num_dims: int, num_symbols: int) -> list[int] | None:
    """Coefficients [dims..., symbols..., constant] of a linear `expr`, None otherwise."""
    width = num_dims + num_symbols + 1
    if isinstance(expr, AffineConstantExpr):
        row = [0] * width
        row[-1] = expr.value
        return row
    if isinstance(expr, AffineDimExpr):
        row = [0] * width
        row[expr.position] = 1
        return row
    if isinstance(expr, AffineSymExpr):
        row = [0] * width
        row[num_dims + expr.position] = 1
        return row
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = _linear(expr.lhs, num_dims, num_symbols)
        rhs = _linear(expr.rhs, num_dims, num_symbols)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            return [a + b for a, b in zip(lhs, rhs)]
        if expr.kind == AffineBinaryOpKind.Mul:
            if all(c == 0 for c in rhs[:-1]):
                return [a * rhs[-1] for a in lhs]
            if all(c == 0 for c in lhs[:-1]):
                return [b * lhs[-1] for b in rhs]
    return None


linear_form = _linear  # public: the indirect-access split reads subscripts with it


def _contains(s: AffineSet, dims: Sequence[int], symbols: Sequence[int]) -> bool:
    for c in s.constraints:
        value = c.lhs.eval(dims, symbols) - c.rhs.eval(dims, symbols)
        kind = c.kind.value
        if (kind == ">=" and value < 0) or (kind == "<=" and value > 0) or (kind == "==" and value != 0):
            return False
    return True


def _bounds(s: AffineSet, dim: int, dims: Sequence[int], symbols: Sequence[int]) -> tuple[int | None, int | None]:
    """Constant bounds of `dim` implied by the linear constraints once every other dim and
    every symbol is fixed to the given values (non-linear constraints are skipped)."""
    lo: int | None = None
    hi: int | None = None

    def raise_lo(v: int) -> None:
        nonlocal lo
        lo = v if lo is None else max(lo, v)

    def lower_hi(v: int) -> None:
        nonlocal hi
        hi = v if hi is None else min(hi, v)

    for c in s.constraints:
        row = _linear(c.lhs - c.rhs, s.num_dims, s.num_symbols)
        if row is None:
            continue
        if c.kind.value == "<=":
            row = [-x for x in row]
        a = row[dim]
        if a == 0:
            continue
        values = [*dims, *symbols]
        r = row[-1] + sum(row[j] * values[j] for j in range(len(values)) if j != dim)
        # now: a * x + r >= 0, or == 0
        if a > 0:
            raise_lo(-(r // a))  # ceil(-r / a)
            if c.kind.value == "==":
                lower_hi((-r) // a)
        else:
            lower_hi(r // -a)  # floor(r / -a)
            if c.kind.value == "==":
                raise_lo(-((-r) // -a))
    return lo, hi


_ENUMERATION_LIMIT = 1 << 16


def group_values(groups: AffineSet) -> list[int] | None:
    """The group indices of a `(g)` set, or None when they are not statically bounded."""
    lo, hi = _bounds(groups, 0, [0], [])
    if lo is None or hi is None or hi - lo > _ENUMERATION_LIMIT:
        return None
    return [g for g in range(lo, hi + 1) if _contains(groups, [g], [])]


def tiles_of(tiles: AffineSet, group: int) -> set[int] | None:
    """The tile ids a `(i)[g]` set selects for group `group` (ids are >= 0)."""
    _, hi = _bounds(tiles, 0, [0], [group])
    if hi is None or hi > _ENUMERATION_LIMIT:
        return None
    return {i for i in range(0, hi + 1) if _contains(tiles, [i], [group])}


def _parse_region_after(parser: Parser) -> Region:
    region = parser.parse_optional_region()
    if region is None:
        parser.raise_error("expected a region")
    return region


@irdl_op_definition
class InterTileProduceOp(IRDLOperation):
    """`%f = ktdp.inter_tile_produce producer_tiles_per_group = <set> -> <(T...), groups = <set>>
    { ^bb0(%gid: index): ... ktdp.yield_partial ... }`: what each producing tile
    contributes to an exchange between tiles; the result is consumed by one delivery op."""

    name = "ktdp.inter_tile_produce"

    producer_tiles_per_group = prop_def(AffineSetAttr)
    future = result_def(TileFutureType)
    body = region_def()

    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(YieldPartialOp), RecursiveMemoryEffect())
    )

    def __init__(self, producer_tiles_per_group: AffineSet, future_type: TileFutureType, body: Region):
        super().__init__(
            result_types=[future_type],
            properties={"producer_tiles_per_group": AffineSetAttr(producer_tiles_per_group)},
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> InterTileProduceOp:
        parser.parse_keyword("producer_tiles_per_group")
        parser.parse_punctuation("=")
        producers = _parse_set_value(parser, "producer_tiles_per_group")
        props, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        annotation = parse_produce_annotation(parser)
        parser.parse_punctuation("->")
        future_type = parse_ktdp_type(parser, TileFutureType)
        check_produce_annotation(parser, annotation, future_type.get_partial_types())
        body = _parse_region_after(parser)
        props["producer_tiles_per_group"] = producers
        op = cls.build(result_types=[future_type], properties=props, attributes=attrs, regions=[body])
        ensure_terminator(op, SingleBlockImplicitTerminator(YieldPartialOp))
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" producer_tiles_per_group = ")
        printer.print_attribute(self.producer_tiles_per_group)
        print_attr_dict(printer, self, ("producer_tiles_per_group",))
        printer.print_string(" -> ")
        print_stripped_type(printer, self.future.type)
        printer.print_string(" ")
        printer.print_region(self.body, print_block_terminators=_has_explicit_terminator(self.body))

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None or len(self.body.blocks) != 1:
            raise VerifyException("region #0 ('body') failed to verify constraint: region with 1 blocks")
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerifyException("producer region must take a single `index` group-id argument")
        future = self.future.type
        assert isinstance(future, TileFutureType)
        groups = future.groups.data
        producers = self.producer_tiles_per_group.data
        if groups.num_symbols != 0:
            raise VerifyException("`groups` integer set must not have symbols")
        if groups.num_dims != 1:
            raise VerifyException("`groups` integer set must have a single dimension (g)")
        if producers.num_symbols != 1:
            raise VerifyException(
                "`producer_tiles_per_group` must have exactly one symbol (the group index g)"
            )
        values = group_values(groups)
        if values is not None:
            sets = [tiles_of(producers, g) for g in values]
            if all(s is not None for s in sets):
                for a in range(len(values)):
                    for b in range(a + 1, len(values)):
                        if sets[a] & sets[b]:  # type: ignore[operator]
                            raise VerifyException(
                                f"producer_tiles_per_group for groups {values[a]} and {values[b]} "
                                "are not disjoint"
                            )
        partials = future.get_partial_types()
        terminator = block.last_op
        if not isinstance(terminator, YieldPartialOp):
            return  # the implicit-terminator trait reports it
        if len(terminator.values) != len(partials):
            raise VerifyException(
                f"yield_partial yields {len(terminator.values)} values but the future carries "
                f"{len(partials)} partial type(s)"
            )
        for i, (value, partial) in enumerate(zip(terminator.values, partials)):
            if value.type != partial:
                raise VerifyException(
                    f"yield_partial operand #{i} type {_show(value.type)} does not match future "
                    f"partial type {_show(partial)}"
                )


def _has_explicit_terminator(region: Region) -> bool:
    """MLIR elides an implicit terminator only when it carries nothing."""
    block = region.blocks.first
    last = None if block is None else block.last_op
    return last is None or bool(last.operands) or bool(last.attributes)


def _check_delivery_sets(op: IRDLOperation, check_dims: bool) -> None:
    consumers = op.properties["consumer_tiles_per_group"]
    assert isinstance(consumers, AffineSetAttr)
    if consumers.data.num_symbols != 1:
        raise VerifyException(
            "`consumer_tiles_per_group` must have exactly one symbol (the group index g)"
        )
    if check_dims and consumers.data.num_dims != 1:
        raise VerifyException(
            "`consumer_tiles_per_group` must have exactly one dimension (the tile id i)"
        )
    dependency = op.properties.get("producer_dependency_per_consumer")
    if check_dims and isinstance(dependency, AffineSetAttr):
        if dependency.data.num_symbols not in (1, 2):
            raise VerifyException(
                "`producer_dependency_per_consumer` must have one symbol (c) or two symbols (c, g)"
            )
        if dependency.data.num_dims != 1:
            raise VerifyException(
                "`producer_dependency_per_consumer` must have exactly one dimension (the producer "
                "tile id p)"
            )


def _check_results_match_future(op: IRDLOperation, future: SSAValue) -> tuple[Attribute, ...]:
    future_type = future.type
    assert isinstance(future_type, TileFutureType)
    partials = future_type.get_partial_types()
    for i, t in enumerate(op.result_types):
        if not _is_ranked_tensor(t):
            raise VerifyException(
                f"result #{i} must be variadic of ranked tensor of any type values, but got '{_show(t)}'"
            )
    if tuple(op.result_types) != tuple(partials):
        raise VerifyException("failed to verify that result types must match future partial types")
    return partials


def _parse_delivery_head(parser: Parser) -> tuple[UnresolvedOperand, dict[str, Attribute]]:
    """`(%f) consumer_tiles_per_group = <set>` plus, when present, the dependency set."""
    parser.parse_punctuation("(")
    future = parser.parse_unresolved_operand()
    parser.parse_punctuation(")")
    parser.parse_keyword("consumer_tiles_per_group")
    parser.parse_punctuation("=")
    return future, {"consumer_tiles_per_group": _parse_set_value(parser, "consumer_tiles_per_group")}


def _print_delivery_head(printer: Printer, op: IRDLOperation, future: SSAValue) -> None:
    printer.print_string("(")
    printer.print_operand(future)
    printer.print_string(") consumer_tiles_per_group = ")
    printer.print_attribute(op.properties["consumer_tiles_per_group"])


def _print_delivery_types(printer: Printer, op: IRDLOperation, future: SSAValue) -> None:
    printer.print_string(" : ")
    print_stripped_type(printer, future.type)
    printer.print_string(" -> ")
    _type_list(printer, op.result_types)


@irdl_op_definition
class InterTileConsumeOp(IRDLOperation):
    """`%r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = <set> : <future> -> T`:
    deliver each partial unchanged (broadcast or routing); each consumer has one source."""

    name = "ktdp.inter_tile_consume"

    future = operand_def(TileFutureType)
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    results_ = var_result_def()

    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> InterTileConsumeOp:
        future, props = _parse_delivery_head(parser)
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("producer_dependency_per_consumer")
            parser.parse_punctuation("=")
            props["producer_dependency_per_consumer"] = _parse_set_value(
                parser, "producer_dependency_per_consumer"
            )
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        future_type = parse_ktdp_type(parser, TileFutureType)
        parser.parse_punctuation("->")
        types_pos = parser.pos
        result_types = parse_type_list(parser)
        partials = future_type.get_partial_types()
        op = cls.build(
            operands=[parser.resolve_operand(future, future_type)],
            result_types=[delivery_result_types(result_types, partials)],
            properties={**more, **props},
            attributes=attrs,
        )
        return collapse_delivery(parser, op, result_types, types_pos)

    def print(self, printer: Printer) -> None:
        _print_delivery_head(printer, self, self.future)
        if self.producer_dependency_per_consumer is not None:
            printer.print_string(", producer_dependency_per_consumer = ")
            printer.print_attribute(self.producer_dependency_per_consumer)
        print_attr_dict(
            printer, self, ("consumer_tiles_per_group", "producer_dependency_per_consumer")
        )
        _print_delivery_types(printer, self, self.future)

    def verify_(self) -> None:
        _check_results_match_future(self, self.future)
        _check_delivery_sets(self, check_dims=True)


@irdl_op_definition
class InterTileReduceOp(IRDLOperation):
    """`%r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = <set>, identity(%id : T)
    : <future> -> T { ^bb0(%lhs: T, %rhs: T): ... ktdp.yield_reduced ... }`: combine every
    producer's partials with the region's combiner and deliver the result."""

    name = "ktdp.inter_tile_reduce"

    future = operand_def(TileFutureType)
    identity = var_operand_def()
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    results_ = var_result_def()
    combiner = region_def()

    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(YieldReducedOp), RecursiveMemoryEffect())
    )

    @classmethod
    def parse(cls, parser: Parser) -> InterTileReduceOp:
        future, props = _parse_delivery_head(parser)
        parser.parse_punctuation(",")
        if parser.parse_optional_keyword("producer_dependency_per_consumer"):
            parser.parse_punctuation("=")
            props["producer_dependency_per_consumer"] = _parse_set_value(
                parser, "producer_dependency_per_consumer"
            )
            parser.parse_punctuation(",")
        parser.parse_keyword("identity")
        parser.parse_punctuation("(")
        identity: list[SSAValue] = []
        if not parser.parse_optional_punctuation(")"):
            pos = parser.pos
            names = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            identity = parser.resolve_operands(names, types, pos)
        more, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        future_type = parse_ktdp_type(parser, TileFutureType)
        parser.parse_punctuation("->")
        types_pos = parser.pos
        result_types = parse_type_list(parser)
        combiner = _parse_region_after(parser)
        partials = future_type.get_partial_types()
        op = cls.build(
            operands=[parser.resolve_operand(future, future_type), identity],
            result_types=[delivery_result_types(result_types, partials)],
            properties={**more, **props},
            attributes=attrs,
            regions=[combiner],
        )
        ensure_terminator(op, SingleBlockImplicitTerminator(YieldReducedOp))
        return collapse_delivery(parser, op, result_types, types_pos)

    def print(self, printer: Printer) -> None:
        _print_delivery_head(printer, self, self.future)
        printer.print_string(", ")
        if self.producer_dependency_per_consumer is not None:
            printer.print_string("producer_dependency_per_consumer = ")
            printer.print_attribute(self.producer_dependency_per_consumer)
            printer.print_string(", ")
        printer.print_string("identity(")
        if self.identity:
            printer.print_list(self.identity, printer.print_operand)
            printer.print_string(" : ")
            _type_list(printer, self.identity.types)
        printer.print_string(")")
        print_attr_dict(
            printer, self, ("consumer_tiles_per_group", "producer_dependency_per_consumer")
        )
        _print_delivery_types(printer, self, self.future)
        printer.print_string(" ")
        printer.print_region(self.combiner, print_block_terminators=_has_explicit_terminator(self.combiner))

    def verify_(self) -> None:
        partials = _check_results_match_future(self, self.future)
        _check_ranked_tensor_operands(self, self.identity, first_index=1)
        if tuple(self.identity.types) != tuple(self.result_types):
            raise VerifyException("failed to verify that identity types must match result types")
        block = self.combiner.blocks.first
        if block is None or len(self.combiner.blocks) != 1:
            raise VerifyException("region #0 ('combiner') failed to verify constraint: region with 1 blocks")
        n = len(partials)
        if len(block.args) != 2 * n:
            raise VerifyException(f"reducer region must take 2*{n} arguments, got {len(block.args)}")
        for i, partial in enumerate(partials):
            if block.args[i].type != partial or block.args[n + i].type != partial:
                raise VerifyException(
                    f"reducer region argument pair #{i} must both have partial type {_show(partial)}"
                )
        _check_delivery_sets(self, check_dims=False)
        terminator = block.last_op
        if not isinstance(terminator, YieldReducedOp):
            return
        if len(terminator.values) != n:
            raise VerifyException(f"yield_reduced yields {len(terminator.values)} values but expected {n}")
        for i, (value, partial) in enumerate(zip(terminator.values, partials)):
            if value.type != partial:
                raise VerifyException(
                    f"yield_reduced operand #{i} type {_show(value.type)} must match partial type "
                    f"{_show(partial)}"
                )


KTDP = Dialect(
    "ktdp",
    [
        RegionTerminatorOp,
        GetComputeTileIdOp,
        ConstructMemoryViewOp,
        ConstructDistributedMemoryViewOp,
        ConstructAccessTileOp,
        ConstructIndirectAccessTileOp,
        LoadOp,
        StoreOp,
        RuntimeArgExtractOp,
        YieldPartialOp,
        YieldReducedOp,
        InterTileProduceOp,
        InterTileConsumeOp,
        InterTileReduceOp,
    ],
    [AccessTileType, RuntimeArgType, TileFutureType, MemorySpaceAttr],
)
