"""The `agen` dialect: address generation, i.e. vector loads and stores against memory views.

A memory access names a base address with an affine subscript on a memref (`%mem[%i, 0]`,
see `affine_subscripts`), which elements around that base form the vector with an affine
*set* (`load_set`/`store_set`), and how they are packed with an affine *order* map. Composite
ops repeat a load/store over time steps (`time_set`, `time_order`, `*_time_addr_map`); their
region says what happens to each loaded vector. The scheduler emits `vector_load`,
`vector_store` and `composite_load_and_store`; the other ops are peripheral and round-trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType, MemRefType, StringAttr
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_operand_def,
                       opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import UnresolvedOperand
from dfsched.dialects.affine_subscripts import check_subscript_operands
from dfsched.dialects.directives import Subscripts
from dfsched.dialects.dataflow import VectorLike, dfir_dialect, newline, print_attr_dict, split_attr_dict
from dfsched.dialects.agen_peripheral import (CompositeIndirectLoadAndStoreOp, CompositeIndirectLoadOp,
                                              CompositeIndirectStoreOp, CompositeMemoryInterleaveOp,
                                              IndirectVectorLoadOp, IndirectVectorStoreOp, SetTransferMaskStateOp,
                                              SymbolicVectorLoadOp, SymbolicVectorStoreOp)
from dfsched.dialects.agen_syntax import (IMPLICIT_YIELD, NEWLINE, TIME_SYMBOLS, Access, LoadIv, Multicast,
                                          RoutingDirectionAttr, TimedAccessOp, YieldOp, check_access_set, finish,
                                          index_operands, parse_access, parse_time_symbols, print_access, print_body,
                                          print_time_symbols)


# ---------------------------------------------------------------------------
# vector_load / vector_store
# ---------------------------------------------------------------------------


class _VectorAccessOp(IRDLOperation):
    """`vector_load %mem[subscripts] [multicast_info = %m] {...} : M, V` and
    `vector_store %v, %mem[subscripts] {...} : M, V`, as upstream's ODS declares them."""

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (Subscripts,)

    def verify_(self) -> None:
        check_subscript_operands(self.affine_map, len(self.map_operands))


@irdl_op_definition
class VectorLoadOp(_VectorAccessOp):
    """Loads the elements `load_set` selects around `%mem[subscripts]`, packed in `load_order`."""

    name = "agen.vector_load"

    mem_ref = operand_def(MemRefType)
    map_operands = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    affine_map = prop_def(AffineMapAttr)
    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    result = result_def(VectorLike)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = ("$mem_ref `` custom<Subscripts>($affine_map, $map_operands) "
                       "(`multicast_info` `=` $multicast_info^)? attr-dict `:` type($mem_ref) `,` type($result)")

    def __init__(self, result_type: Attribute, mem_ref: SSAValue, affine_map: AffineMap,
                 map_operands: Sequence[SSAValue], load_set: AffineSetAttr, load_order: AffineMapAttr):
        super().__init__(operands=[mem_ref, map_operands, []], result_types=[result_type],
                         properties={"affine_map": AffineMapAttr(affine_map), "load_set": load_set,
                                     "load_order": load_order})


@irdl_op_definition
class VectorStoreOp(_VectorAccessOp):
    """Stores `value_to_store` into the elements `store_set` selects around `%mem[subscripts]`."""

    name = "agen.vector_store"

    value_to_store = operand_def(VectorLike)
    mem_ref = operand_def(MemRefType)
    map_operands = var_operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    affine_map = prop_def(AffineMapAttr)
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)

    assembly_format = ("$value_to_store `,` $mem_ref `` custom<Subscripts>($affine_map, $map_operands) "
                       "attr-dict `:` type($mem_ref) `,` type($value_to_store)")

    def __init__(self, value: SSAValue, mem_ref: SSAValue, affine_map: AffineMap, map_operands: Sequence[SSAValue],
                 store_set: AffineSetAttr, store_order: AffineMapAttr):
        super().__init__(operands=[value, mem_ref, map_operands],
                         properties={"affine_map": AffineMapAttr(affine_map), "store_set": store_set,
                                     "store_order": store_order})


# ---------------------------------------------------------------------------
# composite_load_and_store (made by ktdflowering-to-dfir for DMA transfers)
# ---------------------------------------------------------------------------


@irdl_op_definition
class CompositeLoadAndStoreOp(TimedAccessOp):
    """At each time step, loads a vector around `src[...]` and stores it around `dst[...]` (region: what to do with it)."""

    name = "agen.composite_load_and_store"

    src_mem_ref = operand_def(MemRefType)
    dst_mem_ref = operand_def(MemRefType)
    src_map_operands = var_operand_def(IndexType)
    dst_map_operands = var_operand_def(IndexType)
    time_symbols = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    src_map = prop_def(AffineMapAttr)
    dst_map = prop_def(AffineMapAttr)
    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)
    load_time_addr_map = prop_def(AffineMapAttr)
    store_time_addr_map = prop_def(AffineMapAttr)
    dir = opt_prop_def(RoutingDirectionAttr)

    SYNTAX: ClassVar = (Access("src_mem_ref", "src_map", "src_map_operands", "src"),
                        Access("dst_mem_ref", "dst_map", "dst_map_operands", "dst"), NEWLINE, TIME_SYMBOLS, LoadIv(),
                        Multicast(", "), NEWLINE)
    ACCESS_SETS: ClassVar = (("load", "src_map", "src array"), ("store", "dst_map", "dst array"))


# ---------------------------------------------------------------------------
# composite_load / composite_store (peripheral)
# ---------------------------------------------------------------------------


@irdl_op_definition
class CompositeLoadOp(TimedAccessOp):
    name = "agen.composite_load"

    mem_ref = operand_def(MemRefType)
    map_operands = var_operand_def(IndexType)
    time_symbols = var_operand_def(IndexType)
    affine_map = prop_def(AffineMapAttr)
    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    time_addr_map = prop_def(AffineMapAttr)

    SYNTAX: ClassVar = (Access("mem_ref", "affine_map", "map_operands"), NEWLINE, TIME_SYMBOLS,
                        LoadIv(comma=False, keyword=""), NEWLINE)
    ACCESS_SETS: ClassVar = (("load", "affine_map", "Array"),)


@irdl_op_definition
class CompositeStoreOp(IRDLOperation):
    """Stores over time steps, either the vectors its region yields or one `input_vector` (coalesced store)."""

    name = "agen.composite_store"

    mem_ref = operand_def(MemRefType)
    map_operands = var_operand_def(IndexType)
    input_vector = opt_operand_def(VectorLike)
    time_symbols = var_operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    affine_map = prop_def(AffineMapAttr)
    store_set = opt_prop_def(AffineSetAttr)
    store_order = opt_prop_def(AffineMapAttr)
    time_set = prop_def(AffineSetAttr)
    time_order = prop_def(AffineMapAttr)
    time_addr_map = prop_def(AffineMapAttr)
    body = region_def()

    traits = traits_def(IMPLICIT_YIELD)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> CompositeStoreOp:
        start = parser.pos
        mem, sub = parse_access(parser)
        vector: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("input_vector"):
            parser.parse_punctuation("=")
            vector.append(parser.parse_unresolved_operand())
        time_symbols = parse_time_symbols(parser)
        attrs = parser.parse_optional_attr_dict()
        body = parser.parse_optional_region()
        if body is not None and vector:
            parser.raise_error("for composite_store, input_vector and region can't co-exist", start, parser.pos)
        parser.parse_punctuation(":")
        mem_type = parser.parse_type()
        vector_operands: list[SSAValue] = []
        if vector:
            parser.parse_punctuation(",")
            vector_operands.append(parser.resolve_operand(vector[0], parser.parse_type()))
        map_attr, indices = sub.resolve(parser)
        props, others = split_attr_dict(cls, attrs)
        props["affine_map"] = map_attr
        return finish(cls.build(
            operands=[parser.resolve_operand(mem, mem_type), indices, vector_operands,
                      index_operands(parser, time_symbols)],
            properties=props, attributes=others, regions=[body if body is not None else Region()]))

    def print(self, printer: Printer) -> None:
        print_access(printer, self.mem_ref, self.affine_map, self.map_operands)
        newline(printer)
        if self.input_vector is not None:
            printer.print_string("input_vector=")
            printer.print_operand(self.input_vector)
        print_time_symbols(printer, self.time_symbols)
        newline(printer)
        elided = ["affine_map"] + (["store_order", "store_set"] if self.input_vector is not None else [])
        print_attr_dict(printer, self, elided=elided)
        newline(printer)
        if self.input_vector is None:
            print_body(printer, self.body)
        printer.print_string(" : ")
        printer.print_attribute(self.mem_ref.type)
        if self.input_vector is not None:
            printer.print_string(" , ")
            printer.print_attribute(self.input_vector.type)

    def verify_(self) -> None:
        check_subscript_operands(self.affine_map, len(self.map_operands))
        has_vector = self.input_vector is not None
        if (self.store_set is not None) == has_vector or (self.store_order is not None) == has_vector:
            raise VerifyException("either store_set/order or input vector has to be present in composite store")
        if not has_vector:
            check_access_set("store", self.store_set, self.store_order, self.affine_map, "Array")


AGEN = dfir_dialect("agen", [YieldOp, VectorLoadOp, VectorStoreOp, CompositeLoadAndStoreOp, CompositeLoadOp,
                             CompositeStoreOp, CompositeIndirectLoadAndStoreOp, CompositeIndirectLoadOp,
                             CompositeIndirectStoreOp, IndirectVectorLoadOp, IndirectVectorStoreOp,
                             CompositeMemoryInterleaveOp, SetTransferMaskStateOp, SymbolicVectorLoadOp,
                             SymbolicVectorStoreOp],
                    [RoutingDirectionAttr])
