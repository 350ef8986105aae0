"""The `ktdf` dialect (ScheduleIR): pipelines of stages, FIFOs, tokens and data transfers.

Textually compatible with the C++ Dataflow Scheduler's `ktdf` dialect (see
`docs/dialects.md#ktdf`): every op prints exactly as `mlir-opt` prints it, and the
parser accepts what the C++ parser accepts (plus the stripped fifo-slot type form).

Where the C++ verifiers would dereference a missing defining op (block-argument tokens,
a private region without its yield), we report an error instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (I64, AffineMapAttr, ArrayAttr, DenseArrayBase, IndexType, IntegerAttr, MemRefType,
                                   ShapedType, StringAttr, TensorType, i64)
from xdsl.ir import Attribute, Block, Dialect, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (ParsePropInAttrDict, AnyAttr, AttrSizedOperandSegments, BaseAttr, IRDLOperation,
                       SameVariadicOperandSize, VarConstraint, irdl_op_definition, operand_def, opt_prop_def,
                       prop_def, region_def, result_def, lazy_traits_def, traits_def, var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer
from xdsl.traits import (ConditionallySpeculatable, EffectInstance, HasCanonicalizationPatternsTrait, HasParent,
                         IsTerminator, MemoryEffect, MemoryEffectKind, NoTerminator, Pure,
                         SingleBlockImplicitTerminator)
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import op_name
from dfsched.diagnostics import error
from dfsched.dialects.dataflow import ensure_implicit_terminator, located_format_errors
from dfsched.dialects.constants import constant_int, index_constant, integer_attr_violation
from dfsched.dialects.directives import (KDYNAMIC, BareI64, Body, BracketPairs, CellOrSlot, LeadingBracketPairs, OwnType,
                                         Token)
from dfsched.dialects.ktdf_types import LoopType  # noqa: F401  (re-export: the dialect's names in one place)
from dfsched.dialects.ktdf_types import FifoSlotType, LoopTypeAttr, TokenType, element_type_of
from dfsched.dialects.syntax import print_attr_dict, split_inherent


# ===========================================================================
# Shared helpers (ensure_block is also used by ktdf_lowering)
# ===========================================================================


def ensure_block(region: Region) -> Region:
    """`{}` parses to a region without blocks; single-block ops want one empty block."""
    if not region.blocks:
        region.add_block(Block())
    return region


Attributes = Mapping[str, Attribute] | None
"""A builder's discardable attributes (copied: a builder may be given another op's)."""


def _check_attr(op: Operation, name: str, **constraint) -> None:
    if (message := integer_attr_violation(op, name, **constraint)) is not None:
        raise VerifyException(message)


# ===========================================================================
# Traits
# ===========================================================================


class UniqueValue(MemoryEffect):
    """The op's result is a fresh identity (a token, a tile-size placeholder).

    Modelled as an allocation of its own result: CSE never merges two such ops (upstream
    hides a unique id for this), while an unused one is still trivially dead.
    """

    @classmethod
    def get_effects(cls, op: Operation):
        return {EffectInstance(MemoryEffectKind.ALLOC, value=r) for r in op.results}


class OpaqueEffects(MemoryEffect):
    """`ktdf.opaque` follows linalg access rules: it reads memref inputs, reads+writes memref outputs."""

    @classmethod
    def get_effects(cls, op: Operation):
        assert isinstance(op, OpaqueOp)
        memrefs = [v for v in op.operands if isinstance(v.type, MemRefType)]
        return ({EffectInstance(MemoryEffectKind.READ, value=v) for v in memrefs}
                | {EffectInstance(MemoryEffectKind.WRITE, value=v) for v in memrefs if v in op.outputs})


class OpaqueSpeculatable(ConditionallySpeculatable):
    """Speculatable exactly when the op has pure tensor semantics."""

    @classmethod
    def is_speculatable(cls, op: Operation) -> bool:
        return not any(isinstance(v.type, MemRefType) for v in op.operands)


def _canonicalized_by(patterns: Callable[[], tuple[RewritePattern, ...]]) -> HasCanonicalizationPatternsTrait:
    """The trait giving an op the canonicalization `patterns()` (a function: the patterns are
    defined below the ops)."""

    class Canonicalization(HasCanonicalizationPatternsTrait):
        @classmethod
        def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
            return patterns()

    return Canonicalization()


# ===========================================================================
# Ops: pipeline structure
# ===========================================================================


@irdl_op_definition
class PipelineOp(IRDLOperation):
    """A DAG of stages running concurrently on successive iterations of the enclosing loops."""

    name = "ktdf.pipeline"

    modulo = opt_prop_def(IntegerAttr)
    body = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(self, body: Region | None = None, modulo: int | None = None, attributes: Attributes = None):
        props = {"modulo": IntegerAttr(modulo, i64)} if modulo is not None else {}
        super().__init__(regions=[ensure_block(body or Region())], properties=props, attributes=attributes)

    @property
    def stages(self) -> list[StageOp]:
        return [op for op in self.body.block.ops if isinstance(op, StageOp)]

    @property
    def private(self) -> PrivateOp | None:
        return next((op for op in self.body.block.ops if isinstance(op, PrivateOp)), None)

    assembly_format = "(`modulo` `(` `size` `:` custom<BareI64>($modulo)^ `)`)? custom<Body>($body) attr-dict"
    custom_directives = (BareI64, Body)

    def verify_(self) -> None:
        _check_attr(self, "modulo", minimum=1)
        first_private: Operation | None = None
        for op in self.body.block.ops:
            if isinstance(op, PrivateOp):
                if first_private is not None:
                    raise error(self, f"'{self.name}' op at most one immediate 'ktdf.private' child is allowed",
                                [(first_private, "previous 'ktdf.private' is here")])
                first_private = op
            elif not isinstance(op, StageOp):
                raise error(self, f"'{self.name}' op immediate children must be 'ktdf.stage' or 'ktdf.private' ops",
                            [(op, f"found '{op_name(op)}' op")])


def defining_op_through_private(value: SSAValue) -> Operation | None:
    """The op defining `value`, looking through `ktdf.private` yields; None for a block
    argument, a private region without its yield, or a cycle of yields."""
    seen: set[SSAValue] = set()
    while value not in seen and isinstance(value, OpResult):
        seen.add(value)
        owner = value.owner
        if not isinstance(owner, PrivateOp):
            return owner
        yield_op = owner.yield_op
        if yield_op is None or value.index >= len(yield_op.operands):
            return None
        value = yield_op.operands[value.index]
    return None


@irdl_op_definition
class StageOp(IRDLOperation):
    """One unit of work of a pipeline; starts when its `depends_in` tokens are signalled."""

    name = "ktdf.stage"

    depends_in = var_operand_def(TokenType)
    depends_out = var_operand_def(TokenType)
    applicable_units = opt_prop_def(ArrayAttr)
    body = region_def("single_block")

    traits = traits_def(NoTerminator(), HasParent(PipelineOp))

    def __init__(self, depends_in: Sequence[SSAValue] = (), depends_out: Sequence[SSAValue] = (),
                 body: Region | None = None, applicable_units: Sequence[str] | ArrayAttr | None = None,
                 attributes: Attributes = None):
        props = {}
        if applicable_units is not None:
            if not isinstance(applicable_units, ArrayAttr):
                applicable_units = ArrayAttr([StringAttr(u) for u in applicable_units])
            props["applicable_units"] = applicable_units
        super().__init__(operands=[list(depends_in), list(depends_out)], properties=props,
                         regions=[ensure_block(body or Region())], attributes=attributes)

    @property
    def unit_kinds(self) -> list[str]:
        """The `applicable_units` as plain strings (empty when absent).

        Also found when a pass stored them as a discardable attribute (they print the same).
        """
        units = self.applicable_units or self.attributes.get("applicable_units")
        return [u.data for u in units.data if isinstance(u, StringAttr)] if isinstance(units, ArrayAttr) else []

    assembly_format = ("`depends_in` `(` ($depends_in^):(`none`)? `)` `depends_out` `(` ($depends_out^):(`none`)? `)` "
                       "custom<Body>($body) attr-dict")
    custom_directives = (Body,)
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def verify_(self) -> None:
        for keyword, tokens in (("depends_in", self.depends_in), ("depends_out", self.depends_out)):
            # (upstream would dereference a null defining op where we find none)
            if not all(isinstance(defining_op_through_private(t), CreateTokenOp) for t in tokens):
                raise VerifyException(
                    f"{keyword} operand must originate from ktdf.create_token or ktdf.private "
                    "operation yielding a token created by ktdf.create_token"
                )


@irdl_op_definition
class PrivateYieldOp(IRDLOperation):
    """Terminator of `ktdf.private`: `ktdf.private_yield [attr-dict] [%v, ... : T, ...]`."""

    name = "ktdf.private_yield"

    values = var_operand_def()

    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(PrivateOp)))

    def __init__(self, values: Sequence[SSAValue] = (), attributes: Attributes = None):
        super().__init__(operands=[list(values)], attributes=attributes)

    assembly_format = "attr-dict ($values^ `:` type($values))?"


@irdl_op_definition
class PrivateOp(IRDLOperation):
    """Resources private to the enclosing pipeline (fifo slots, buffers, tokens)."""

    name = "ktdf.private"

    res = var_result_def()
    body = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(PrivateYieldOp), HasParent(PipelineOp))

    def __init__(self, result_types: Sequence[Attribute] = (), body: Region | None = None,
                 attributes: Attributes = None):
        super().__init__(result_types=[list(result_types)], regions=[body or Region()], attributes=attributes)
        ensure_implicit_terminator(self, PrivateYieldOp)

    @property
    def yield_op(self) -> PrivateYieldOp | None:
        last = self.body.block.last_op if self.body.blocks else None
        return last if isinstance(last, PrivateYieldOp) else None

    assembly_format = "(`->` `(` type($res)^ `)`)? custom<Body>($body) attr-dict-with-keyword"
    custom_directives = (Body,)

    def verify_(self) -> None:
        terminator = self.yield_op
        if terminator is None:
            raise VerifyException("region must be terminated by a 'ktdf.private_yield' operation")
        values = terminator.values
        if len(values) != len(self.res):
            raise VerifyException(
                f"yield operands count ({len(values)}) must match results count ({len(self.res)})")
        for value, result in zip(values, self.res):
            if value.type != result.type:
                raise VerifyException(f"yield operand type {value.type} must match result type {result.type}")


class _IgnoresUniqueId:
    """Upstream stores a hidden `unique_id` property on this op; we accept it and drop it.

    (Our ops get their identity from the `UniqueValue` effect instead.)
    """

    @classmethod
    def create(cls, *, properties: Mapping[str, Attribute] = {}, **kwargs):
        kept = {k: v for k, v in properties.items() if k != "unique_id"}
        return super().create(properties=kept, **kwargs)


@irdl_op_definition
class CreateTokenOp(_IgnoresUniqueId, IRDLOperation):
    """A fresh token: `%t = ktdf.create_token [attr-dict] : !ktdf.token`. Never merged by CSE."""

    name = "ktdf.create_token"

    result = result_def(TokenType)

    traits = traits_def(UniqueValue())

    def __init__(self, attributes: Attributes = None):
        super().__init__(result_types=[TokenType()], attributes=attributes)

    assembly_format = "attr-dict `:` custom<Token>(type($result))"
    custom_directives = (Token,)


# ===========================================================================
# Ops: FIFOs
# ===========================================================================


@irdl_op_definition
class FifoAllocateOp(IRDLOperation):
    """Allocates FIFO slots, used in rolling order; one index operand per `?` slot."""

    name = "ktdf.fifo.allocate"

    dynamic_sizes = var_operand_def(IndexType)
    slots = var_result_def(FifoSlotType)

    traits = traits_def(_canonicalized_by(lambda: (EraseUnusedFifoAllocate(),)))

    def __init__(self, slot_types: Sequence[Attribute], dynamic_sizes: Sequence[SSAValue] = (),
                 attributes: Attributes = None):
        super().__init__(operands=[list(dynamic_sizes)], result_types=[list(slot_types)], attributes=attributes)

    assembly_format = "`(` $dynamic_sizes `)` attr-dict `->` type($slots)"
    def verify_(self) -> None:
        dynamic = sum(1 for s in self.slots if isinstance(s.type, FifoSlotType) and s.type.is_dynamic)
        if len(self.dynamic_sizes) != dynamic:
            raise VerifyException(
                f"number of dynamic size operands ({len(self.dynamic_sizes)}) must match number of "
                f"dynamic sizes in result types ({dynamic})"
            )


def _verify_fifo_access(slot: Attribute, shaped: Attribute, names: tuple[str, str]) -> None:
    """Shared rules of `read_from_fifo`/`write_to_fifo`: same element type and element count."""
    if element_type_of(slot) != element_type_of(shaped):
        raise VerifyException(f"failed to verify that all of {{{names[0]}, {names[1]}}} have same element type")
    if not isinstance(slot, FifoSlotType) or not isinstance(shaped, ShapedType):
        return
    shape = shaped.get_shape()
    shaped_dynamic = any(d < 0 for d in shape)
    if slot.is_dynamic != shaped_dynamic:
        raise VerifyException("FIFO slot and data must both be dynamic or both be static")
    count = prod(shape)
    if not shaped_dynamic and count != slot.num_elements.data:
        raise VerifyException(
            f"data total elements ({count}) must match FIFO slot size ({slot.num_elements.data})")


_SHAPED_DATA = BaseAttr(TensorType) | BaseAttr(MemRefType)


@irdl_op_definition
class ReadFromFifoOp(IRDLOperation):
    """Reads one slot into a tensor (value semantics) or an unrealized, slot-backed memref."""

    name = "ktdf.read_from_fifo"

    fifo_slot = operand_def(FifoSlotType)
    result = result_def(_SHAPED_DATA)

    def __init__(self, fifo_slot: SSAValue, result_type: Attribute, attributes: Attributes = None):
        super().__init__(operands=[fifo_slot], result_types=[result_type], attributes=attributes)

    assembly_format = "$fifo_slot attr-dict `:` custom<OwnType>(type($fifo_slot)) `->` type($result)"
    custom_directives = (OwnType,)

    def verify_(self) -> None:
        _verify_fifo_access(self.fifo_slot.type, self.result.type, ("fifo_slot", "result"))


@irdl_op_definition
class WriteToFifoOp(IRDLOperation):
    """Writes a tensor or memref into one slot."""

    name = "ktdf.write_to_fifo"

    data = operand_def(_SHAPED_DATA)
    fifo_slot = operand_def(FifoSlotType)

    def __init__(self, data: SSAValue, fifo_slot: SSAValue, attributes: Attributes = None):
        super().__init__(operands=[data, fifo_slot], attributes=attributes)

    assembly_format = "$data `,` $fifo_slot attr-dict `:` type($data) `,` custom<OwnType>(type($fifo_slot))"
    custom_directives = (OwnType,)
    def verify_(self) -> None:
        _verify_fifo_access(self.fifo_slot.type, self.data.type, ("data", "fifo_slot"))


# ===========================================================================
# Ops: data transfer
# ===========================================================================

_CELL_OR_SLOT = BaseAttr(MemRefType) | BaseAttr(FifoSlotType)
TRANSFER_MODES = ("splat", "pad")


@irdl_op_definition
class DataTransferOp(IRDLOperation):
    """Explicit data movement memref->memref, memref->fifo or fifo->memref, atomic per stage."""

    name = "ktdf.data_transfer"

    source = operand_def(_CELL_OR_SLOT)
    source_indices = var_operand_def(IndexType)
    source_sizes = var_operand_def(IndexType)
    destination = operand_def(_CELL_OR_SLOT)
    dest_indices = var_operand_def(IndexType)
    dest_sizes = var_operand_def(IndexType)

    static_source_sizes = opt_prop_def(DenseArrayBase[I64])
    static_dest_sizes = opt_prop_def(DenseArrayBase[I64])
    source_map = opt_prop_def(AffineMapAttr)
    dest_map = opt_prop_def(AffineMapAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(self, source: SSAValue, destination: SSAValue,
                 source_map: AffineMap | None = None, source_indices: Sequence[SSAValue] = (),
                 source_sizes: Sequence[int | SSAValue] | None = None,
                 dest_map: AffineMap | None = None, dest_indices: Sequence[SSAValue] = (),
                 dest_sizes: Sequence[int | SSAValue] | None = None, attributes: Attributes = None):
        """Sizes mix integers and index values (MLIR's mixed sizes); `None` leaves a side without a `size` list."""
        props: dict[str, Attribute] = {}
        dynamic: dict[str, list[SSAValue]] = {"source": [], "dest": []}
        for side, amap, sizes in (("source", source_map, source_sizes), ("dest", dest_map, dest_sizes)):
            if amap is not None:
                props[f"{side}_map"] = AffineMapAttr(amap)
            if sizes is not None:
                static = [s if isinstance(s, int) else KDYNAMIC for s in sizes]
                props[f"static_{side}_sizes"] = DenseArrayBase.from_list(i64, static)
                dynamic[side] = [s for s in sizes if not isinstance(s, int)]
        super().__init__(operands=[source, list(source_indices), dynamic["source"], destination, list(dest_indices),
                                   dynamic["dest"]], properties=props, attributes=attributes)

    def mixed_sizes(self, side: str) -> list[int | SSAValue] | None:
        """The `size [...]` list of `side` ("source"/"dest") with SSA values in dynamic places."""
        static = self.properties.get(f"static_{side}_sizes")
        if not isinstance(static, DenseArrayBase):
            return None
        values = iter(self.source_sizes if side == "source" else self.dest_sizes)
        return [next(values) if s == KDYNAMIC else s for s in static.get_values()]

    assembly_format = ("`from` custom<CellOrSlot>($source, $source_indices, $source_map, $source_sizes, "
                       "$static_source_sizes) `to` custom<CellOrSlot>($destination, $dest_indices, $dest_map, "
                       "$dest_sizes, $static_dest_sizes) attr-dict `:` type($source) `,` type($destination)")
    custom_directives = (CellOrSlot,)

    def verify_(self) -> None:
        if element_type_of(self.source.type) != element_type_of(self.destination.type):
            raise VerifyException("failed to verify that all of {source, destination} have same element type")
        sides = [(side, value.type, getattr(self, f"{side}_map"), getattr(self, f"{side}_indices"),
                  getattr(self, f"static_{side}_sizes"), getattr(self, f"{side}_sizes"))
                 for side, value in (("source", self.source), ("dest", self.destination))]
        for side, type_, amap, indices, static, _ in sides:
            sizes = static.get_values() if isinstance(static, DenseArrayBase) else ()
            if isinstance(type_, MemRefType):
                self._verify_cell(side, type_, amap, indices, sizes)
            elif amap is not None:
                raise VerifyException(f"{side}_map must be absent for fifo {side}")
            elif indices:
                raise VerifyException(f"FIFO slot {side} cannot have indices specified")
        for side, _, _, _, static, dynamic in sides:
            if not isinstance(static, DenseArrayBase):
                continue
            placeholders = sum(1 for s in static.get_values() if s == KDYNAMIC)
            if len(dynamic) != placeholders:
                raise VerifyException(
                    f"number of dynamic {side} sizes ({len(dynamic)}) must match number of dynamic entries "
                    f"in static_{side}_sizes ({placeholders})"
                )
        mode = self.attributes.get("transfer_mode")
        if mode is not None and (not isinstance(mode, StringAttr) or mode.data not in TRANSFER_MODES):
            raise VerifyException(f"transfer_mode must be \"splat\" or \"pad\", got {mode}")

    @staticmethod
    def _verify_cell(side: str, type_: MemRefType, amap, indices, sizes) -> None:
        if amap is None:
            raise VerifyException(f"{side}_map must be present when {side} is a memref")
        amap = amap.data
        rank = len(type_.get_shape())
        if amap.num_symbols != 0:
            raise VerifyException(f"{side}_map must have 0 symbols (dims-only); got {amap.num_symbols}")
        if len(amap.results) != rank:
            raise VerifyException(
                f"{side} memref has rank {rank} but {side}_map has {len(amap.results)} results")
        if len(indices) != amap.num_dims:
            raise VerifyException(
                f"{side}_indices count ({len(indices)}) must match {side}_map dim count ({amap.num_dims})")
        if len(sizes) != rank:
            raise VerifyException(f"{side} size count ({len(sizes)}) must match memref rank ({rank})")


# ===========================================================================
# Ops: tiling placeholders
# ===========================================================================


@irdl_op_definition
class TilingReserveSizeOp(_IgnoresUniqueId, IRDLOperation):
    """A tile size chosen later by `tile-size-selection`; never merged by CSE."""

    name = "ktdf.tiling.reserve_size"

    min_value = prop_def(IntegerAttr)
    divisibility = prop_def(IntegerAttr)
    result = result_def(IndexType)

    traits = traits_def(UniqueValue())

    def __init__(self, min_value: int, divisibility: int, attributes: Attributes = None):
        super().__init__(properties={"min_value": IntegerAttr(min_value, IndexType()),
                                     "divisibility": IntegerAttr(divisibility, IndexType())},
                         result_types=[IndexType()], attributes=attributes)

    assembly_format = "attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)
    def verify_(self) -> None:
        _check_attr(self, "min_value", index=True)
        _check_attr(self, "divisibility", index=True)


def _check_bracket_pairs(ivs: Sequence[SSAValue], second: Sequence[SSAValue], second_name: str) -> None:
    """`[%iv : %x]` pairs: as many of each, at least one."""
    if len(ivs) != len(second):
        raise VerifyException(f"number of ivs must equal number of {second_name}s")
    if not ivs:
        raise VerifyException(f"must have at least one [iv : {second_name}] pair")


@located_format_errors
@irdl_op_definition
class TilingDeriveSizeOp(IRDLOperation):
    """Trip count of the current inner tiled loop (full tile, remainder, or 0)."""

    name = "ktdf.tiling.derive_size"

    ivs = var_operand_def(IndexType)
    tile_sizes = var_operand_def(IndexType)
    total_size = operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(Pure(), _canonicalized_by(lambda: (FoldSingleTripDeriveSize(),)))
    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, ivs: Sequence[SSAValue], tile_sizes: Sequence[SSAValue], total_size: SSAValue,
                 attributes: Attributes = None):
        super().__init__(operands=[list(ivs), list(tile_sizes), total_size], result_types=[IndexType()],
                         attributes=attributes)

    assembly_format = "custom<LeadingBracketPairs>($ivs, $tile_sizes) `total_size` `=` $total_size attr-dict `:` type($result)"
    custom_directives = (LeadingBracketPairs,)

    def verify_(self) -> None:
        _check_bracket_pairs(self.ivs, self.tile_sizes, "tile_size")


@irdl_op_definition
class TilingLinearizeIndexOp(IRDLOperation):
    """Flat index into the pre-tiling iteration space: `sum(iv_k * stride_k)`."""

    name = "ktdf.tiling.linearize_index"

    ivs = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(Pure())
    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, ivs: Sequence[SSAValue], strides: Sequence[SSAValue], attributes: Attributes = None):
        super().__init__(operands=[list(ivs), list(strides)], result_types=[IndexType()], attributes=attributes)

    assembly_format = "custom<BracketPairs>($ivs, $strides) attr-dict `:` type($result)"
    custom_directives = (BracketPairs,)
    def verify_(self) -> None:
        _check_bracket_pairs(self.ivs, self.strides, "stride")


# ===========================================================================
# Ops: double buffering
# ===========================================================================


@irdl_op_definition
class BufferPhaseOp(IRDLOperation):
    """Which copy of an N-buffered memref this iteration uses: linearized iteration mod N."""

    name = "ktdf.buffer_phase"

    ivs = var_operand_def(IndexType)
    num_phases = prop_def(IntegerAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure(), _canonicalized_by(lambda: (FoldBufferPhaseConstants(),)))

    def __init__(self, ivs: Sequence[SSAValue], num_phases: int | IntegerAttr, attributes: Attributes = None):
        if isinstance(num_phases, int):
            num_phases = IntegerAttr(num_phases, i64)
        super().__init__(operands=[list(ivs)], properties={"num_phases": num_phases}, result_types=[IndexType()],
                         attributes=attributes)

    assembly_format = "`(` $ivs `)` attr-dict `:` type($result)"
    irdl_options = (ParsePropInAttrDict(),)
    def verify_(self) -> None:
        _check_attr(self, "num_phases", minimum=2)
        if not self.ivs:
            raise VerifyException("requires at least one induction variable operand")


@irdl_op_definition
class SelectMemrefOp(IRDLOperation):
    """`candidates[phase]`: picks this iteration's copy of an N-buffered memref."""

    name = "ktdf.select_memref"

    T: ClassVar = VarConstraint("T", BaseAttr(MemRefType))
    phase = operand_def(IndexType)
    candidates = var_operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), _canonicalized_by(lambda: (FoldSelectMemrefConstantPhase(),)))

    def __init__(self, phase: SSAValue, candidates: Sequence[SSAValue], result_type: Attribute | None = None,
                 attributes: Attributes = None):
        result_type = candidates[0].type if result_type is None else result_type
        super().__init__(operands=[phase, list(candidates)], result_types=[result_type], attributes=attributes)

    assembly_format = "$phase `[` $candidates `]` attr-dict `:` type($result)"

    def verify_(self) -> None:
        count = len(self.candidates)
        if count < 2:
            raise VerifyException(f"requires at least 2 candidate memrefs, got {count}")
        phase = self.phase
        if isinstance(phase, OpResult) and isinstance(phase.owner, BufferPhaseOp):
            phases = phase.owner.num_phases.value.data
            if phases != count:
                raise VerifyException(f"phase op num_phases ({phases}) must equal candidate count ({count})")


# ===========================================================================
# Ops: parallel
# ===========================================================================


@irdl_op_definition
class ParallelYieldOp(IRDLOperation):
    """Terminator of `ktdf.parallel` (always printed): `ktdf.parallel_yield [attr-dict]`."""

    name = "ktdf.parallel_yield"

    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(ParallelOp)))

    assembly_format = "attr-dict"


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """An N-D parallel iteration space split into `num_instances` contiguous chunks.

    `ktdf.parallel (%i, %inst) = (%lb) to (%ub) step (%s) distribute(num_instances = N) { ... }`
    The last block argument is the instance id; an implicit barrier follows the op.
    """

    name = "ktdf.parallel"

    lower_bounds = var_operand_def(IndexType)
    upper_bounds = var_operand_def(IndexType)
    steps = var_operand_def(IndexType)
    num_instances = prop_def(IntegerAttr)
    body = region_def("single_block")

    # The terminator is checked by our verifier, with upstream's message.
    traits = traits_def(NoTerminator())
    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, lower_bounds: Sequence[SSAValue], upper_bounds: Sequence[SSAValue],
                 steps: Sequence[SSAValue], num_instances: int, body: Region | None = None,
                 attributes: Attributes = None):
        if body is None:
            body = Region(Block(arg_types=[IndexType()] * (len(lower_bounds) + 1)))
        super().__init__(operands=[list(lower_bounds), list(upper_bounds), list(steps)],
                         properties={"num_instances": IntegerAttr(num_instances, i64)},
                         regions=[body], attributes=attributes)

    @property
    def induction_vars(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[:-1])

    @property
    def instance_id(self) -> SSAValue:
        return self.body.block.args[-1]

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        if len(args) < 2:
            parser.raise_error(
                f"expected at least one induction variable plus an instance id (got {len(args)} block arguments)")
        loops = len(args) - 1
        parser.parse_punctuation("=")

        def bounds() -> list[SSAValue]:
            start = parser.pos
            operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            if len(operands) != loops:
                parser.raise_error(f"expected {loops} operands", start, parser.pos)
            return [parser.resolve_operand(o, IndexType()) for o in operands]

        lbs = bounds()
        parser.parse_keyword("to")
        ubs = bounds()
        parser.parse_keyword("step")
        steps = bounds()
        parser.parse_keyword("distribute")
        parser.parse_punctuation("(")
        parser.parse_keyword("num_instances")
        parser.parse_punctuation("=")
        instances = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(")")
        body = parser.parse_region([a.resolve(IndexType()) for a in args])
        inherent, attrs = split_inherent(parser.parse_optional_attr_dict(), ["num_instances"])
        return cls(lbs, ubs, steps, instances, body, attrs)

    def print(self, printer: Printer) -> None:
        for before, values in ((" (", self.body.block.args if self.body.blocks else ()), (") = (", self.lower_bounds),
                               (") to (", self.upper_bounds), (") step (", self.steps)):
            printer.print_string(before)
            printer.print_list(values, printer.print_operand)
        printer.print_string(f") distribute(num_instances = {self.num_instances.value.data}) ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)
        print_attr_dict(printer, self, ["num_instances"])

    def verify_(self) -> None:
        _check_attr(self, "num_instances")
        loops = len(self.lower_bounds)
        if loops < 1:
            raise VerifyException("expected at least one induction variable")
        instances = self.num_instances.value.data
        if instances < 1:
            raise VerifyException(f"expected num_instances >= 1, got {instances}")
        block = self.body.block
        if len(block.args) != loops + 1:
            raise VerifyException(
                f"expected {loops + 1} block arguments (one per induction variable plus the instance id), "
                f"got {len(block.args)}")
        if any(not isinstance(a.type, IndexType) for a in block.args):
            raise VerifyException(
                "all block arguments (induction variables and instance id) must be of type index")
        if not isinstance(block.last_op, ParallelYieldOp):
            raise VerifyException("region must be terminated by a ktdf.parallel_yield operation")


# ===========================================================================
# Ops: opaque intrinsic
# ===========================================================================


@irdl_op_definition
class OpaqueOp(IRDLOperation):
    """A call to a target intrinsic named by a template, with linalg-like DPS semantics."""

    name = "ktdf.opaque"

    template_name = prop_def(StringAttr)
    inputs = var_operand_def(AnyAttr())
    outputs = var_operand_def(ShapedType)
    res = var_result_def(TensorType)

    traits = traits_def(OpaqueEffects(), OpaqueSpeculatable())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, template_name: str, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue],
                 result_types: Sequence[Attribute] | None = None, attributes: Attributes = None):
        if result_types is None:
            result_types = [o.type for o in outputs if isinstance(o.type, TensorType)]
        super().__init__(operands=[list(inputs), list(outputs)], result_types=[list(result_types)],
                         properties={"template_name": StringAttr(template_name)}, attributes=attributes)

    assembly_format = ("$template_name attr-dict (`->` type($res)^)? "
                       "`\\n` ` ` ` ` `ins` `(` ($inputs^ `` `:` type($inputs))? `)` "
                       "`\\n` ` ` ` ` `outs` `(` ($outputs^ `` `:` type($outputs))? `)`")

    def get_asm_result_names(self, set_name) -> None:
        """Results are named after the template (`%ADD = ktdf.opaque "ADD" ...`), as upstream does."""
        for result in self.res:
            set_name(result, self.template_name.data)

    def verify_(self) -> None:
        tensor_outputs = [o for o in self.outputs if isinstance(o.type, TensorType)]
        if len(tensor_outputs) != len(self.res):
            raise VerifyException(
                f"expected the number of tensor results ({len(self.res)}) to be equal to the number of "
                f"output tensors ({len(tensor_outputs)})")
        for i, (output, result) in enumerate(zip(tensor_outputs, self.res)):
            if output.type != result.type:
                raise VerifyException(
                    f"expected type of tensor output #{i} ({output.type}) to match type of corresponding "
                    f"result ({result.type})")


# ===========================================================================
# Canonicalization patterns
# ===========================================================================


class EraseUnusedFifoAllocate(RewritePattern):
    """Slots nobody uses need no FIFO space."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FifoAllocateOp, rewriter: PatternRewriter) -> None:
        if all(not r.uses for r in op.results):
            rewriter.erase(op)


class FoldBufferPhaseConstants(RewritePattern):
    """Constant operands (IVs of folded single-trip loops) do not change the phase: drop them.

    When every operand is constant the phase is always 0.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BufferPhaseOp, rewriter: PatternRewriter) -> None:
        kept = [v for v in op.ivs if constant_int(v) is None]
        if len(kept) == len(op.ivs):
            return
        new = BufferPhaseOp(kept, op.num_phases, op.attributes) if kept else index_constant(0)
        rewriter.replace(op, new, [new.result])


class FoldSelectMemrefConstantPhase(RewritePattern):
    """A constant, in-range phase selects a fixed candidate."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectMemrefOp, rewriter: PatternRewriter) -> None:
        phase = constant_int(op.phase)
        if phase is None or not 0 <= phase < len(op.candidates):
            return
        rewriter.replace(op, [], [op.candidates[phase]])


class FoldSingleTripDeriveSize(RewritePattern):
    """One tiling level at iv 0 (a folded single-trip loop): the size is min(tile, total)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TilingDeriveSizeOp, rewriter: PatternRewriter) -> None:
        if len(op.ivs) != 1 or len(op.tile_sizes) != 1:
            return
        iv, tile, total = (constant_int(v) for v in (op.ivs[0], op.tile_sizes[0], op.total_size))
        if iv != 0 or tile is None or total is None:
            return
        size = index_constant(min(tile, total))
        rewriter.replace(op, size, [size.result])


from dfsched.dialects.ktdf_indirect import IndirectViewOp  # noqa: E402  (its own module: one op, one job)
from dfsched.dialects.ktdf_exchange import TileReduceOp  # noqa: E402  (its own module: one op, one job)

KTDF = Dialect("ktdf", [PipelineOp, StageOp, PrivateOp, PrivateYieldOp, CreateTokenOp, FifoAllocateOp, ReadFromFifoOp,
                        WriteToFifoOp, DataTransferOp, TilingReserveSizeOp, TilingDeriveSizeOp,
                        TilingLinearizeIndexOp, BufferPhaseOp, SelectMemrefOp, ParallelOp, ParallelYieldOp, OpaqueOp,
                        IndirectViewOp, TileReduceOp],
               [TokenType, FifoSlotType, LoopTypeAttr])
