"""The `uniform` dialect: per-unit differences inside one SPMD DataflowIR program.

A `dataflow.program_unit` runs the same body on several units; whatever differs per unit (the
peer unit, an address, a loop bound) is written once as an immutable key -> value table
(`uniform.def_immutable_mapping`) and looked up with the unit's own handle
(`uniform.query_map(map:%m, key:%iter_arg)`). `uniformize_regions` / `equalize_pattern` keep
one region per unit list while programs are being merged.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IndexType, IntegerAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, opt_prop_def,
                       prop_def, result_def, traits_def, var_operand_def, var_region_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import LIVE_VALUE_CLASSES, UnresolvedOperand, indented
from dfsched.dialects.dataflow import (CreateGroupOp, GetUnitOp, RegionYieldOp, dfir_dialect,
                                       ensure_implicit_terminator, newline, parse_operand_list, print_attr_dict,
                                       split_attr_dict)
from dfsched.dialects.syntax import op_class, parse_arrow_type_list, print_arrow_type_list
from dfsched.dialects.directives import print_bracket_pairs
from dfsched.dialects.symbol import QueryMapBase, ScalarValue

_INDEX = IndexType()


YieldOp = op_class("YieldOp", RegionYieldOp, "uniform.yield", "Terminator of the uniform region ops.")


def _is_scalar_value(owner: Operation | Block) -> bool:
    return isinstance(owner, Operation) and owner.has_trait(ScalarValue)


@irdl_op_definition
class DefImmutableMappingOp(IRDLOperation):
    """An immutable key -> value table, e.g. my unit -> my peer unit; the result is an opaque handle."""

    name = "uniform.def_immutable_mapping"

    keys = var_operand_def()
    values = var_operand_def()
    result = result_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, keys: Sequence[SSAValue], values: Sequence[SSAValue], result_type: Attribute = _INDEX):
        keys, values = list(keys), list(values)
        if not all(type(v) in LIVE_VALUE_CLASSES or isinstance(v, SSAValue) for v in keys + values):
            super().__init__(operands=[keys, values], result_types=[result_type])
            return
        # What the generic builder makes, without its per-operand argument handling: a grid-wide
        # mapping has two operands per core (issue #19, grid scaling).
        Operation.__init__(self, operands=keys + values, result_types=[result_type],
                           properties={AttrSizedOperandSegments.attribute_name:
                                       DenseArrayBase.from_list(i32, [len(keys), len(values)])})

    def lookup(self, key: SSAValue) -> SSAValue | None:
        """The value mapped to `key` (by SSA identity), if any."""
        return self.table().get(key)

    def table(self) -> dict[SSAValue, SSAValue]:
        """key -> value, the first entry of a repeated key winning: one pass, for callers that
        look up every key of a grid-wide mapping."""
        table: dict[SSAValue, SSAValue] = {}
        for k, v in zip(self.keys, self.values):
            table.setdefault(k, v)
        return table

    @classmethod
    def parse(cls, parser: Parser) -> DefImmutableMappingOp:
        keys: list[UnresolvedOperand] = []
        values: list[UnresolvedOperand] = []
        parser.parse_punctuation("(")
        while parser.parse_optional_punctuation("["):
            keys.append(parser.parse_unresolved_operand())
            parser.parse_punctuation("->")
            values.append(parser.parse_unresolved_operand())
            parser.parse_punctuation("]")
            if not parser.parse_optional_punctuation(","):
                break
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        value_type = parser.parse_type() if parser.parse_optional_punctuation(",") else _INDEX
        return cls([parser.resolve_operand(k, _INDEX) for k in keys],
                   [parser.resolve_operand(v, value_type) for v in values], result_type)

    def print(self, printer: Printer) -> None:
        entries = list(zip(self.keys, self.values))
        value_type = entries[-1][1].type if entries else self.result.type
        printer.print_string("(")
        print_bracket_pairs(printer, self.keys, self.values, " -> ")
        printer.print_string("):")
        printer.print_attribute(self.result.type)
        if value_type != self.result.type:
            printer.print_string(", ")
            printer.print_attribute(value_type)

    def verify_(self) -> None:
        keys, values = self.keys, self.values
        if len(keys) != len(values):
            raise VerifyException(f"has {len(keys)} keys but {len(values)} values")
        if not keys:
            raise VerifyException("expects at least one [key -> value] entry")
        # Per class of defining op (a grid-wide mapping has thousands of entries, few classes): a
        # registered op's name and traits are its class's, an unregistered op's trait answers the same for all.
        if isinstance(keys[0].owner, GetUnitOp):
            if not all(issubclass(kind, GetUnitOp) for kind in {type(k.owner) for k in keys}):
                raise VerifyException("All Keys are not of same type")
        owners = {type(v.owner): v.owner for v in values}.values()  # a block for a block argument
        if _is_scalar_value(values[0].owner):
            if not all(_is_scalar_value(owner) for owner in owners):
                raise VerifyException("All map values are expected to be scalar values.")
        elif len({owner.name if isinstance(owner, Operation) else None for owner in owners}) > 1:
            raise VerifyException("All map values should be of same type.")


@irdl_op_definition
class QueryMapOp(QueryMapBase):
    """The value `map` holds for the runtime value of `key` (usually a program_unit `iter_arg`)."""

    name = "uniform.query_map"

    result = result_def()

    def __init__(self, map: SSAValue, key: SSAValue, result_type: Attribute):
        super().__init__(operands=[map, key], result_types=[result_type])


# ---------------------------------------------------------------------------
# Region ops: one region per unit list
# ---------------------------------------------------------------------------


class _UnitListRegionsOp(IRDLOperation):
    """Shared syntax and checks of `uniformize_regions` / `equalize_pattern`.

    Each region is introduced by `(%arg -> %u0, %u1)`; `%arg` is the region's single index
    argument and the units are stored flat in `units`, split by `list_sizes`.
    """

    def unit_list(self, index: int) -> tuple[SSAValue, ...]:
        sizes = [a.value.data for a in self.list_sizes.data]
        start = sum(sizes[:index])
        return tuple(self.units[start:start + sizes[index]])

    @classmethod
    def _parse_unit_regions(cls, parser: Parser) -> tuple[list[SSAValue], list[int], list[Region]]:
        """`{ (%arg -> %u0, ...) { region } ... }` (the closing brace may be left out)."""
        parser.parse_punctuation("{")
        units: list[SSAValue] = []
        sizes: list[int] = []
        regions: list[Region] = []
        while parser.parse_optional_punctuation("("):
            arg = parser.parse_argument(expect_type=False).resolve(_INDEX)
            parser.parse_punctuation("->")
            unit_list = parse_operand_list(parser)
            parser.parse_punctuation(")")
            regions.append(parser.parse_region([arg]))
            units.extend(parser.resolve_operand(u, _INDEX) for u in unit_list)
            sizes.append(len(unit_list))
        parser.parse_optional_punctuation("}")
        return units, sizes, regions

    def _print_unit_regions(self, printer: Printer) -> None:
        printer.print_string(" {")
        with indented(printer):
            for i, region in enumerate(self.regions):
                newline(printer)
                printer.print_string("(")
                block = region.blocks.first
                if block is not None and block.args:
                    printer.print_operand(block.args[0])
                printer.print_string(" -> ")
                printer.print_list(self.unit_list(i), printer.print_operand)
                printer.print_string(")")
                printer.print_region(region, print_entry_block_args=False, print_block_terminators=True)
        newline(printer)
        printer.print_string("}")

    def _verify_unit_lists(self) -> None:
        sizes = [a.value.data for a in self.list_sizes.data]
        if len(sizes) != len(self.regions):
            raise VerifyException(f"has {len(self.regions)} regions but {len(sizes)} unit lists")
        if sum(sizes) != len(self.units):
            raise VerifyException(f"unit list sizes add up to {sum(sizes)} but the op has {len(self.units)} units")
        for region in self.regions:
            block = region.blocks.first
            if block is None or len(block.args) != 1 or block.args[0].type != _INDEX:
                raise VerifyException("each region must have exactly one index argument (the unit it runs on)")
        if len(set(self.units)) != len(self.units):
            raise VerifyException("duplicated unit SSAs found!")
        for i in range(len(sizes)):
            unit_list = self.unit_list(i)
            if len(unit_list) == 1:
                if not isinstance(unit_list[0].owner, GetUnitOp | CreateGroupOp):
                    raise VerifyException("region's unit_list must be programUnitOp or createGroupOp type!")
            elif not all(isinstance(u.owner, GetUnitOp) for u in unit_list):
                raise VerifyException("when unit_list size > 1, all units must be programUnitOp!")


@irdl_op_definition
class UniformizeRegionsOp(_UnitListRegionsOp):
    name = "uniform.uniformize_regions"

    units = var_operand_def()
    list_sizes = prop_def(ArrayAttr[IntegerAttr])
    regIndices = opt_prop_def(ArrayAttr[IntegerAttr])
    regLocales = opt_prop_def(ArrayAttr)
    res = var_result_def()
    body = var_region_def()

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp))

    @classmethod
    def parse(cls, parser: Parser) -> UniformizeRegionsOp:
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            result_types = parse_arrow_type_list(parser)
        units, sizes, regions = cls._parse_unit_regions(parser)
        attrs = parser.parse_optional_attr_dict()
        props, others = split_attr_dict(cls, attrs)
        props["list_sizes"] = ArrayAttr([IntegerAttr(s, i32) for s in sizes])
        op = cls.create(operands=units, result_types=result_types, properties=props, attributes=others,
                        regions=regions)
        return ensure_implicit_terminator(op, YieldOp)

    def print(self, printer: Printer) -> None:
        printer.print_string(" -> ")
        print_arrow_type_list(printer, [r.type for r in self.results])
        self._print_unit_regions(printer)
        print_attr_dict(printer, self, elided=["list_sizes", "newly_added"])

    def verify_(self) -> None:
        self._verify_unit_lists()
        for region in self.regions:
            term = region.blocks.first.last_op
            if term is None or len(term.operands) != len(self.results):
                raise VerifyException("The size of the operands in the yieldOp of a uniformize_regionsOp region "
                                      "differs from the size of its results.")


@irdl_op_definition
class EqualizePatternOp(_UnitListRegionsOp):
    name = "uniform.equalize_pattern"

    units = var_operand_def()
    list_sizes = prop_def(ArrayAttr[IntegerAttr])
    body = var_region_def()

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp))

    @classmethod
    def parse(cls, parser: Parser) -> EqualizePatternOp:
        units, sizes, regions = cls._parse_unit_regions(parser)
        op = cls.create(operands=units, regions=regions,
                        properties={"list_sizes": ArrayAttr([IntegerAttr(s, i32) for s in sizes])})
        return ensure_implicit_terminator(op, YieldOp)

    def print(self, printer: Printer) -> None:
        self._print_unit_regions(printer)

    def verify_(self) -> None:
        self._verify_unit_lists()
        if len(self.regions) < 2:
            raise VerifyException("expects at least two regions to compare")
        names = [[op.name for op in region.blocks.first.ops] for region in self.regions]
        if any(len(n) != len(names[0]) for n in names):
            raise VerifyException("regions have different operation size.")
        if any(n != names[0] for n in names):
            raise VerifyException("Operation sequences different.")



UNIFORM = dfir_dialect("uniform", [YieldOp, DefImmutableMappingOp, QueryMapOp, UniformizeRegionsOp, EqualizePatternOp])
