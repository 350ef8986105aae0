"""The `ktdp` dialect: how a KTIR kernel places, views and moves its data.

Memory views interpret already-allocated memory as strided tensors, access tiles describe
which coordinates of a view a compute tile touches, `load`/`store` move data through them,
and the inter-tile ops describe data exchanged between compute tiles. The syntax is the
one the upstream C++ dialect prints (see `docs/dialects.md#ktdp`), so that
KTIR written for the C++ tools parses here unchanged and our output reads back there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import ClassVar

from xdsl.dialects.builtin import (I32, I64, AffineMapAttr, AffineSetAttr, ArrayAttr, BoolAttr, DenseArrayBase,
                                   IndexType, IntegerAttr, IntegerType, MemRefType, TensorType, UnrankedTensorType,
                                   i32, i64)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.dialects.utils.dynamic_index_list import DynamicIndexList
from xdsl.irdl import (AttrSizedOperandSegments, ParsePropInAttrDict, IRDLOperation, irdl_op_definition,
                       lazy_traits_def, operand_def, opt_prop_def, prop_def, region_def, result_def, traits_def,
                       var_operand_def, var_result_def)
from xdsl.traits import IsTerminator, MemoryReadEffect, MemoryWriteEffect, Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.constants import constant_int
from dfsched.dialects.directives import (AccessTile, BaseAndIndexTypes, EnumKeyword, IndirectSubscripts, OwnType, Subscripts,
                                         checked_parse)
from dfsched.dialects.ktdp_inter_tile import linear_form  # noqa: F401  (re-export for the passes)
from dfsched.dialects.ktdp_inter_tile import (InterTileConsumeOp, InterTileProduceOp, InterTileReduceOp,
                                              YieldPartialOp, YieldReducedOp)
from dfsched.dialects.ktdp_types import (DYNAMIC, AccessTileType, MemorySpaceAttr, RuntimeArgExtractKind,
                                         RuntimeArgType, TileFutureType, require_map, require_prop,
                                         require_set)


# ===========================================================================
# Operations: tile ids, memory views, access tiles, load/store, runtime args
# ===========================================================================


@irdl_op_definition
class RegionTerminatorOp(IRDLOperation):
    """Implicit terminator of `construct_indirect_access_tile`'s hidden region."""

    name = "ktdp.region_terminator"

    traits = traits_def(IsTerminator())

    assembly_format = "attr-dict"


@irdl_op_definition
class GetComputeTileIdOp(IRDLOperation):
    """`%id = ktdp.get_compute_tile_id : index`: which compute tile runs this code (one
    index per dimension of the function's `grid`)."""

    name = "ktdp.get_compute_tile_id"

    ids = var_result_def()

    traits = traits_def(Pure())

    def __init__(self, num_dims: int = 1):
        super().__init__(result_types=[[IndexType()] * num_dims])

    assembly_format = "attr-dict `:` type($ids)"

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


def _constant_list(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | None]:
    operands = iter(dynamic)
    return [constant_int(next(operands)) if s == DYNAMIC else s for s in static]


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

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(Pure())

    def __init__(self, offset: SSAValue, static_sizes: Sequence[int], static_strides: Sequence[int],
                 result_type: Attribute, memory_space: Attribute, coordinate_set: AffineSetAttr | AffineSet):
        """A view of static sizes and strides (the passes build no dynamic one)."""
        if isinstance(coordinate_set, AffineSet):
            coordinate_set = AffineSetAttr(coordinate_set)
        super().__init__(operands=[offset, [], []], result_types=[result_type], properties={
            "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
            "static_strides": DenseArrayBase.from_list(i64, static_strides),
            "memory_space": memory_space, "coordinate_set": coordinate_set})

    def get_static_sizes(self) -> tuple[int, ...]:
        return tuple(self.static_sizes.get_values())

    def get_static_strides(self) -> tuple[int, ...]:
        return tuple(self.static_strides.get_values())

    def constant_sizes(self) -> list[int | None]:
        """The sizes, a dynamic one read from its operand when that is a constant (else None)."""
        return _constant_list(self.get_static_sizes(), self.sizes)

    def constant_strides(self) -> list[int | None]:
        """The strides, as `constant_sizes` reads the sizes."""
        return _constant_list(self.get_static_strides(), self.strides)

    assembly_format = ("$offset `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) `,` "
                       "`strides` `` `:` custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` "
                       "type($result)")
    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        memory_space = require_prop(self, "memory_space")
        if not isinstance(memory_space, MemorySpaceAttr):
            raise VerifyException("attribute 'memory_space' failed to satisfy constraint: ktdp memory space "
                                  f"attribute (#ktdp.memory_space<...>), but got {memory_space}")
        if self.properties.get("coordinate_set") is None:
            raise VerifyException(_missing_coordinate_set(self.get_static_sizes()))
        require_set(self, "coordinate_set")
        sizes, strides = self.get_static_sizes(), self.get_static_strides()
        if len(sizes) != len(strides):
            raise VerifyException("static_sizes and static_strides must have equal length")
        for what, static, dynamic in (("size", sizes, self.sizes), ("stride", strides, self.strides)):
            if len(dynamic) != static.count(DYNAMIC):
                raise VerifyException(f"number of dynamic {what} operands does not match kDynamic entries in static_{what}s")
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

    assembly_format = "`(` ($memrefs^ `:` type($memrefs))? `)` attr-dict `:` type($result)"

    def verify_(self) -> None:
        result_type = self.result.type
        if not isinstance(result_type, MemRefType):
            raise VerifyException("result must be a memref type")
        for t in self.memrefs.types:
            if not isinstance(t, MemRefType):
                raise VerifyException("all inputs must be memref types")
            if t.element_type != result_type.element_type:
                raise VerifyException("all input memrefs must have the same element type as the result")
            if t.get_num_dims() != result_type.get_num_dims():
                raise VerifyException("all input memrefs must have the same rank as the result")


def _check_memref_or_tensor(t: Attribute, what: str) -> None:
    if not isinstance(t, MemRefType | TensorType | UnrankedTensorType):
        raise VerifyException(f"{what} must be memref of any type values or tensor of any type values, but got '{t}'")


def _check_access_tile_result(op: IRDLOperation) -> AccessTileType:
    t = op.results[0].type
    if not isinstance(t, AccessTileType):
        raise VerifyException(f"result #0 must be a ktdp access tile (!ktdp.access_tile<...>), but got '{t}'")
    return t


@checked_parse
@irdl_op_definition
class ConstructAccessTileOp(IRDLOperation):
    """`ktdp.construct_access_tile %view[%i, %j] {access_tile_set = ..., access_tile_order = ...}
    : memref<...> -> !ktdp.access_tile<...>`

    The coordinates `access_tile_set` describes, taken relative to the anchor
    `base_map(indices)` and enumerated in `access_tile_order`. No memory is touched.
    """

    name = "ktdp.construct_access_tile"
    SYMBOLS_APART: ClassVar[bool] = True  # symbols go in `symbols(...)`, not in the subscripts

    base = operand_def()
    indices = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    base_map = prop_def(AffineMapAttr)
    access_tile_set = opt_prop_def(Attribute)
    access_tile_order = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(Pure())

    def __init__(self, result_type: Attribute, base: SSAValue, base_map: AffineMap, indices: Sequence[SSAValue],
                 access_tile_set: AffineSet, access_tile_order: AffineMap, symbol_operands: Sequence[SSAValue] = (),
                 attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[base, indices, symbol_operands], result_types=[result_type], attributes=attributes,
                         properties={"base_map": AffineMapAttr(base_map),
                                     "access_tile_set": AffineSetAttr(access_tile_set),
                                     "access_tile_order": AffineMapAttr(access_tile_order)})

    assembly_format = ("$base `` custom<Subscripts>($base_map, $indices) (`symbols` `(` $symbol_operands^ `)`)? "
                       "attr-dict `:` type($base) `->` custom<AccessTile>(type($result))")
    custom_directives = (Subscripts, AccessTile)

    @staticmethod
    def parsed_violation(op: ConstructAccessTileOp) -> str | None:
        """What upstream's parser rejects once the op is read (the verifier words these apart)."""
        tile_set, order = op.access_tile_set, op.access_tile_order
        if tile_set is None:
            return "Access tile set is missing in the operation"
        if not isinstance(tile_set, AffineSetAttr):
            return "access_tile_set must be an integer set (affine_set<...>)"
        if tile_set.data.num_dims != len(op.base_map.data.results):
            return "Access tile set and Base input dimensions should match"
        if order is None:
            return "Access tile order is missing in the operation"
        if not isinstance(order, AffineMapAttr):
            return "access_tile_order must be an affine map (affine_map<...>)"
        if order.data.num_dims != len(order.data.results):
            return "Number of input dimensions and output dimensions in the access tile order should match"
        if len(order.data.results) != tile_set.data.num_dims:
            return "Number of dimensions in the access tile order and access tile set must match!"
        return None

    def verify_(self) -> None:
        _check_memref_or_tensor(self.base.type, "operand #0")
        result_type = _check_access_tile_result(self)
        tile_set = require_set(self, "access_tile_set")
        order = require_map(self, "access_tile_order")
        base_map = self.base_map.data
        if tile_set.num_dims != len(base_map.results):
            raise VerifyException(f"access_tile_set dimensions ({tile_set.num_dims}) must match base_map dims "
                                  f"({len(base_map.results)})")
        if base_map.num_dims + base_map.num_symbols != len(self.indices):
            raise VerifyException(f"base_map expects {base_map.num_dims + base_map.num_symbols} operands but got "
                                  f"{len(self.indices)}")
        _check_space(self, "access_tile_set", "access_tile_order")
        if len(order.results) != tile_set.num_dims:
            raise VerifyException(f"access_tile_order dimensions ({len(order.results)}) must match "
                                  f"access_tile_set dimensions ({tile_set.num_dims})")
        _check_result_rank(result_type, tile_set, "access_tile_set")


def _check_space(op: IRDLOperation, set_name: str, order_name: str) -> None:
    """The space an access tile ranges over: as many symbols as `symbols(...)` operands, and
    an order that permutes it (as many inputs as outputs)."""
    space, order = require_set(op, set_name), require_map(op, order_name)
    if space.num_symbols != len(op.symbol_operands):
        raise VerifyException(
            f"{set_name} has {space.num_symbols} symbols but got {len(op.symbol_operands)} symbol operands")
    if order.num_dims != len(order.results):
        raise VerifyException(
            f"{order_name} must have equal number of inputs ({order.num_dims}) and outputs ({len(order.results)})")


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

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(RegionTerminatorOp), MemoryReadEffect()))

    def __init__(self, result_type: Attribute, base: SSAValue, per_dim_subscript_kinds: Sequence[bool],
                 per_dim_subscript_maps: Sequence[AffineMap], indirect_memrefs: Sequence[SSAValue],
                 captured_variables: Sequence[SSAValue], variables_space_set: AffineSet,
                 variables_space_order: AffineMap, symbol_operands: Sequence[SSAValue] = (),
                 attributes: Mapping[str, Attribute] | None = None):
        body = Block([RegionTerminatorOp()], arg_types=[IndexType()] * variables_space_set.num_dims)
        super().__init__(
            operands=[base, indirect_memrefs, captured_variables, symbol_operands], result_types=[result_type],
            attributes=attributes, regions=[Region(body)], properties={
                "per_dim_subscript_kinds": ArrayAttr([BoolAttr.from_bool(k) for k in per_dim_subscript_kinds]),
                "per_dim_subscript_maps": ArrayAttr([AffineMapAttr(m) for m in per_dim_subscript_maps]),
                "variables_space_set": AffineSetAttr(variables_space_set),
                "variables_space_order": AffineMapAttr(variables_space_order)})

    @property
    def intermediate_variables(self) -> tuple[SSAValue, ...]:
        block = self.region.blocks.first
        return () if block is None else tuple(block.args)

    def subscript_kinds(self) -> list[bool]:
        return [bool(k.value.data) for k in self.per_dim_subscript_kinds.data if isinstance(k, IntegerAttr)]

    assembly_format = ("custom<IndirectSubscripts>($region, $base, $indirect_memrefs, $captured_variables, "
                       "$per_dim_subscript_kinds, $per_dim_subscript_maps) (`symbols` `(` $symbol_operands^ `)`)? "
                       "attr-dict `:` custom<BaseAndIndexTypes>(type($base), type($indirect_memrefs)) `->` "
                       "custom<AccessTile>(type($result))")
    custom_directives = (IndirectSubscripts, BaseAndIndexTypes, AccessTile)

    def verify_(self) -> None:
        _check_memref_or_tensor(self.base.type, "operand #0")
        for i, t in enumerate(self.indirect_memrefs.types):
            if not isinstance(t, MemRefType):
                raise VerifyException(f"operand #{i + 1} must be variadic of memref of any type values, but got '{t}'")
        result_type = _check_access_tile_result(self)
        space = require_set(self, "variables_space_set")
        order = require_map(self, "variables_space_order")
        if space.num_dims != order.num_dims:
            raise VerifyException(f"variables_space_set dimensions ({space.num_dims}) must match "
                                  f"variables_space_order inputs ({order.num_dims})")
        _check_space(self, "variables_space_set", "variables_space_order")
        variables = self.intermediate_variables
        if len(variables) != space.num_dims:
            raise VerifyException(f"number of intermediate variables ({len(variables)}) must match "
                                  f"variables_space_set dimensions ({space.num_dims})")
        if any(not isinstance(v.type, IndexType) for v in variables):
            raise VerifyException("intermediate variables must be of type index")
        kinds = self.per_dim_subscript_kinds.data
        maps = self.per_dim_subscript_maps.data
        if len(kinds) != len(maps):
            raise VerifyException(f"per_dim_subscript_kinds size ({len(kinds)}) must match per_dim_subscript_maps "
                                  f"size ({len(maps)})")
        base_type = self.base.type
        if not isinstance(base_type, MemRefType | TensorType):
            raise VerifyException("base must be a ranked memref or tensor type")
        if len(kinds) != base_type.get_num_dims():
            raise VerifyException(f"number of subscripts ({len(kinds)}) must match base rank "
                                  f"({base_type.get_num_dims()})")
        for k in kinds:
            if not (isinstance(k, IntegerAttr) and k.type == IntegerType(1)):
                raise VerifyException("per_dim_subscript_kinds must contain BoolAttr elements")
        flags = self.subscript_kinds()
        if sum(flags) != len(self.indirect_memrefs):
            raise VerifyException(f"number of indirect dimensions ({sum(flags)}) must match number of indirect "
                                  f"memrefs ({len(self.indirect_memrefs)})")
        expected_dims = len(self.captured_variables) + len(variables)
        indirect_types = iter(self.indirect_memrefs.types)
        for i, (flag, attr) in enumerate(zip(flags, maps)):
            if not isinstance(attr, AffineMapAttr):
                raise VerifyException(f"per_dim_subscript_maps[{i}] must be an AffineMapAttr")
            amap = attr.data
            if amap.num_dims != expected_dims:
                raise VerifyException(f"subscript map for dimension {i} has {amap.num_dims} dimensions, but "
                                      f"expected {expected_dims} (captured_variables + intermediate_variables)")
            if flag:
                index_type = next(indirect_types)
                rank = index_type.get_num_dims() if isinstance(index_type, MemRefType | TensorType) else 0
                if len(amap.results) != rank:
                    raise VerifyException(f"indirect subscript map for dimension {i} produces {len(amap.results)} "
                                          f"results, but indirect memref has rank {rank}")
            elif len(amap.results) != 1:
                raise VerifyException(f"direct subscript map for dimension {i} must produce exactly 1 result, but "
                                      f"produces {len(amap.results)}")
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

    assembly_format = "$access_tile attr-dict `:` custom<OwnType>(type($access_tile)) `->` type($result)"
    custom_directives = (OwnType,)

    def verify_(self) -> None:
        _check_tensor_of_tile(self.result.type, self.access_tile.type, "result #0", "result",
                              "access tile shape must match result tensor shape")


def _check_tensor_of_tile(t: Attribute, tile: Attribute, slot: str, name: str, mismatch: str) -> None:
    """`t`, the op's `slot` (`result #0`, `operand #0`) called `name`, is a ranked tensor of the
    access tile's shape (ktdp.load's result, ktdp.store's data)."""
    if not isinstance(t, TensorType | UnrankedTensorType):
        raise VerifyException(f"{slot} must be tensor of any type values, but got '{t}'")
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

    assembly_format = ("$data_tile `,` $access_tile attr-dict `:` type($data_tile) `,` "
                       "custom<OwnType>(type($access_tile))")
    custom_directives = (OwnType,)

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
    KEYWORDS: ClassVar[type[IntEnum]] = RuntimeArgExtractKind

    traits = traits_def(Pure())

    def __init__(self, kind: RuntimeArgExtractKind, input: SSAValue, result_type: Attribute | None = None):
        if result_type is None:
            assert isinstance(input.type, RuntimeArgType)
            result_type = input.type.underlying_type if kind == RuntimeArgExtractKind.value else IndexType()
        super().__init__(operands=[input], result_types=[result_type], properties={"kind": IntegerAttr(int(kind), i32)})

    def get_kind(self) -> RuntimeArgExtractKind | None:
        try:
            return RuntimeArgExtractKind(self.kind.value.data)
        except ValueError:
            return None

    assembly_format = ("custom<EnumKeyword>($kind) `from` $input `:` custom<OwnType>(type($input)) attr-dict "
                       "`->` type($result)")
    custom_directives = (EnumKeyword, OwnType)

    def verify_(self) -> None:
        kind = self.get_kind()
        if kind is None:
            raise VerifyException("attribute 'kind' failed to satisfy constraint: 32-bit signless integer attribute "
                                  "whose value is 0, 1, or 2")
        source = self.input.type
        assert isinstance(source, RuntimeArgType)
        result_type = self.result.type
        if kind == RuntimeArgExtractKind.value:
            if result_type != source.underlying_type:
                raise VerifyException(f"result type ({result_type}) must match runtime_arg underlying type "
                                      f"({source.underlying_type}) when extracting value")
            return
        present = source.get_granularity() if kind == RuntimeArgExtractKind.granularity else source.get_upperbound()
        if present is None:
            raise VerifyException(f"cannot extract {kind.name} from runtime_arg that doesn't have one")
        if not isinstance(result_type, IndexType):
            raise VerifyException(f"result type must be index when extracting {kind.name}, but got {result_type}")


KTDP = Dialect("ktdp", [
    RegionTerminatorOp, GetComputeTileIdOp, ConstructMemoryViewOp, ConstructDistributedMemoryViewOp,
    ConstructAccessTileOp, ConstructIndirectAccessTileOp, LoadOp, StoreOp, RuntimeArgExtractOp, YieldPartialOp,
    YieldReducedOp, InterTileProduceOp, InterTileConsumeOp, InterTileReduceOp,
], [AccessTileType, RuntimeArgType, TileFutureType, MemorySpaceAttr])
