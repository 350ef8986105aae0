"""Custom directives for the dialects' declarative assembly formats (`custom<Name>(...)`).

xDSL 0.74 reads an op's `assembly_format` as MLIR's ODS does; what ODS spells with a C++
`custom<...>` directive upstream is spelled here, once for every dialect:

* `custom<BracketPairs>($a, $b)`: `[%a0 : %b0], [%a1 : %b1]` (a trailing comma is accepted).
* `custom<ImmutableMap>($keys, $values)`: `([%k0 -> %v0], [%k1 -> %v1])` (a symbol table).
* `custom<Token>(type($r))`: `!ktdf.token`, or nothing at all (MLIR's stripped spelling of a
  parameterless type of the op's own dialect).
* `custom<OwnType>(type($v))`: a type of the op's own dialect in MLIR's stripped form, its
  parameters without its name (`<SRC -> DST, NxT>` for `!ktdf.fifo.slot<SRC -> DST, NxT>`); the
  full spelling is accepted too. The type class is the one the operand or result declares.
* `custom<Body>($r)`: a single-block region printed as MLIR prints a `SingleBlock` region:
  entry-block arguments only when it has some, an empty block as `{\n}`, and an op's implicit terminator elided
  when it carries nothing; `{}` parses to one empty block (plus that terminator).
* `custom<CellOrSlot>($v, $indices, $map, $sizes, $static_sizes)`: one side of a data transfer,
  `%m[%i + 3, %j] size [1, %n, 64]` for a memref (subscripts by `affine_subscripts`) or
  `%slot size [64]` for a fifo slot; the `size` list mixes literals and index values.
* `custom<BareI64>($p)`: an i64 property written as a bare integer (`modulo(size : 4)`).
* `custom<IsolatedBody>($r)`: a single-block region that sees no value from outside
  (IsolatedFromAbove, checked while parsing), printed without entry-block arguments.
* `custom<StringArray>($p)`: an optional `["a", "b"]`; an empty array is the property's absence.
* `custom<ProducedFuture>(type($f))`: `-> <future>` after `inter_tile_produce`'s set, also
  with the produced types written before the arrow (`: T -> ...`, `ktdp_spellings`).
* `custom<Delivered>(type($r))`: a delivery op's result types; a type that drops unit
  dimensions of the partial type reads as the partial type plus a `tensor.collapse_shape`,
  which the op class adds when wrapped by `delivering` (`ktdp_spellings`).
* `custom<ShortType>(type($v))`: a `ktdf_arch` type by its mnemonic alone (`memory`), any
  other type in full.
* `custom<SymbolName>($p)`: `@name`, with MLIR's error when it is missing.
* `custom<GraphOrImport>($r, $path)`: a device body (`IsolatedBody`) or `import("path")`.
* `custom<Subscripts>($map, $operands)`: `[%i + 3, symbol(%s), 0]`, an affine map applied to
  index operands (MLIR's `AffineMapOfSSAIds`; the syntax is `affine_subscripts`'), written
  right after its memref (`$mem `` custom<Subscripts>(...)`).
* `custom<PagedSegments>($sets, $addrs)`: a paged view's pages on lines of their own,
  `{segments = page0: (idx_set = affine_set<...>, start_addr = %a), ...}`, named in order.
* `custom<EnumKeyword>($p)`: an i32 enum property written as its case's name (`value from %a`);
  the op names the enum in `KEYWORDS`.
* `custom<AccessTile>(type($r))`: a `!ktdp.access_tile<...>` result, read stripped or in full,
  printed in full.
* `custom<IndirectSubscripts>($region, $base, $indirect, $captured, $kinds, $maps)`:
  `intermediate_variables(%m) %X[ind(%IDX[%m]), (%k)]`, ktdp's gather/scatter subscripts.
* `custom<BaseAndIndexTypes>(type($base), type($indirect))`: `T, T_idx...` with upstream's count error.

`checked_parse` asks a parsed op for the violations upstream's hand-written parser reports
once it has read the whole op (a parse error at the op's first operand).

xDSL 0.74 has no custom `attr-dict` (ODS's `custom<AttrDictOrAlias>(attr-dict)`): `with_attr_dict`
swaps an op's `attr-dict` for a subclass of xDSL's directive, `ResourceAttrDict` (`[@id]` and
one dictionary, or an alias of one, holding inherent and discardable attributes) or
`InherentAttrDict` (inherent attributes may be written in the dictionary, as MLIR allows).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import (AffineMapAttr, AffineSetAttr, ArrayAttr, BoolAttr, DenseArrayBase, DictionaryAttr, IndexType,
                                   IntegerAttr, MemRefType, StringAttr, UnitAttr, i32, i64)
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (AttrDictDirective, AttributeVariable, CustomDirective,
                                                   FormatProgram, OperandVariable, ParsingState, PrintingState,
                                                   RegionVariable, ResultVariable, TypeDirective,
                                                   VariadicOperandVariable, irdl_custom_directive)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator

from dfsched.compat import MLIRTokenKind, UnresolvedOperand, next_token_is
from dfsched.dialects.affine_subscripts import parse_optional_subscripts, parse_subscripts, print_subscripts
from dfsched.dialects.syntax import add_implicit_terminator, parse_instance, parse_type_list, sorted_attrs, split_inherent

KDYNAMIC = -(2**63)
"""MLIR's `ShapedType::kDynamic`: the placeholder for a dynamic fifo count or size entry."""


def _printed(state: PrintingState) -> None:
    state.should_emit_space = True
    state.last_was_punctuation = False


class _Word(CustomDirective):
    """A directive printed as one word of the format: `print_text`, spaced from what precedes
    it as the format's own words are."""

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        self.print_text(printer, op)
        _printed(state)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        raise NotImplementedError


def _parse_pair(parser: Parser, separator: str) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    """`[%a <separator> %b]`."""
    parser.parse_punctuation("[")
    first = parser.parse_unresolved_operand()
    parser.parse_punctuation(separator)
    second = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return first, second


def parse_bracket_pairs(parser: Parser) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand]]:
    """`[%a : %b], [%c : %d]` (outermost first); the trailing comma is optional."""
    pairs = []
    while next_token_is(parser, MLIRTokenKind.L_SQUARE):
        pairs.append(_parse_pair(parser, ":"))
        parser.parse_optional_punctuation(",")
    return [a for a, _ in pairs], [b for _, b in pairs]


def print_bracket_pairs(printer: Printer, first: Sequence[SSAValue], second: Sequence[SSAValue],
                        separator: str = " : ") -> None:
    """`[%a : %b], [%c : %d]` (`separator` between the two of a pair)."""
    pairs_text = getattr(printer, "pairs_text", None)  # dfsched's printer: one string for all pairs
    if pairs_text is not None:
        printer.print_string(pairs_text(first, second, separator))
        return
    for i, (a, b) in enumerate(zip(first, second)):
        if i:
            printer.print_string(", ")
        printer.print_string("[")
        printer.print_operand(a)
        printer.print_string(separator)
        printer.print_operand(b)
        printer.print_string("]")


@irdl_custom_directive
class BracketPairs(CustomDirective):
    first: VariadicOperandVariable
    second: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        first, second = parse_bracket_pairs(parser)
        self.first.set(state, first)
        self.second.set(state, second)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        pairs = list(zip(self.first.get(op), self.second.get(op)))
        if not pairs:
            return
        state.print_whitespace(printer)
        print_bracket_pairs(printer, *zip(*pairs))
        _printed(state)

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.first.get(op))


@irdl_custom_directive
class ImmutableMap(_Word):
    keys: VariadicOperandVariable
    values: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: _parse_pair(parser, "->"),
                                                  " in symbol map")
        self.keys.set(state, [k for k, _ in pairs])
        self.values.set(state, [v for _, v in pairs])

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        printer.print_string("(")
        print_bracket_pairs(printer, self.keys.get(op), self.values.get(op), " -> ")
        printer.print_string(")")


@irdl_custom_directive
class Token(CustomDirective):
    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdf_types import TokenType

        self.type.set(state, (parser.parse_optional_type() or TokenType(),))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        self.type.print(printer, state, op)


def parse_own_type(parser: Parser, base: type[ParametrizedAttribute]) -> Attribute:
    """A type of class `base` where an op's syntax expects one: stripped of its name (`<...>`),
    as MLIR's declarative formats print it, or in full."""
    if parser._current_token.kind == MLIRTokenKind.LESS:
        return base.new(base.parse_parameters(parser))
    start = parser.pos
    full = parser.parse_type()
    if not isinstance(full, base):
        parser.raise_error(f"expected '!{base.name}' type, but got '{full}'", start, parser.pos)
    return full


@irdl_custom_directive
class OwnType(_Word):
    type: TypeDirective

    def _base(self, op_type: type[IRDLOperation]) -> type[ParametrizedAttribute]:
        """The one type class the operand or result admits (its declared constraint)."""
        op_def = op_type.get_irdl_definition()
        inner = self.type.inner
        defs = op_def.results if isinstance(inner, ResultVariable) else op_def.operands
        constr = dict(defs)[inner.name].constr
        while not hasattr(constr, "get_bases"):  # a single operand is a range of length one
            constr = getattr(constr, "constraint", None) or constr.constr
        (base,) = constr.get_bases()
        return base

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.type.set(state, (parse_own_type(parser, self._base(state.op_type)),))

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        (type_,) = self.type.get(op)
        if isinstance(type_, self._base(type(op))):
            type_.print_parameters(printer)
        else:
            printer.print_attribute(type_)


@irdl_custom_directive
class Body(_Word):
    region: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.expect(parser.parse_optional_region, "expected a region")
        if not region.blocks:
            region.add_block(Block())
        if (implicit := state.op_type.get_trait(SingleBlockImplicitTerminator)) is not None:
            add_implicit_terminator(region, implicit.op_type)
        self.region.set(state, region)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        region: Region = self.region.get(op)
        last = region.block.last_op if region.blocks else None
        elide = (op.has_trait(SingleBlockImplicitTerminator) and last is not None
                 and not last.operands and not last.attributes and not last.properties)
        printer.print_region(region, print_entry_block_args=bool(region.blocks and region.block.args),
                             print_empty_block=False, print_block_terminators=not elide)


@irdl_custom_directive
class BareI64(_Word):
    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, IntegerAttr(parser.parse_integer(allow_boolean=False), i64))

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        attr = self.value.get(op)
        printer.print_string(str(attr.value.data) if isinstance(attr, IntegerAttr) else str(attr))

    def is_present(self, op: IRDLOperation) -> bool:
        return self.value.get(op) is not None

    def is_anchorable(self) -> bool:
        return True


@irdl_custom_directive
class EnumKeyword(_Word):
    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        names = [k.name for k in state.op_type.KEYWORDS]
        kind = parser.expect(lambda: parser.parse_optional_keyword_in(names), f"expected one of {', '.join(names)}")
        self.value.set(state, IntegerAttr(int(state.op_type.KEYWORDS[kind]), i32))

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        value = self.value.get(op).value.data
        known = {int(k): k.name for k in op.KEYWORDS}
        printer.print_string(known.get(value, str(value)))


@irdl_custom_directive
class CellOrSlot(_Word):
    value: OperandVariable
    indices: VariadicOperandVariable
    map: AttributeVariable
    sizes: VariadicOperandVariable
    static_sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, parser.parse_unresolved_operand())
        sub = parse_optional_subscripts(parser)
        if sub is not None:
            self.map.set(state, AffineMapAttr(sub.map))
        self.indices.set(state, list(sub.operands) if sub is not None else [])
        dynamic: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("size") is not None:

            def entry() -> int:
                operand = parser.parse_optional_unresolved_operand()
                if operand is not None:
                    dynamic.append(operand)
                    return KDYNAMIC
                return parser.expect(lambda: parser.parse_optional_integer(allow_boolean=False),
                                     "expected an integer or an SSA value in the size list")

            static = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
            self.static_sizes.set(state, DenseArrayBase.from_list(i64, static))
        self.sizes.set(state, dynamic)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        value: SSAValue = self.value.get(op)
        printer.print_operand(value)
        if isinstance(value.type, MemRefType):
            amap = self.map.get(op)
            print_subscripts(printer, amap.data if isinstance(amap, AffineMapAttr) else AffineMap(0, 0, ()),
                             self.indices.get(op))
        static = self.static_sizes.get(op)
        if isinstance(static, DenseArrayBase):
            printer.print_string(" size [")
            values = iter(self.sizes.get(op))
            for i, size in enumerate(static.get_values()):
                if i:
                    printer.print_string(", ")
                if size == KDYNAMIC:
                    dynamic = next(values, None)
                    printer.print_operand(dynamic) if dynamic is not None else printer.print_string("?")
                else:
                    printer.print_string(str(size))
            printer.print_string("]")


def parse_isolated_region(parser: Parser, arguments: Sequence[Parser.Argument] | None = None) -> Region | None:
    """Parse a region that cannot see values defined outside it (IsolatedFromAbove).

    xDSL's parser lets regions see every enclosing value; here the region starts with an
    empty scope (so group block arguments may reuse the shared memories' names), and a
    use of an outer or undefined name is reported where it is written.
    """
    saved_values = parser.ssa_values
    saved_forward = parser.forward_ssa_references
    previous_hook = parser.__dict__.get("resolve_operand")
    outer_resolve = parser.resolve_operand
    first_use: dict[str, object] = {}

    def resolve_operand(operand, type):  # records where an unknown name is first used
        name = operand.operand_name
        if name not in parser.ssa_values and name not in first_use:
            first_use[name] = operand.span
        return outer_resolve(operand, type)

    parser.ssa_values = {}
    parser.forward_ssa_references = {}
    parser.resolve_operand = resolve_operand  # type: ignore[method-assign]
    try:
        region = parser.parse_optional_region(arguments)
        if parser.forward_ssa_references:
            name = next(iter(parser.forward_ssa_references))
            parser.raise_error("use of undeclared SSA value name", first_use.get(name))  # type: ignore[arg-type]
        return region
    finally:
        parser.ssa_values = saved_values
        parser.forward_ssa_references = saved_forward
        if previous_hook is None:
            parser.__dict__.pop("resolve_operand", None)
        else:
            parser.resolve_operand = previous_hook  # type: ignore[method-assign]


@irdl_custom_directive
class IsolatedBody(_Word):
    region: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.expect(lambda: parse_isolated_region(parser), "expected '{' to begin a region")
        if not region.blocks:
            region.add_block(Block())
        self.region.set(state, region)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        printer.print_region(self.region.get(op), print_entry_block_args=False, print_empty_block=False)


@irdl_custom_directive
class StringArray(CustomDirective):
    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.kind != MLIRTokenKind.L_SQUARE:
            return
        pos = parser.pos
        array = parser.parse_attribute()
        if not isinstance(array, ArrayAttr) or not all(isinstance(g, StringAttr) for g in array.data):
            parser.raise_error("expected an array of strings for the pattern groups", pos)
        if array.data:
            self.value.set(state, array)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        array = self.value.get(op)
        if isinstance(array, ArrayAttr) and array.data:
            state.print_whitespace(printer)
            printer.print_attribute(array)
            _printed(state)


@irdl_custom_directive
class ProducedFuture(CustomDirective):
    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdp_spellings import check_produce_annotation, parse_produce_annotation
        from dfsched.dialects.ktdp_types import TileFutureType

        annotation = parse_produce_annotation(parser)
        parser.parse_punctuation("->")
        future = parse_own_type(parser, TileFutureType)
        check_produce_annotation(parser, annotation, future.get_partial_types())
        self.type.set(state, (future,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        (future,) = self.type.get(op)
        printer.print_string(" -> ")
        future.print_parameters(printer)
        _printed(state)


@irdl_custom_directive
class Delivered(_Word):
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdp_spellings import delivery_result_types, push_declared_delivery

        pos = parser.pos
        declared = parse_type_list(parser)
        (future,) = state.operand_types[0]
        self.types.set(state, delivery_result_types(declared, future.get_partial_types()))
        push_declared_delivery(parser, declared, pos)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        printer.print_list(self.types.get(op), printer.print_attribute)


@irdl_custom_directive
class ShortType(_Word):
    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdf_arch_types import parse_short_type

        self.type.set(state, (parse_short_type(parser),))

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        from dfsched.dialects.ktdf_arch_types import print_short_type

        print_short_type(printer, self.type.get(op)[0])


@irdl_custom_directive
class SymbolName(_Word):
    name: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.name.set(state, parser.expect(parser.parse_optional_symbol_name,
                                           "expected valid '@'-identifier for symbol name"))

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        printer.print_string(f"@{self.name.get(op).data}")


@irdl_custom_directive
class GraphOrImport(_Word):
    region: RegionVariable
    path: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parse_isolated_region(parser)
        if region is None:
            if parser.parse_optional_keyword("import") is None:
                parser.raise_error("expected a device body '{' or 'import'")
            parser.parse_punctuation("(")
            self.path.set(state, parse_instance(parser, parser.parse_attribute, StringAttr,
                                                "expected a string path in 'import(...)'"))
            parser.parse_punctuation(")")
            region = Region()
        self.region.set(state, region)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        region: Region = self.region.get(op)
        path = self.path.get(op)
        if isinstance(path, StringAttr) and not region.blocks:
            printer.print_string("import(")
            printer.print_attribute(path)
            printer.print_string(")")
        else:
            printer.print_region(region, print_entry_block_args=False, print_empty_block=False)


def _parse_dict_entries(parser: Parser) -> dict[str, Attribute]:
    """`{` (name [`=` attr])* `}` with MLIR's `sparse<...>` allowed as a value."""
    from dfsched.dialects.ktdf_arch_types import parse_sparse_literal

    entries: dict[str, Attribute] = {}
    parser.parse_punctuation("{")
    if parser.parse_optional_punctuation("}") is not None:
        return entries
    while True:
        name_pos = parser.pos
        name = parser.expect(parser.parse_optional_identifier_or_str_literal, "expected attribute name")
        if name in entries:
            parser.raise_error(f"duplicate key '{name}' in dictionary attribute", name_pos)
        if parser.parse_optional_punctuation("=") is None:
            entries[name] = UnitAttr()
        elif parser.parse_optional_keyword("sparse") is not None:
            entries[name] = parse_sparse_literal(parser)
        else:
            entries[name] = parser.parse_attribute()
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation("}")
    return entries


def parse_attr_dict_or_alias(parser: Parser) -> dict[str, Attribute]:
    """An optional dictionary, written inline or as an alias such as `#L1`."""
    if parser._current_token.kind == MLIRTokenKind.L_BRACE:
        return _parse_dict_entries(parser)
    if parser._current_token.kind == MLIRTokenKind.HASH_IDENT:
        return dict(parse_instance(parser, parser.parse_attribute, DictionaryAttr,
                                   "invalid kind of attribute specified: expected a dictionary").data)
    return {}


def parse_id_and_dict(parser: Parser, inherent: Iterable[str], allow_id: bool = True
                      ) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """`[@id] [dict-or-alias]` → (properties, discardable attributes)."""
    ident = parser.parse_optional_symbol_name() if allow_id else None
    pos = parser.pos
    props, attrs = split_inherent(parse_attr_dict_or_alias(parser), inherent)
    if ident is not None:
        if "id" in props and props["id"] != ident:
            parser.raise_error("resource id given twice with different values", pos)
        props["id"] = ident
    return props, attrs


def print_id_and_dict(printer: Printer, op: Operation, elided: Iterable[str] = (), with_id: bool = True) -> None:
    """` @id` (unless not `with_id`: then `id` is one more entry) and the merged, name-sorted dictionary of inherent and discardable attributes,
    printed as one dictionary attribute, as upstream does, so that a dictionary with a string
    `kind` can print as its alias (`memory #DDR`)."""
    ident = op.properties.get("id")
    if with_id and isinstance(ident, StringAttr):
        printer.print_string(f" @{ident.data}")
    skip = {"id", *elided} if with_id else set(elided)
    merged = sorted_attrs(op, skip)
    if merged:
        printer.print_string(" ")
        printer.print_attribute(DictionaryAttr(merged))


class ResourceAttrDict(AttrDictDirective):
    """ODS's `($id^)? ``custom<AttrDictOrAlias>(attr-dict)` of every `ktdf_arch` resource."""

    def parse(self, parser: Parser, state: ParsingState) -> None:
        props, attrs = parse_id_and_dict(parser, state.op_type.get_irdl_definition().properties)
        state.properties |= props
        state.attributes |= attrs

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        print_id_and_dict(printer, op)
        _printed(state)


class InherentAttrDict(AttrDictDirective):
    """MLIR's `attr-dict` as it reads: an inherent attribute written in the dictionary becomes
    the property, even one the format spells elsewhere (the verifier judges the result)."""

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if self.with_keyword:
            parsed = parser.parse_optional_attr_dict_with_keyword()
            attrs = dict(parsed.data) if parsed is not None else {}
        else:
            attrs = parser.parse_optional_attr_dict()
        inherent = state.op_type.get_irdl_definition().properties
        for name, value in attrs.items():
            if name in state.properties:
                parser.raise_error(f"attribute '{name}' is given twice")
            (state.properties if name in inherent else state.attributes)[name] = value


def with_attr_dict(directive: type[AttrDictDirective]):
    """Class decorator: the op's declarative format with its `attr-dict` read and printed by
    `directive` (put it above `@irdl_op_definition`)."""

    def wrap(op_class: type[IRDLOperation]) -> type[IRDLOperation]:
        op_def = op_class.get_irdl_definition()
        program = FormatProgram.from_str(op_def.assembly_format, op_def)
        program = FormatProgram(tuple(
            directive(s.with_keyword, s.reserved_attr_names, s.expected_properties)
            if isinstance(s, AttrDictDirective) else s for s in program.stmts))

        def parse(cls, parser: Parser) -> IRDLOperation:
            return program.parse(parser, cls)

        def print_(self: IRDLOperation, printer: Printer) -> None:
            program.print(printer, self)

        op_class.parse = classmethod(parse)  # type: ignore[method-assign]
        op_class.print = print_  # type: ignore[method-assign]
        return op_class

    return wrap


@irdl_custom_directive
class PagedSegments(CustomDirective):
    sets: AttributeVariable
    addrs: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        sets: list[Attribute] = []
        addrs: list[UnresolvedOperand] = []
        parser.parse_punctuation("{")
        parser.parse_keyword("segments")
        parser.parse_punctuation("=")
        while parser.parse_optional_keyword(f"page{len(addrs)}"):
            parser.parse_punctuation(":")
            parser.parse_punctuation("(")
            parser.parse_keyword("idx_set")
            parser.parse_punctuation("=")
            sets.append(parse_instance(parser, parser.parse_attribute, AffineSetAttr,
                                       "expected an affine_set for 'idx_set'", span=True))
            parser.parse_punctuation(",")
            parser.parse_keyword("start_addr")
            parser.parse_punctuation("=")
            addrs.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
            parser.parse_optional_punctuation(",")
        parser.parse_punctuation("}", " to close the segments (pages are named page0, page1, ... in order)")
        self.sets.set(state, ArrayAttr(sets))
        self.addrs.set(state, addrs)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string("\n  {segments = ")
        for i, (idx_set, page) in enumerate(zip(self.sets.get(op).data, self.addrs.get(op))):
            printer.print_string(f"{',' if i else ''}\n    page{i}: (idx_set = ")
            printer.print_attribute(idx_set)
            printer.print_string(", start_addr = ")
            printer.print_operand(page)
            printer.print_string(")")
        printer.print_string("}")
        _printed(state)


@irdl_custom_directive
class Subscripts(_Word):
    map: AttributeVariable
    operands: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        apart = getattr(state.op_type, "SYMBOLS_APART", False)
        sub = _parse_dim_subscripts(parser, True) if apart else parse_subscripts(parser)
        self.map.set(state, AffineMapAttr(sub.map))
        self.operands.set(state, sub.operands)

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        print_subscripts(printer, self.map.get(op), self.operands.get(op))


@irdl_custom_directive
class AccessTile(Token):
    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdp_types import AccessTileType

        self.type.set(state, (parse_own_type(parser, AccessTileType),))


def checked_parse(op_type: type[IRDLOperation]) -> type[IRDLOperation]:
    """Class decorator: the op's `parsed_violation(op)` (a message or None), asked of the op its
    declarative format read, is a parse error located at the op's first operand, as upstream's
    hand-written parsers report what they check after reading the whole op."""
    format_parse = op_type.parse.__func__  # type: ignore[attr-defined]

    def parse(cls, parser: Parser):
        start = parser.pos
        op = format_parse(cls, parser)
        if (message := cls.parsed_violation(op)) is not None:
            parser.raise_error(f"'{cls.name}' op {message}", start)
        return op

    op_type.parse = classmethod(parse)  # type: ignore[method-assign]
    return op_type


def _parse_dim_subscripts(parser: Parser, brackets: bool):
    """A ktdp access tile's subscripts: its symbols are passed apart, in `symbols(...)`."""
    pos = parser.pos
    sub = parse_subscripts(parser, brackets=brackets)
    if sub.map.num_symbols:
        parser.raise_error("a ktdp subscript takes no 'symbol(...)': pass symbols in 'symbols(...)'", pos)
    return sub


def _operand_key(operand: UnresolvedOperand) -> tuple[str, int]:
    return operand.operand_name, operand.index


@irdl_custom_directive
class IndirectSubscripts(CustomDirective):
    """`intermediate_variables(%m, %k) %X[ind(%IDX[%m, %k]), (%k mod 64)]`: the intermediate
    variables become the region's block arguments, other ids in the subscripts captured
    operands; every subscript map is stored over the dims `(captured..., intermediate...)`."""

    region: RegionVariable
    base: OperandVariable
    indirect: VariadicOperandVariable
    captured: VariadicOperandVariable
    kinds: AttributeVariable
    maps: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = state.start = parser.pos  # type: ignore[attr-defined]

        def fail(message: str, at=None):
            parser.raise_error(f"'{state.op_type.name}' op {message}", start if at is None else at)

        if not parser.parse_optional_keyword("intermediate_variables"):
            fail("error parsing intermediate_variables: expected 'intermediate_variables(...)'", parser.pos)
        variables = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        variable_keys = [_operand_key(v) for v in variables]
        if len(set(variable_keys)) != len(variable_keys):
            fail("error parsing intermediate_variables: a name is repeated")
        self.base.set(state, parser.parse_unresolved_operand())
        kinds: list[bool] = []
        subscripts = []
        indirect: list[UnresolvedOperand] = []
        parser.parse_punctuation("[")
        while not parser.parse_optional_punctuation("]"):
            if kinds and not parser.parse_optional_punctuation(","):
                fail("expecting a comma between subscripts", parser.pos)
            if parser.parse_optional_keyword("ind"):
                parser.parse_punctuation("(")
                indirect.append(parser.parse_unresolved_operand())
                kinds.append(True)
            elif parser.parse_optional_punctuation("("):
                kinds.append(False)
            else:
                fail("unexpected token in subscript list, expected 'ind', '(', or ']'", parser.pos)
            subscripts.append(_parse_dim_subscripts(parser, kinds[-1]))
            parser.parse_punctuation(")")
        # Captured variables: the ids that are not intermediate, in first-appearance order.
        captured: dict[tuple[str, int], UnresolvedOperand] = {}
        for operand in (o for sub in subscripts for o in sub.operands if _operand_key(o) not in variable_keys):
            captured.setdefault(_operand_key(operand), operand)
        position = {k: i for i, k in enumerate([*captured, *variable_keys])}
        maps = []
        for sub in subscripts:
            dims = [AffineExpr.dimension(position[_operand_key(o)]) for o in sub.operands]
            maps.append(AffineMapAttr(AffineMap(len(position), 0, tuple(
                e.replace_dims_and_symbols(dims, []) for e in sub.map.results))))
        body = Block(arg_types=[IndexType()] * len(variables))
        for arg, name in zip(body.args, variables):
            if SSAValue.is_valid_name(name.operand_name):
                arg.name_hint = name.operand_name
        body.add_op(state.op_type.get_trait(SingleBlockImplicitTerminator).op_type.create())
        self.region.set(state, Region(body))
        self.indirect.set(state, indirect)
        self.captured.set(state, list(captured.values()))
        self.kinds.set(state, ArrayAttr([BoolAttr.from_bool(k) for k in kinds]))
        self.maps.set(state, ArrayAttr(maps))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(" intermediate_variables(")
        block = self.region.get(op).blocks.first
        intermediate = list(block.args) if block is not None else []
        printer.print_list(intermediate, printer.print_operand)
        printer.print_string(") ")
        printer.print_operand(self.base.get(op))
        printer.print_string("[")
        variables = [*self.captured.get(op), *intermediate]
        indirect = iter(self.indirect.get(op))
        kinds = [bool(k.value.data) for k in self.kinds.get(op).data if isinstance(k, IntegerAttr)]
        maps = [m.data for m in self.maps.get(op).data if isinstance(m, AffineMapAttr)]
        for i, (is_indirect, amap) in enumerate(zip(kinds, maps)):
            printer.print_string(", " if i else "")
            if is_indirect:
                printer.print_string("ind(")
                index_view = next(indirect, None)
                if index_view is None:
                    printer.print_string("<<missing index view>>")
                else:
                    printer.print_operand(index_view)
                print_subscripts(printer, amap, variables)
            else:
                printer.print_string("(")
                print_subscripts(printer, amap, variables, brackets=False)
            printer.print_string(")")
        printer.print_string("]")
        _printed(state)


@irdl_custom_directive
class BaseAndIndexTypes(_Word):
    """`T, T_idx...`: the base's type, then one type per index view."""

    base: TypeDirective
    indirect: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        expected = len(state.operands[1]) + 1
        if len(types) != expected:
            parser.raise_error(f"'{state.op_type.name}' op expected {expected} types (base + {expected - 1} "
                               f"indirect memrefs), but got {len(types)}", state.start)  # type: ignore[attr-defined]
        self.base.set(state, types[:1])
        self.indirect.set(state, types[1:])

    def print_text(self, printer: Printer, op: IRDLOperation) -> None:
        printer.print_list([*self.base.get(op), *self.indirect.get(op)], printer.print_attribute)


@irdl_custom_directive
class LeadingBracketPairs(BracketPairs):
    """`custom<LeadingBracketPairs>($a, $b)`: `BracketPairs` before more operands, followed by a
    comma when there are any (`[%iv : %ts], total_size = %n`)."""

    first: VariadicOperandVariable
    second: VariadicOperandVariable

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        super().print(printer, state, op)
        if self.is_present(op):
            printer.print_string(",")
