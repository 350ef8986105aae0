"""`ktdf.tile_reduce`: an all-reduce between compute tiles through their scratchpads.

    ktdf.tile_reduce "add" from 1048064 into 1048320 identity 0.000000e+00 : f16
      producers = affine_set<(d0)[s0] : (d0 - s0 * 4 >= 0, -d0 + s0 * 4 + 3 >= 0)>
      groups = affine_set<(d0) : (d0 == 0)> : tensor<1x128xf16>

ScheduleIR's form of a `ktdp.inter_tile_produce` / `inter_tile_reduce` pair
(`passes/frontend/lower_inter_tile_ops.py`). Every tile of group `g` (the tiles
`producers(i)[g]` holds) has stored its partial, a row-major tensor of the op's type, at byte
`from` of its own scratchpad (`ct_local`); the op folds the partials of its group's tiles in tile
order, starting from the identity splat, with the element-wise combiner and writes the result at
byte `into` of the tile's own scratchpad. A tile in no group writes the identity. It is host code
(the orchestrator's), between two programs; `tile-reduce-to-dfir` makes it a launch of its own
(`docs/dialects.md#ktdftile_reduce`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineSetAttr, FloatAttr, IntegerAttr, StringAttr, TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.directives import BareI64

# combiner name -> (numpy function name, vectorchain binary operator)
COMBINERS = {"add": ("add", "add"), "mul": ("multiply", "mul"), "max": ("maximum", "max"), "min": ("minimum", "min")}


@irdl_op_definition
class TileReduceOp(IRDLOperation):
    """Fold the group's partials from each tile's scratchpad into each tile's result slot."""

    name = "ktdf.tile_reduce"

    combiner = prop_def(StringAttr)
    partial_address = prop_def(IntegerAttr)
    result_address = prop_def(IntegerAttr)
    identity = prop_def(FloatAttr)
    producers = prop_def(AffineSetAttr)
    groups = prop_def(AffineSetAttr)
    slot_type = prop_def(TensorType)

    assembly_format = ("$combiner `from` custom<BareI64>($partial_address) `into` custom<BareI64>($result_address) "
                       "`identity` $identity `producers` `=` $producers `groups` `=` $groups attr-dict `:` $slot_type")
    custom_directives = (BareI64,)

    def __init__(self, combiner: str, partial_address: int, result_address: int, identity: FloatAttr,
                 producers: AffineSetAttr, groups: AffineSetAttr, slot_type: TensorType):
        super().__init__(properties={
            "combiner": StringAttr(combiner), "partial_address": IntegerAttr(partial_address, 64),
            "result_address": IntegerAttr(result_address, 64), "identity": identity,
            "producers": producers, "groups": groups, "slot_type": slot_type})

    def verify_(self) -> None:
        if self.combiner.data not in COMBINERS:
            raise VerifyException(f"unknown combiner '{self.combiner.data}' (expected one of: {', '.join(COMBINERS)})")
        if self.identity.type != self.slot_type.element_type:
            raise VerifyException("the identity's type differs from the slot's element type")
        if self.producers.data.num_dims != 1 or self.producers.data.num_symbols != 1:
            raise VerifyException("`producers` must be a set (i)[g] of tile ids per group")
        if self.groups.data.num_dims != 1 or self.groups.data.num_symbols != 0:
            raise VerifyException("`groups` must be a set (g) of group indices")
        for name in ("partial_address", "result_address"):
            if getattr(self, name).value.data < 0:
                raise VerifyException(f"{name} must be non-negative")
