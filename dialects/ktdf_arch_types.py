"""The `ktdf_arch` dialect's types (`!ktdf_arch.memory`, `exec_unit`, `port`, also written short)
and attributes (`#ktdf_arch.map`, MLIR's `sparse<...>` literal for connectivity matrices)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from io import StringIO
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, BuiltinAttribute, IntAttr, IntegerType, TensorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import MLIRTokenKind



def attribute_text(attr: Attribute) -> str:
    """How `attr` prints, for use inside diagnostics."""
    stream = StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


class _ShortType(ParametrizedAttribute, TypeAttribute):
    """A parameterless ktdf_arch type; `MNEMONIC` is its short spelling (`memory`)."""

    MNEMONIC: ClassVar[str]


def _short_type(class_name: str, mnemonic: str, doc: str) -> type[_ShortType]:
    """`!ktdf_arch.<mnemonic>`, also written `<mnemonic>` alone."""
    namespace = {"__module__": __name__, "__doc__": doc, "__annotations__": {"MNEMONIC": ClassVar[str]},
                 "name": f"ktdf_arch.{mnemonic}", "MNEMONIC": mnemonic}
    return irdl_attr_definition(type(class_name, (_ShortType,), namespace))


MemoryType = _short_type("MemoryType", "memory", "`!ktdf_arch.memory`: the value a `memory` op defines.")
ExecUnitType = _short_type("ExecUnitType", "exec_unit",
                           "`!ktdf_arch.exec_unit`: an execution unit (also what groups export).")
PortType = _short_type("PortType", "port", "`!ktdf_arch.port`: one port of a `switch`.")
SHORT_TYPES: dict[str, type[_ShortType]] = {t.MNEMONIC: t for t in (MemoryType, ExecUnitType, PortType)}
ENDPOINT_TYPES = (MemoryType, ExecUnitType, PortType)


def parse_short_type(parser: Parser) -> Attribute:
    """`memory` | `exec_unit` | `port` | any full type."""
    if (word := parser.parse_optional_keyword_in(SHORT_TYPES)) is not None:
        return SHORT_TYPES[word]()
    if (ty := parser.parse_optional_type()) is not None:
        return ty
    pos = parser.pos
    if (word := parser.parse_optional_identifier()) is not None:
        parser.raise_error(f"expected 'ktdf_arch' type mnemonic, got '{word}'", pos)
    parser.raise_error("expected 'ktdf_arch' type mnemonic")


def print_short_type(printer: Printer, ty: Attribute) -> None:
    if isinstance(ty, _ShortType):
        printer.print_string(ty.MNEMONIC)
    else:
        printer.print_attribute(ty)


# ---------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------


@irdl_attr_definition
class MapAttr(ParametrizedAttribute):
    """`#ktdf_arch.map<key = value, ...>`: an ordered association list of attributes.

    Keys may be any attribute or type (`"DDR"`, `f16`, `#ktdp.memory_space<global>`);
    a key may appear once. Lookups scan linearly, as upstream does.
    """

    name = "ktdf_arch.map"

    entries: ArrayAttr[ArrayAttr[Attribute]]

    def __init__(self, entries: Iterable[tuple[Attribute, Attribute]] = ()):
        super().__init__(ArrayAttr([ArrayAttr([k, v]) for k, v in entries]))

    @property
    def items(self) -> list[tuple[Attribute, Attribute]]:
        return [(pair.data[0], pair.data[1]) for pair in self.entries.data]

    def get(self, key: Attribute) -> Attribute | None:
        for k, v in self.items:
            if k == key:
                return v
        return None

    def __len__(self) -> int:
        return len(self.entries.data)

    def verify(self) -> None:
        seen: list[Attribute] = []
        for pair in self.entries.data:
            if len(pair.data) != 2:
                raise VerifyException("map entries must be (key, value) pairs")
            key = pair.data[0]
            if key in seen:
                raise VerifyException(f"multiple entries for key {attribute_text(key)}")
            seen.append(key)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        entries: list[tuple[Attribute, Attribute]] = []

        def entry() -> None:
            key_pos = parser.pos
            key = parser.parse_attribute()
            parser.parse_punctuation("=")
            if any(key == k for k, _ in entries):
                parser.raise_error(f"multiple entries for key {attribute_text(key)}", key_pos)
            entries.append((key, parser.parse_attribute()))

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, entry)
        return (ArrayAttr([ArrayAttr([k, v]) for k, v in entries]),)

    def print_parameters(self, printer: Printer) -> None:
        def entry(item: tuple[Attribute, Attribute]) -> None:
            printer.print_attribute(item[0])
            printer.print_string(" = ")
            printer.print_attribute(item[1])

        with printer.in_angle_brackets():
            printer.print_list(self.items, entry)


@irdl_attr_definition
class SparseElementsAttr(ParametrizedAttribute, BuiltinAttribute):
    """MLIR's builtin `sparse<indices, values> : type` (xDSL 0.74 has no such attribute).

    Only used for `switch` connectivity matrices, so it is parsed inside resource
    attribute dictionaries only. `values` holds one value (a splat) or one per index.
    """

    name = "ktdf_arch.sparse_elements"

    indices: ArrayAttr[ArrayAttr[IntAttr]]
    values: ArrayAttr[IntAttr]
    type: TensorType

    def __init__(self, indices: Sequence[Sequence[int]], values: Sequence[int], type: TensorType):
        super().__init__(
            ArrayAttr([ArrayAttr([IntAttr(i) for i in idx]) for idx in indices]),
            ArrayAttr([IntAttr(v) for v in values]),
            type,
        )

    def get_shape(self) -> tuple[int, ...]:
        return tuple(self.type.get_shape())

    def get_element_type(self) -> Attribute:
        return self.type.get_element_type()

    def to_dense_values(self) -> list[int]:
        """The row-major values, zero where no index is given."""
        shape = self.get_shape()
        total = prod(shape)
        out = [0] * total
        values = [v.data for v in self.values.data]
        for n, idx in enumerate(self.indices.data):
            flat = 0
            for dim, i in zip(shape, idx.data):
                flat = flat * dim + i.data
            if 0 <= flat < total:
                out[flat] = values[0] if len(values) == 1 else values[n]
        return out

    def verify(self) -> None:
        rank = len(self.type.get_shape())
        for idx in self.indices.data:
            if len(idx.data) != rank:
                raise VerifyException("sparse index rank does not match the type")
        if len(self.values.data) not in (1, len(self.indices.data)):
            raise VerifyException("sparse values must be a splat or one per index")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        """`#ktdf_arch.sparse_elements<sparse<...> : type>` (the literal alone is the usual spelling)."""
        parser.parse_punctuation("<")
        parser.parse_keyword("sparse")
        attr = parse_sparse_literal(parser)
        parser.parse_punctuation(">")
        return (attr.indices, attr.values, attr.type)

    def print_builtin(self, printer: Printer) -> None:
        """MLIR's builtin spelling `sparse<[[i, j], ...], v or [v, ...]> : type`, in custom and generic
        form alike (our parser reads it back: `compat.LocatingParser`)."""
        indices = ", ".join("[" + ", ".join(str(i.data) for i in idx.data) + "]" for idx in self.indices.data)
        i1 = _is_i1(self.type)
        values = [("true" if v.data else "false") if i1 else str(v.data) for v in self.values.data]
        splat_or_list = values[0] if len(values) == 1 else f"[{', '.join(values)}]"
        printer.print_string(f"sparse<[{indices}], {splat_or_list}> : ")
        printer.print_attribute(self.type)


def parse_sparse_literal(parser: Parser) -> SparseElementsAttr:
    """After the `sparse` keyword: `<` indices `,` values `>` `:` tensor-type."""

    def element(depth: int) -> int | list:
        """An integer or, up to `depth` levels deep, a `[...]` list of elements (an index is a list)."""
        if depth and parser._current_token.kind == MLIRTokenKind.L_SQUARE:
            return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: element(depth - 1))
        return parser.parse_integer(allow_boolean=True)

    def as_list(parsed: int | list) -> list:
        return parsed if isinstance(parsed, list) else [parsed]

    parser.parse_punctuation("<")
    raw_indices = as_list(element(2))
    parser.parse_punctuation(",")
    raw_values = as_list(element(1))
    parser.parse_punctuation(">")
    parser.parse_punctuation(":")
    type_pos = parser.pos
    ty = parser.parse_type()
    if not isinstance(ty, TensorType):
        parser.raise_error("sparse elements literal type must be a ranked tensor", type_pos)
    if raw_indices and all(isinstance(i, int) for i in raw_indices):
        raw_indices = [raw_indices]  # a single index written flat
    indices = [[int(x) for x in idx] for idx in raw_indices]
    values = [int(bool(v)) if _is_i1(ty) else int(v) for v in raw_values]
    try:
        return SparseElementsAttr(indices, values, ty)
    except VerifyException as exc:
        parser.raise_error(str(exc), type_pos)


def _is_i1(ty: TensorType) -> bool:
    elt = ty.get_element_type()
    return isinstance(elt, IntegerType) and elt.width.data == 1
