"""The peripheral `agen` ops (they round-trip; the scheduler does not emit them):
indirect accesses (an index memref gives the address into a direct memref), memory
interleaving, transfer masks and symbolic accesses. `agen.py` declares the dialect.
"""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.dialects.builtin import (AffineMapAttr, AffineSetAttr, ArrayAttr, IndexType, IntegerAttr, IntegerType,
                                   MemRefType, StringAttr, VectorType, i32)
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def, opt_operand_def,
                       opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import UnresolvedOperand
from dfsched.dialects.dataflow import (CustomVectorType, GetLogicalMemoryViewOp, VectorLike, print_attr_dict,
                                       split_attr_dict)
from dfsched.dialects.agen_syntax import (IMPLICIT_YIELD, NEWLINE, TIME_SYMBOLS, Access, AccessOp, LoadIv, Multicast,
                                          Operand, TimedAccessOp, finish, index_operands, parse_paren_operands)

# ---------------------------------------------------------------------------
# Indirect accesses (peripheral): an index memref gives the address into a direct memref
# ---------------------------------------------------------------------------


def _parse_typed(parser: Parser, operand: UnresolvedOperand) -> SSAValue:
    return parser.resolve_operand(operand, parser.parse_type())


@irdl_op_definition
class CompositeIndirectLoadAndStoreOp(TimedAccessOp):
    name = "agen.composite_indirect_load_and_store"

    indirect_src_memref = opt_operand_def(MemRefType)
    direct_src_memref = operand_def(MemRefType)
    indirect_dst_memref = opt_operand_def(MemRefType)
    direct_dst_memref = operand_def(MemRefType)
    indirect_src_map_indices = var_operand_def(IndexType)
    direct_src_map_indices = var_operand_def(IndexType)
    indirect_dst_map_indices = var_operand_def(IndexType)
    direct_dst_map_indices = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    time_symbols = var_operand_def(IndexType)
    indirect_src_map = opt_prop_def(AffineMapAttr)
    direct_src_map = opt_prop_def(AffineMapAttr)
    indirect_dst_map = opt_prop_def(AffineMapAttr)
    direct_dst_map = opt_prop_def(AffineMapAttr)
    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)
    load_indirect_time_addr_map = opt_prop_def(AffineMapAttr)
    load_direct_time_addr_map = prop_def(AffineMapAttr)
    store_indirect_time_addr_map = opt_prop_def(AffineMapAttr)
    store_direct_time_addr_map = prop_def(AffineMapAttr)

    SYNTAX: ClassVar = (*(Access(f"{key}_memref", f"{key}_map", f"{key}_map_indices", key, key.startswith("indirect"))
                          for key in ("indirect_src", "direct_src", "indirect_dst", "direct_dst")),
                        NEWLINE, Multicast(), TIME_SYMBOLS, LoadIv(), NEWLINE)
    ACCESS_SETS: ClassVar = (("load", "direct_src_map", "direct src array"),
                             ("store", "direct_dst_map", "direct dst array"))


_INDIRECT_PAIR = (Access("indirect_memref", "indirect_map", "indirect_map_indices", "indirect"),
                  Access("direct_memref", "direct_map", "direct_map_indices", "direct"))
"""`indirect:%i[...] direct:%d[...]`: one index memref, one data memref."""


class _CompositeIndirectOp(TimedAccessOp):
    """`composite_indirect_load` and `_store`: the pair, time symbols and a body; a load's body
    takes the loaded vector (`, load_iv(%v : T)`), a store's body yields the vector to store."""

    indirect_memref = operand_def(MemRefType)
    direct_memref = operand_def(MemRefType)
    indirect_map_indices = var_operand_def(IndexType)
    direct_map_indices = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    time_symbols = var_operand_def(IndexType)
    indirect_map = prop_def(AffineMapAttr)
    direct_map = prop_def(AffineMapAttr)
    time_addr_map = prop_def(AffineMapAttr)


@irdl_op_definition
class CompositeIndirectLoadOp(_CompositeIndirectOp):
    name = "agen.composite_indirect_load"
    SYNTAX: ClassVar = (*_INDIRECT_PAIR, Multicast(), TIME_SYMBOLS, LoadIv(), NEWLINE)
    ACCESS_SETS: ClassVar = (("load", "direct_map", "direct src array"),)

    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)


@irdl_op_definition
class CompositeIndirectStoreOp(_CompositeIndirectOp):
    name = "agen.composite_indirect_store"
    SYNTAX: ClassVar = (*_INDIRECT_PAIR, NEWLINE, Multicast(), TIME_SYMBOLS, NEWLINE)
    ACCESS_SETS: ClassVar = (("store", "direct_map", "direct array"),)

    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)


class _IndirectVectorOp(AccessOp):
    """`indirect_vector_load` and `_store`: one vector through the pair (a store's value
    operand comes first: a subclass's fields precede its base's)."""

    indirect_memref = operand_def(MemRefType)
    direct_memref = operand_def(MemRefType)
    indirect_map_indices = var_operand_def(IndexType)
    direct_map_indices = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    indirect_map = prop_def(AffineMapAttr)
    direct_map = prop_def(AffineMapAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class IndirectVectorLoadOp(_IndirectVectorOp):
    name = "agen.indirect_vector_load"
    SYNTAX: ClassVar = (*_INDIRECT_PAIR, Multicast(), NEWLINE)
    ACCESS_SETS: ClassVar = (("load", "direct_map", "direct array"),)

    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    result = result_def(VectorLike)


@irdl_op_definition
class IndirectVectorStoreOp(_IndirectVectorOp):
    name = "agen.indirect_vector_store"
    SYNTAX: ClassVar = (Operand("value"), *_INDIRECT_PAIR, NEWLINE, Multicast(suffix="\n"))
    ACCESS_SETS: ClassVar = (("store", "direct_map", "direct array"),)

    value = operand_def(VectorLike)
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)


# ---------------------------------------------------------------------------
# Interleaving, masks, symbolic accesses (peripheral)
# ---------------------------------------------------------------------------


@irdl_op_definition
class CompositeMemoryInterleaveOp(IRDLOperation):
    """Interleaves the composite memory ops of its region in bursts of `granularity`."""

    name = "agen.composite_memory_interleave"

    dbgName = opt_prop_def(StringAttr)
    granularity = opt_prop_def(IntegerAttr[IntegerType])
    body = region_def("single_block")

    traits = traits_def(IMPLICIT_YIELD)

    @classmethod
    def parse(cls, parser: Parser) -> CompositeMemoryInterleaveOp:
        attrs = parser.parse_optional_attr_dict()
        body = parser.parse_region()
        props, others = split_attr_dict(cls, attrs)
        return finish(cls.create(properties=props, attributes=others, regions=[body]))

    def print(self, printer: Printer) -> None:
        if not self.properties and not self.attributes:
            printer.print_string(" {}")
        else:
            print_attr_dict(printer, self)
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=False)

    def verify_(self) -> None:
        if self.granularity is not None and self.granularity.type != i32:
            raise VerifyException("attribute 'granularity' must be a 32-bit signless integer")


_MASK_STATE_SHOWN = ("num_slices", "slice_mask_map", "num_unmasked_elements", "num_masked_elements")
_MASK_PATTERN = re.compile(r"^\(\s*unmasked\s*=\s*(-?\d+)[^,]*,\s*masked\s*=\s*(-?\d+)[^)]*\)$")


@irdl_op_definition
class SetTransferMaskStateOp(IRDLOperation):
    """The lane mask applied to a unit's transfers: `slice_mask_map` slices built from masks A, B, ..."""

    name = "agen.set_transfer_mask_state"

    mask_value = operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    num_slices = prop_def(IntegerAttr[IntegerType])
    slice_mask_map = prop_def(StringAttr)
    num_unmasked_elements = opt_prop_def(ArrayAttr[IntegerAttr])
    num_masked_elements = opt_prop_def(ArrayAttr[IntegerAttr])
    result = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser) -> SetTransferMaskStateOp:
        parser.parse_keyword("mask_value")
        parser.parse_punctuation("(")
        mask_value = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        masks: dict[str, tuple[int, int]] = {}
        for key in [k for k in attrs if k.startswith("mask")]:
            value = attrs.pop(key)
            if len(key) <= len("mask"):
                parser.raise_error("mask attribute is not properly labeled", pos, parser.pos)
            if not isinstance(value, StringAttr):
                parser.raise_error("mask attribute does not describe the mask pattern", pos, parser.pos)
            match = _MASK_PATTERN.match(value.data.strip())
            if match is None:
                parser.raise_error("cannot determine where unmasked/masked values are", pos, parser.pos)
            masks[key[len("mask")]] = (int(match.group(1)), int(match.group(2)))
        ids = sorted(masks)
        if ids != [chr(ord("A") + i) for i in range(len(ids))]:
            parser.raise_error("masks must be named maskA, maskB, ... without gaps", pos, parser.pos)
        parser.parse_punctuation(":")
        mask_type = parser.parse_type()
        parser.parse_punctuation(",")
        result_type = parser.parse_type()
        props, others = split_attr_dict(cls, attrs)
        if masks:
            props["num_unmasked_elements"] = ArrayAttr([IntegerAttr(masks[i][0], i32) for i in ids])
            props["num_masked_elements"] = ArrayAttr([IntegerAttr(masks[i][1], i32) for i in ids])
        return cls.create(operands=[parser.resolve_operand(mask_value, mask_type)], result_types=[result_type],
                          properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        printer.print_string(" mask_value(")
        printer.print_operand(self.mask_value)
        printer.print_string(") { num_slices = ")
        printer.print_attribute(self.num_slices)
        printer.print_string(", slice_mask_map = ")
        printer.print_string_literal(self.slice_mask_map.data)
        if self.num_unmasked_elements is not None and self.num_masked_elements is not None:
            for i, (unmasked, masked) in enumerate(zip(self.num_unmasked_elements.data,
                                                       self.num_masked_elements.data)):
                printer.print_string(f", mask{chr(ord('A') + i)} = \"(unmasked = ")
                printer.print_attribute(unmasked)
                printer.print_string(", masked = ")
                printer.print_attribute(masked)
                printer.print_string(')"')
        # Upstream drops every other attribute here; keeping them makes the printed form lossless.
        for name, value in sorted({**self.properties, **self.attributes}.items()):
            if name not in _MASK_STATE_SHOWN:
                printer.print_string(f", {name} = ")
                printer.print_attribute(value)
        printer.print_string(" } :  ")
        printer.print_attribute(self.mask_value.type)
        printer.print_string(" , ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        unmasked, masked = self.num_unmasked_elements, self.num_masked_elements
        if unmasked is not None and masked is None:
            raise VerifyException("cannot have unmasked values if there are no masked values")
        if masked is not None and unmasked is None:
            raise VerifyException("cannot have masked values if there are no unmasked values")
        if unmasked is not None and len(unmasked.data) != len(masked.data):
            raise VerifyException("number of unmasked values and number of masked values must match")


class _SymbolicAccessOp(IRDLOperation):
    """`[%value,] %mem[indices:(%i, ...), strides:(%s, ...)] {...} : M, V` on a 1-D identity-laid-out
    memory view; a store writes `%value` (`STORES`), a load may end its access with
    `, multicast_info(%m)`; `V` is the vector's type (the stored value's or the result's)."""

    STORES: ClassVar[bool] = False

    memref = operand_def(MemRefType)
    dbgName = opt_prop_def(StringAttr)
    num_indices = prop_def(IntegerAttr[IntegerType])
    num_strides = prop_def(IntegerAttr[IntegerType])
    operands1 = var_operand_def(IndexType)

    def indices(self) -> tuple[SSAValue, ...]:
        return tuple(self.operands1[: self.num_indices.value.data])

    def strides(self) -> tuple[SSAValue, ...]:
        n = self.num_indices.value.data
        return tuple(self.operands1[n: n + self.num_strides.value.data])

    @property
    def multicast_info(self) -> SSAValue | None:
        extra = self.operands1[self.num_indices.value.data + self.num_strides.value.data:]
        return extra[0] if len(extra) == 1 else None

    @classmethod
    def parse(cls, parser: Parser) -> _SymbolicAccessOp:
        stored = parser.parse_unresolved_operand() if cls.STORES else None
        if stored is not None:
            parser.parse_punctuation(",")
        mem = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        parser.parse_keyword("indices")
        parser.parse_punctuation(":")
        indices = parse_paren_operands(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("strides")
        parser.parse_punctuation(":")
        strides = parse_paren_operands(parser)
        parser.parse_punctuation("]")
        multicast: list[UnresolvedOperand] = []
        if not cls.STORES and parser.parse_optional_punctuation(","):
            parser.parse_keyword("multicast_info")
            parser.parse_punctuation("(")
            multicast.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operands = [_parse_typed(parser, mem)]
        parser.parse_punctuation(",")
        if stored is not None:
            operands.insert(0, _parse_typed(parser, stored))
        result_types = [] if stored is not None else [parser.parse_type()]
        props, others = split_attr_dict(cls, attrs)
        props["num_indices"] = IntegerAttr(len(indices), i32)
        props["num_strides"] = IntegerAttr(len(strides), i32)
        return cls.create(operands=[*operands, *index_operands(parser, [*indices, *strides, *multicast])],
                          result_types=result_types, properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.STORES:
            printer.print_operand(self.value_to_store)
            printer.print_string(", ")
        printer.print_operand(self.memref)
        printer.print_string("[indices:(")
        printer.print_list(self.indices(), printer.print_operand)
        printer.print_string("), strides:(")
        printer.print_list(self.strides(), printer.print_operand)
        printer.print_string(")]")
        if self.multicast_info is not None:
            printer.print_string(", multicast_info(")
            printer.print_operand(self.multicast_info)
            printer.print_string(")")
        print_attr_dict(printer, self, elided=["num_indices", "num_strides"])
        printer.print_string(" : ")
        printer.print_list([self.memref.type, self.vector_type], printer.print_attribute)

    def _verify_access(self, vector_type: Attribute) -> None:
        mem_type = self.memref.type
        if len(mem_type.get_shape()) != 1:
            raise VerifyException("memref is not one dimensional")
        view = self.memref.owner
        if not isinstance(view, GetLogicalMemoryViewOp):
            raise VerifyException("memref should be a dataflow.get_logical_memory_view")
        layout = view.layout_map.data
        if layout != AffineMap.identity(layout.num_dims):
            raise VerifyException("memref layout map should be an identity map")
        if isinstance(vector_type, VectorType) and len(vector_type.get_shape()) != 1:
            raise VerifyException("result type is not one dimensional")
        elem = vector_type.element_type if isinstance(vector_type, VectorType | CustomVectorType) else None
        if elem != mem_type.element_type:
            raise VerifyException("result type does not match memref element type")
        n_indices, n_strides = self.num_indices.value.data, self.num_strides.value.data
        if n_indices < 1:
            raise VerifyException("indices should not be empty")
        if n_strides != n_indices:
            raise VerifyException("strides should be the same size as indices")


@irdl_op_definition
class SymbolicVectorLoadOp(_SymbolicAccessOp):
    name = "agen.symbolic_vector_load"

    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    result = result_def(VectorLike)

    @property
    def vector_type(self) -> Attribute:
        return self.result.type

    def verify_(self) -> None:
        extra = len(self.operands1) - self.num_indices.value.data - self.num_strides.value.data
        if extra not in (0, 1):
            raise VerifyException("expect one or no multicast info")
        self._verify_access(self.result.type)


@irdl_op_definition
class SymbolicVectorStoreOp(_SymbolicAccessOp):
    name = "agen.symbolic_vector_store"
    STORES: ClassVar[bool] = True

    value_to_store = operand_def()
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)

    @property
    def vector_type(self) -> Attribute:
        return self.value_to_store.type

    def verify_(self) -> None:
        if len(self.operands1) != self.num_indices.value.data + self.num_strides.value.data:
            raise VerifyException("operand count does not match num_indices + num_strides")
        self._verify_access(self.value_to_store.type)
