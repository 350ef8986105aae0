"""The peripheral `agen` ops (they round-trip; the scheduler does not emit them):
indirect accesses (an index memref gives the address into a direct memref), memory
interleaving, transfer masks and symbolic accesses. `agen.py` declares the dialect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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
from dfsched.dialects.affine_subscripts import Subscripts, check_subscript_operands, parse_subscripts
from dfsched.dialects.dataflow import (CustomVectorType, GetLogicalMemoryViewOp, VectorLike, newline, print_attr_dict,
                                       split_attr_dict)
from dfsched.dialects.agen_syntax import (IMPLICIT_YIELD, check_access_set, check_region_arg, finish, index_operands,
                                          parse_access, parse_attrs_and_body, parse_load_iv, parse_optional_multicast,
                                          parse_paren_operands, parse_time_symbols, print_access,
                                          print_attrs_and_body, print_load_iv, print_multicast, print_time_symbols)

# ---------------------------------------------------------------------------
# Indirect accesses (peripheral): an index memref gives the address into a direct memref
# ---------------------------------------------------------------------------


def _parse_typed(parser: Parser, operand: UnresolvedOperand) -> SSAValue:
    return parser.resolve_operand(operand, parser.parse_type())


_INDIRECT_LS_MAPS = ("indirect_src_map", "direct_src_map", "indirect_dst_map", "direct_dst_map")


@irdl_op_definition
class CompositeIndirectLoadAndStoreOp(IRDLOperation):
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
    dbgName = opt_prop_def(StringAttr)
    indirect_src_map = opt_prop_def(AffineMapAttr)
    direct_src_map = opt_prop_def(AffineMapAttr)
    indirect_dst_map = opt_prop_def(AffineMapAttr)
    direct_dst_map = opt_prop_def(AffineMapAttr)
    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)
    time_set = prop_def(AffineSetAttr)
    time_order = prop_def(AffineMapAttr)
    load_indirect_time_addr_map = opt_prop_def(AffineMapAttr)
    load_direct_time_addr_map = prop_def(AffineMapAttr)
    store_indirect_time_addr_map = opt_prop_def(AffineMapAttr)
    store_direct_time_addr_map = prop_def(AffineMapAttr)
    body = region_def("single_block")

    traits = traits_def(IMPLICIT_YIELD)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> CompositeIndirectLoadAndStoreOp:
        accesses: dict[str, tuple[UnresolvedOperand, Subscripts]] = {}
        for key, optional in (("indirect_src", True), ("direct_src", False), ("indirect_dst", True),
                              ("direct_dst", False)):
            if optional and parser.parse_optional_keyword(key) is None:
                continue
            if optional:
                parser.parse_punctuation(":")
                accesses[key] = (parser.parse_unresolved_operand(), parse_subscripts(parser))
            else:
                accesses[key] = parse_access(parser, key)
        multicast = parse_optional_multicast(parser)
        time_symbols = parse_time_symbols(parser)
        parser.parse_punctuation(",")
        load_iv = parse_load_iv(parser)
        attrs, body = parse_attrs_and_body(parser, [load_iv])
        mems: dict[str, SSAValue] = {}
        for i, key in enumerate(k for k in ("indirect_src", "direct_src", "indirect_dst", "direct_dst")
                                if k in accesses):
            if i:
                parser.parse_punctuation(",")
            mems[key] = _parse_typed(parser, accesses[key][0])
        props, others = split_attr_dict(cls, attrs)
        indices: dict[str, list[SSAValue]] = {}
        for key, (_, sub) in accesses.items():
            props[f"{key}_map"], indices[key] = sub.resolve(parser)

        def opt(key: str) -> list[SSAValue]:
            return [mems[key]] if key in mems else []

        return finish(cls.build(
            operands=[opt("indirect_src"), mems["direct_src"], opt("indirect_dst"), mems["direct_dst"],
                      indices.get("indirect_src", []), indices["direct_src"], indices.get("indirect_dst", []),
                      indices["direct_dst"], index_operands(parser, multicast),
                      index_operands(parser, time_symbols)],
            properties=props, attributes=others, regions=[body]))

    def print(self, printer: Printer) -> None:
        for key in ("indirect_src", "direct_src", "indirect_dst", "direct_dst"):
            if (mem := getattr(self, f"{key}_memref")) is not None:
                print_access(printer, mem, getattr(self, f"{key}_map"), getattr(self, f"{key}_map_indices"), key)
        newline(printer)
        print_multicast(printer, self.multicast_info)
        print_time_symbols(printer, self.time_symbols)
        printer.print_string(", ")
        print_load_iv(printer, self.body)
        newline(printer)
        mems = [self.indirect_src_memref, self.direct_src_memref, self.indirect_dst_memref, self.direct_dst_memref]
        print_attrs_and_body(printer, self, _INDIRECT_LS_MAPS, [m.type for m in mems if m is not None])

    def verify_(self) -> None:
        for mem, key, operands in ((self.indirect_src_memref, "indirect_src", self.indirect_src_map_indices),
                                   (self.direct_src_memref, "direct_src", self.direct_src_map_indices),
                                   (self.indirect_dst_memref, "indirect_dst", self.indirect_dst_map_indices),
                                   (self.direct_dst_memref, "direct_dst", self.direct_dst_map_indices)):
            affine_map = getattr(self, f"{key}_map")
            if mem is not None and affine_map is None:
                raise VerifyException(f"'{key}_map' is required when the {key} memref is present")
            if affine_map is not None:
                check_subscript_operands(affine_map, len(operands), f"{key} map")
        check_region_arg(self, self.body)
        check_access_set("load", self.load_set, self.load_order, self.direct_src_map, "direct src array")
        check_access_set("store", self.store_set, self.store_order, self.direct_dst_map, "direct dst array")


class _IndirectPairOp(IRDLOperation):
    """Ops addressed as `indirect:%i[...] direct:%d[...]` (one index memref, one data memref).

    Each has a `load_set`/`load_order` or a `store_set`/`store_order` (`SET_KIND`), checked
    against the direct map; `ARRAY` names the direct memref in the verifier's message."""

    SET_KIND: ClassVar[str]
    ARRAY: ClassVar[str] = "direct array"

    def _print_pair(self, printer: Printer) -> None:
        print_access(printer, self.indirect_memref, self.indirect_map, self.indirect_map_indices, "indirect")
        print_access(printer, self.direct_memref, self.direct_map, self.direct_map_indices, "direct")

    @staticmethod
    def _parse_pair(parser: Parser) -> tuple[tuple[UnresolvedOperand, Subscripts], tuple[UnresolvedOperand, Subscripts]]:
        return parse_access(parser, "indirect"), parse_access(parser, "direct")

    @staticmethod
    def _parse_pair_types(parser: Parser, ind: UnresolvedOperand, dir_: UnresolvedOperand) -> tuple[SSAValue, SSAValue]:
        """`T1, T2`: the two memrefs' types, the memrefs resolved."""
        ind_mem = _parse_typed(parser, ind)
        parser.parse_punctuation(",")
        return ind_mem, _parse_typed(parser, dir_)

    @classmethod
    def _resolve_pair(cls, parser: Parser, attrs: dict[str, Attribute], ind_sub: Subscripts,
                      dir_sub: Subscripts) -> tuple[dict[str, Attribute], dict[str, Attribute], list[SSAValue],
                                                    list[SSAValue]]:
        """The parsed attr-dict split into (properties with the pair's maps, discardable
        attributes), then the indices of each side."""
        props, others = split_attr_dict(cls, attrs)
        props["indirect_map"], ind_indices = ind_sub.resolve(parser)
        props["direct_map"], dir_indices = dir_sub.resolve(parser)
        return props, others, ind_indices, dir_indices

    def _verify_pair(self) -> None:
        check_subscript_operands(self.indirect_map, len(self.indirect_map_indices), "indirect map")
        check_subscript_operands(self.direct_map, len(self.direct_map_indices), "direct map")

    def _verify_set(self) -> None:
        kind = self.SET_KIND
        check_access_set(kind, getattr(self, f"{kind}_set"), getattr(self, f"{kind}_order"), self.direct_map,
                          self.ARRAY)

    def verify_(self) -> None:
        self._verify_pair()
        self._verify_set()


class _CompositeIndirectOp(_IndirectPairOp):
    """`composite_indirect_load` and `_store`: the pair, time symbols and a body; a load's body
    takes the loaded vector (`, load_iv(%v : T)`), a store's body yields the vector to store."""

    indirect_memref = operand_def(MemRefType)
    direct_memref = operand_def(MemRefType)
    indirect_map_indices = var_operand_def(IndexType)
    direct_map_indices = var_operand_def(IndexType)
    multicast_info = opt_operand_def(IndexType)
    time_symbols = var_operand_def(IndexType)
    dbgName = opt_prop_def(StringAttr)
    indirect_map = prop_def(AffineMapAttr)
    direct_map = prop_def(AffineMapAttr)
    time_set = prop_def(AffineSetAttr)
    time_order = prop_def(AffineMapAttr)
    time_addr_map = prop_def(AffineMapAttr)
    body = region_def("single_block")

    traits = traits_def(IMPLICIT_YIELD)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> _CompositeIndirectOp:
        (ind, ind_sub), (dir_, dir_sub) = cls._parse_pair(parser)
        multicast = parse_optional_multicast(parser)
        time_symbols = parse_time_symbols(parser)
        if cls.SET_KIND == "load":
            parser.parse_punctuation(",")
        attrs, body = parse_attrs_and_body(parser, [parse_load_iv(parser)] if cls.SET_KIND == "load" else [])
        ind_mem, dir_mem = cls._parse_pair_types(parser, ind, dir_)
        props, others, ind_indices, dir_indices = cls._resolve_pair(parser, attrs, ind_sub, dir_sub)
        return finish(cls.build(
            operands=[ind_mem, dir_mem, ind_indices, dir_indices, index_operands(parser, multicast),
                      index_operands(parser, time_symbols)],
            properties=props, attributes=others, regions=[body]))

    def print(self, printer: Printer) -> None:
        self._print_pair(printer)
        if self.SET_KIND == "store":
            newline(printer)
        print_multicast(printer, self.multicast_info)
        print_time_symbols(printer, self.time_symbols)
        if self.SET_KIND == "load":
            printer.print_string(", ")
            print_load_iv(printer, self.body)
        newline(printer)
        print_attrs_and_body(printer, self, ["indirect_map", "direct_map"],
                              [self.indirect_memref.type, self.direct_memref.type])

    def verify_(self) -> None:
        self._verify_pair()
        if self.SET_KIND == "load":
            check_region_arg(self, self.body)
        self._verify_set()


@irdl_op_definition
class CompositeIndirectLoadOp(_CompositeIndirectOp):
    name = "agen.composite_indirect_load"
    SET_KIND: ClassVar[str] = "load"
    ARRAY: ClassVar[str] = "direct src array"

    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)


@irdl_op_definition
class CompositeIndirectStoreOp(_CompositeIndirectOp):
    name = "agen.composite_indirect_store"
    SET_KIND: ClassVar[str] = "store"

    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)


class _IndirectVectorOp(_IndirectPairOp):
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
    SET_KIND: ClassVar[str] = "load"

    load_set = prop_def(AffineSetAttr)
    load_order = prop_def(AffineMapAttr)
    result = result_def(VectorLike)

    @classmethod
    def parse(cls, parser: Parser) -> IndirectVectorLoadOp:
        (ind, ind_sub), (dir_, dir_sub) = cls._parse_pair(parser)
        multicast = parse_optional_multicast(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ind_mem, dir_mem = cls._parse_pair_types(parser, ind, dir_)
        parser.parse_punctuation(",")
        result_type = parser.parse_type()
        props, others, ind_indices, dir_indices = cls._resolve_pair(parser, attrs, ind_sub, dir_sub)
        return cls.build(operands=[ind_mem, dir_mem, ind_indices, dir_indices, index_operands(parser, multicast)],
                         result_types=[result_type], properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        self._print_pair(printer)
        print_multicast(printer, self.multicast_info)
        newline(printer)
        print_attr_dict(printer, self, elided=["indirect_map", "direct_map"])
        newline(printer)
        printer.print_string(" : ")
        printer.print_list([self.indirect_memref.type, self.direct_memref.type, self.result.type],
                           printer.print_attribute)


@irdl_op_definition
class IndirectVectorStoreOp(_IndirectVectorOp):
    name = "agen.indirect_vector_store"
    SET_KIND: ClassVar[str] = "store"

    value = operand_def(VectorLike)
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)

    @classmethod
    def parse(cls, parser: Parser) -> IndirectVectorStoreOp:
        value = parser.parse_unresolved_operand()
        (ind, ind_sub), (dir_, dir_sub) = cls._parse_pair(parser)
        multicast = parse_optional_multicast(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_ = _parse_typed(parser, value)
        parser.parse_punctuation(",")
        ind_mem, dir_mem = cls._parse_pair_types(parser, ind, dir_)
        props, others, ind_indices, dir_indices = cls._resolve_pair(parser, attrs, ind_sub, dir_sub)
        return cls.build(
            operands=[value_, ind_mem, dir_mem, ind_indices, dir_indices, index_operands(parser, multicast)],
            properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        self._print_pair(printer)
        newline(printer)
        if self.multicast_info is not None:
            print_multicast(printer, self.multicast_info)
            newline(printer)
        print_attr_dict(printer, self, elided=["indirect_map", "direct_map"])
        newline(printer)
        printer.print_string(" : ")
        printer.print_list([self.value.type, self.indirect_memref.type, self.direct_memref.type],
                           printer.print_attribute)


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
    """`%mem[indices:(%i, ...), strides:(%s, ...)]` on a 1-D identity-laid-out memory view."""

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

    @staticmethod
    def _parse_indices_strides(parser: Parser) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand]]:
        parser.parse_punctuation("[")
        parser.parse_keyword("indices")
        parser.parse_punctuation(":")
        indices = parse_paren_operands(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("strides")
        parser.parse_punctuation(":")
        strides = parse_paren_operands(parser)
        parser.parse_punctuation("]")
        return indices, strides

    def _print_indices_strides(self, printer: Printer) -> None:
        printer.print_string("[indices:(")
        printer.print_list(self.indices(), printer.print_operand)
        printer.print_string("), strides:(")
        printer.print_list(self.strides(), printer.print_operand)
        printer.print_string(")]")

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
    def multicast_info(self) -> SSAValue | None:
        extra = self.operands1[self.num_indices.value.data + self.num_strides.value.data:]
        return extra[0] if len(extra) == 1 else None

    @classmethod
    def parse(cls, parser: Parser) -> SymbolicVectorLoadOp:
        mem = parser.parse_unresolved_operand()
        indices, strides = cls._parse_indices_strides(parser)
        multicast: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("multicast_info")
            parser.parse_punctuation("(")
            multicast.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mem_ = _parse_typed(parser, mem)
        parser.parse_punctuation(",")
        result_type = parser.parse_type()
        props, others = split_attr_dict(cls, attrs)
        props["num_indices"] = IntegerAttr(len(indices), i32)
        props["num_strides"] = IntegerAttr(len(strides), i32)
        return cls.create(operands=[mem_, *index_operands(parser, [*indices, *strides, *multicast])],
                          result_types=[result_type], properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        self._print_indices_strides(printer)
        if self.multicast_info is not None:
            printer.print_string(", multicast_info(")
            printer.print_operand(self.multicast_info)
            printer.print_string(")")
        print_attr_dict(printer, self, elided=["num_indices", "num_strides"])
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        extra = len(self.operands1) - self.num_indices.value.data - self.num_strides.value.data
        if extra not in (0, 1):
            raise VerifyException("expect one or no multicast info")
        self._verify_access(self.result.type)


@irdl_op_definition
class SymbolicVectorStoreOp(_SymbolicAccessOp):
    name = "agen.symbolic_vector_store"

    value_to_store = operand_def()
    store_set = prop_def(AffineSetAttr)
    store_order = prop_def(AffineMapAttr)

    @classmethod
    def parse(cls, parser: Parser) -> SymbolicVectorStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        mem = parser.parse_unresolved_operand()
        indices, strides = cls._parse_indices_strides(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mem_ = _parse_typed(parser, mem)
        parser.parse_punctuation(",")
        value_ = _parse_typed(parser, value)
        props, others = split_attr_dict(cls, attrs)
        props["num_indices"] = IntegerAttr(len(indices), i32)
        props["num_strides"] = IntegerAttr(len(strides), i32)
        return cls.create(operands=[value_, mem_, *index_operands(parser, [*indices, *strides])],
                          properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value_to_store)
        printer.print_string(", ")
        printer.print_operand(self.memref)
        self._print_indices_strides(printer)
        print_attr_dict(printer, self, elided=["num_indices", "num_strides"])
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(", ")
        printer.print_attribute(self.value_to_store.type)

    def verify_(self) -> None:
        if len(self.operands1) != self.num_indices.value.data + self.num_strides.value.data:
            raise VerifyException("operand count does not match num_indices + num_strides")
        self._verify_access(self.value_to_store.type)
