"""The `ktdp` dialect's types and attributes (`!ktdp.access_tile`, `!ktdp.runtime_arg`,
`!ktdp.tile_future`, `#ktdp.memory_space`) and the checks their ops share."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

from xdsl.dialects.builtin import (AffineMapAttr, AffineSetAttr, ArrayAttr, ContainerType, IndexType, IntAttr,
                                   IntegerType, NoneAttr, ShapedType, StringAttr, TensorType, AnyFloat)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import IRDLOperation, irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.ktdp_spellings import parse_tile_future_partials
from dfsched.dialects.syntax import parse_instance

DYNAMIC = -(2**63)  # MLIR's ShapedType::kDynamic, also xDSL's DYNAMIC_INDEX


# ===========================================================================
# Small shared helpers
# ===========================================================================


def raise_if(problem: str | None, parser: AttrParser | None = None, at: int | None = None) -> None:
    """A check the parser and the verifier share: a message is a parse error `at` a position (by
    default the current one) when `parser` is given, else a VerifyException."""
    if problem and parser is not None:
        parser.raise_error(problem, at)
    if problem:
        raise VerifyException(problem)


def require_prop(op: IRDLOperation, name: str) -> Attribute:
    value = op.properties.get(name)
    if value is None:
        raise VerifyException(f"requires attribute '{name}'")
    return value


def _require_data(op: IRDLOperation, name: str, kind: type[AffineSetAttr | AffineMapAttr], what: str):
    value = require_prop(op, name)
    if not isinstance(value, kind):
        raise VerifyException(f"attribute '{name}' failed to satisfy constraint: {what}")
    return value.data


def require_set(op: IRDLOperation, name: str) -> AffineSet:
    return _require_data(op, name, AffineSetAttr, "integer set attribute")


def require_map(op: IRDLOperation, name: str) -> AffineMap:
    return _require_data(op, name, AffineMapAttr, "AffineMap attribute")


# ===========================================================================
# Types
# ===========================================================================


def _check_access_tile(shape: Sequence[int], element_type: Attribute) -> str | None:
    if not isinstance(element_type, IndexType):
        return f"tile element type must be 'index', but got: {element_type}"
    if any(d < 0 and d != DYNAMIC for d in shape):
        return "tile dimension size must be dynamic or >= 0"
    return None


class _BodyInAngleBrackets:
    """`<` the type's `parse_body` `>`: what `OwnType` reads after a stripped type's name."""

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)  # type: ignore[attr-defined]


@irdl_attr_definition
class AccessTileType(_BodyInAngleBrackets, ParametrizedAttribute, TypeAttribute, ShapedType, ContainerType[Attribute]):
    """`!ktdp.access_tile<32x64xindex>`: a tensor-shaped collection of coordinates."""

    name = "ktdp.access_tile"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Iterable[int], element_type: Attribute | None = None):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), IndexType() if element_type is None else element_type)

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
        raise_if(_check_access_tile(dims, element_type), parser)
        return ArrayAttr([IntAttr(d) for d in dims]), element_type

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            shape = self.get_shape()
            if shape:
                printer.print_dimension_list(shape)
                printer.print_string("x")
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        raise_if(_check_access_tile(self.get_shape(), self.element_type))


def _check_runtime_arg(underlying: Attribute, granularity: int | None, upperbound: int | None) -> str | None:
    if not isinstance(underlying, IndexType | IntegerType | AnyFloat):
        return f"runtime_arg underlying type must be a builtin type (index, integer, or float), but got: {underlying}"
    if granularity is not None and granularity <= 0:
        return f"runtime_arg granularity must be positive, but got: {granularity}"
    if upperbound is not None and upperbound <= 0:
        return f"runtime_arg upperbound must be positive, but got: {upperbound}"
    return None


@irdl_attr_definition
class RuntimeArgType(_BodyInAngleBrackets, ParametrizedAttribute, TypeAttribute):
    """`!ktdp.runtime_arg<index, granularity=3, upperbound=300>`: a kernel argument whose
    value is only known at run time, with what is known about it at compile time."""

    name = "ktdp.runtime_arg"

    underlying_type: Attribute
    granularity: IntAttr | NoneAttr
    upperbound: IntAttr | NoneAttr

    def __init__(self, underlying_type: Attribute, granularity: int | None = None, upperbound: int | None = None):
        super().__init__(underlying_type, NoneAttr() if granularity is None else IntAttr(granularity),
                         NoneAttr() if upperbound is None else IntAttr(upperbound))

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
            key = parser.expect(lambda: parser.parse_optional_keyword_in(("granularity", "upperbound")),
                                "expected 'granularity' or 'upperbound' keyword")
            if key in found:
                parser.raise_error(f"duplicate '{key}' keyword", key_pos)
            parser.parse_punctuation("=")
            found[key] = parser.parse_integer(allow_boolean=False)
        raise_if(_check_runtime_arg(underlying, found.get("granularity"), found.get("upperbound")), parser, start)
        built = cls(underlying, found.get("granularity"), found.get("upperbound"))
        return built.underlying_type, built.granularity, built.upperbound

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.underlying_type)
            if (g := self.get_granularity()) is not None:
                printer.print_string(f", granularity={g}")
            if (u := self.get_upperbound()) is not None:
                printer.print_string(f", upperbound={u}")

    def verify(self) -> None:
        raise_if(_check_runtime_arg(self.underlying_type, self.get_granularity(), self.get_upperbound()))


def _check_tile_future(partials: Sequence[Attribute], groups: AffineSet) -> str | None:
    if not partials:
        return "tile_future must carry at least one partial type"
    for t in partials:
        if not isinstance(t, TensorType):
            return f"tile_future partial types must be ranked tensors, but got: {t}"
    if groups.num_dims != 1:
        return "tile_future `groups` must have exactly one dimension (g)"
    if groups.num_symbols != 0:
        return "tile_future `groups` must have no symbols"
    return None


@irdl_attr_definition
class TileFutureType(_BodyInAngleBrackets, ParametrizedAttribute, TypeAttribute):
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
        groups = parse_instance(parser, parser.parse_attribute, AffineSetAttr,
                                "expected an integer set (affine_set<...>) for 'groups'")
        raise_if(_check_tile_future(partials, groups.data), parser, start)
        return ArrayAttr(partials), groups

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            with printer.in_parens():
                printer.print_list(self.get_partial_types(), printer.print_attribute)
            printer.print_string(", groups = ")
            printer.print_attribute(self.groups)

    def verify(self) -> None:
        raise_if(_check_tile_future(self.get_partial_types(), self.groups.data))


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
        return f"ct_id is only valid for ct_local memory spaces, but got memory space '{kind}' with ct_id = {ct_id}"
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
            kind = parser.expect(lambda: parser.parse_optional_keyword_in(MEMORY_SPACE_KINDS),
                                 "expected memory space kind 'global' or 'ct_local'")
            ct_id = -1
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("ct_id")
                parser.parse_punctuation("=")
                ct_id = parser.parse_integer(allow_boolean=False)
            raise_if(_check_memory_space(kind, ct_id), parser, start)
        return StringAttr(kind), IntAttr(ct_id)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.kind.data)
            if self.ct_id.data != -1:
                printer.print_string(f", ct_id = {self.ct_id.data}")

    def verify(self) -> None:
        raise_if(_check_memory_space(self.kind.data, self.ct_id.data))


class RuntimeArgExtractKind(IntEnum):
    """What `runtime_arg_extract` takes out of a runtime_arg (an I32 enum upstream)."""

    value = 0
    granularity = 1
    upperbound = 2
