"""`ktdf.indirect_view`: a gather/scatter view, ScheduleIR's form of an indirect access tile.

    %v = ktdf.indirect_view %table[%addresses] offset %off {list_map = affine_map<(d0, d1) -> (d0)>}
           : memref<100x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf16, strided<[64, 1], offset: ?>, "DDR">

A memref of the access tile's shape whose point `p` lives at byte address
`addresses[list_map(p)] + (off + sum_k strides_k * p_k) * element bytes` in the memory of
`%table` (strides from the result type). The address program (`passes/frontend/indirect_access.py`)
fills `%addresses` with `spyreop.idx32toaddr`; every pass treats `%v` as the memref it is, and
the transfers that read or write it are the address-list transfers of the device's
`ktdf_arch.feature.address_list` unit (`docs/dialects.md#ktdfindirect_view`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, prop_def, result_def,
                       traits_def)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class IndirectViewOp(IRDLOperation):
    """Rows of `source` at the byte addresses listed in `addresses` (see the module docstring)."""

    name = "ktdf.indirect_view"

    source = operand_def(MemRefType)
    addresses = operand_def(MemRefType)
    offset = operand_def(IndexType)
    list_map = prop_def(AffineMapAttr)
    result = result_def(MemRefType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = ("$source `[` $addresses `]` `offset` $offset attr-dict `:` type($source) `,` "
                       "type($addresses) `->` type($result)")

    def __init__(self, source: SSAValue, addresses: SSAValue, offset: SSAValue, list_map: AffineMapAttr,
                 result_type: Attribute):
        super().__init__(operands=[source, addresses, offset], result_types=[result_type],
                         properties={"list_map": list_map})

    def verify_(self) -> None:
        result, addresses = self.result.type, self.addresses.type
        assert isinstance(result, MemRefType) and isinstance(addresses, MemRefType)
        amap = self.list_map.data
        if amap.num_dims != len(result.get_shape()):
            raise VerifyException(f"list_map takes {amap.num_dims} dims but the view has rank "
                                  f"{len(result.get_shape())}")
        if len(amap.results) != len(addresses.get_shape()):
            raise VerifyException(f"list_map gives {len(amap.results)} results but the address list has rank "
                                  f"{len(addresses.get_shape())}")
        if result.element_type != self.source.type.element_type:  # type: ignore[union-attr]
            raise VerifyException("the view's element type differs from its source's")
