"""The other spellings of the inter-tile ops that KTIR producers emit, read into the canonical IR.

The canonical syntax (ktir-mlir-frontend's `KTDP.td`, what dfsched prints) is

    %f = ktdp.inter_tile_produce producer_tiles_per_group = S -> <(T), groups = G> {...}
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = S, identity(%id : T)
           : <(T), groups = G> -> T {...}

Real producers (ktir-cpu's parser and its examples, the RFC's op descriptions) also write:

* the future type with its name and without parentheses around the partial types:
  `!ktdp.tile_future<T, groups = G>` (`parse_tile_future_partials`);
* the produced partial types before the arrow: `producer_tiles_per_group = S : T -> ...`
  (`parse_produce_annotation`; they must be the future's partial types);
* a delivery result that drops unit dimensions of the partial type (`tensor<1x128xf16>`
  delivered as `tensor<128xf16>`, as ktir-cpu reshapes it): read as the canonical delivery op
  followed by a `tensor.collapse_shape` (`delivery_result_types`, `collapse_delivery`), which
  is what gets printed. Other result types are left to the verifier's error.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute, Operation
from xdsl.parser import AttrParser, Parser

from dfsched.compat import MLIRTokenKind, next_token
from dfsched.dialects.syntax import parse_arrow_type_list


def _show(types: Sequence[Attribute]) -> str:
    return ", ".join(str(t) for t in types)


def parse_tile_future_partials(parser: AttrParser) -> list[Attribute]:
    """The partial types of a tile_future and the `,` after them, with or without parentheses:
    `(T1, T2), groups = ...` or `T1, T2, groups = ...`; leaves the parser at `groups`."""
    if next_token(parser).kind == MLIRTokenKind.L_PAREN:
        types = parse_arrow_type_list(parser)  # `(T1, T2)` or `()`
        parser.parse_punctuation(",")
        return types
    types = []
    while not types or next_token(parser).text != "groups":
        types.append(parser.parse_type())
        parser.parse_punctuation(",", " after a tile_future partial type")
    return types


def parse_produce_annotation(parser: Parser) -> tuple[list[Attribute], int] | None:
    """`: T1, T2` before the `->` of `inter_tile_produce`, if written: (types, position)."""
    if parser.parse_optional_punctuation(":") is None:
        return None
    pos = parser.pos
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type), pos


def check_produce_annotation(parser: Parser, annotation: tuple[list[Attribute], int] | None,
                             partials: Sequence[Attribute]) -> None:
    if annotation is None:
        return
    types, pos = annotation
    if tuple(types) != tuple(partials):
        parser.raise_error(
            f"the produced types written before '->' ({_show(types)}) are not the tile_future's "
            f"partial types ({_show(partials)})", pos)


def collapse_reassociation(source: Attribute, target: Attribute) -> list[list[int]] | None:
    """How `target` is `source` with unit dimensions dropped, as a `tensor.collapse_shape`
    reassociation (each source dimension joins a group of the target's), or None if it is not."""
    if not (isinstance(source, TensorType) and isinstance(target, TensorType)):
        return None
    if source.element_type != target.element_type:
        return None
    src, dst = list(source.get_shape()), list(target.get_shape())
    if [d for d in src if d != 1] != [d for d in dst if d != 1] or dst.count(1) > src.count(1):
        return None
    if not dst:
        return []
    groups: list[list[int]] = []
    i = 0
    for j, size in enumerate(dst):
        group: list[int] = []
        while i < len(src):
            group.append(i)
            i += 1
            if src[i - 1] == size:
                break
        else:
            return None
        groups.append(group)
    if i < len(src):  # trailing unit dimensions join the last group
        groups[-1].extend(range(i, len(src)))
    return groups


def delivery_result_types(declared: Sequence[Attribute], partials: Sequence[Attribute]) -> list[Attribute]:
    """The result types a delivery op is built with: its partial types when the one declared
    result drops unit dimensions of the one partial type, else the declared types (the verifier
    judges those)."""
    if len(declared) == 1 and len(partials) == 1 and declared[0] != partials[0]:
        if collapse_reassociation(partials[0], declared[0]) is not None:
            return list(partials)
    return list(declared)


def push_declared_delivery(parser: Parser, declared: Sequence[Attribute], pos: int) -> None:
    """Remember a delivery op's declared result types (and where they were written) until
    `delivering`'s parse has built the op; a stack, since a reducer region may hold another."""
    parser.__dict__.setdefault("_declared_deliveries", []).append((list(declared), pos))


def delivering(op_class: type[Operation]) -> type[Operation]:
    """Wrap a delivery op's declarative parse so that it hands back `collapse_delivery`'s op."""
    parse_format = op_class.parse.__func__  # type: ignore[attr-defined]

    def parse(cls, parser: Parser) -> Operation:
        op = parse_format(cls, parser)
        declared, pos = parser.__dict__["_declared_deliveries"].pop()
        return collapse_delivery(parser, op, declared, pos)

    op_class.parse = classmethod(parse)  # type: ignore[method-assign]
    return op_class


def collapse_delivery(parser: Parser, op: Operation, declared: Sequence[Attribute], pos: int) -> Operation:
    """The op to hand back for a delivery op built with `delivery_result_types`: `op` itself
    when it has the declared types; else `op` goes into the block first and a
    `tensor.collapse_shape` of its result, of the declared type, is returned."""
    from xdsl.dialects.tensor import CollapseShapeOp

    if tuple(op.result_types) == tuple(declared):
        return op
    emit = getattr(parser, "emit_before_current_op", None)
    if emit is None:
        parser.raise_error("a delivery result that drops unit dimensions needs dfsched's parser", pos)
    groups = collapse_reassociation(op.result_types[0], declared[0])
    assert groups is not None
    emit(op)
    reassociation = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])
    return CollapseShapeOp.build(operands=[op.results[0]], result_types=[declared[0]],
                                 properties={"reassociation": reassociation})
