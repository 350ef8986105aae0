"""The `symbol` dialect: runtime-patched placeholders in DataflowIR.

A symbol stands for a value only known when the kernel is launched (e.g. a tensor's base
address passed as a kernel argument). `symbol.create_id` declares that an SSA value *is*
symbol N (kernel arguments get -1, -2, ...); `symbol.create_symbol` is the placeholder a
program uses in its place, identified by its discardable `SymbolId` attribute.
`symbol_immutable_mapping` / `query_map` pick a symbol by a constant key inside loops.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, Signedness
from xdsl.ir import Block, Operation, SSAValue
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, SameVariadicOperandSize, irdl_op_definition, operand_def,
                       prop_def, result_def, traits_def, var_operand_def)
from xdsl.traits import ConstantLike, IsolatedFromAbove, OpTrait, Pure
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.dataflow import dfir_dialect
from dfsched.dialects.directives import ImmutableMap

_INDEX = IndexType()
SI64 = IntegerType(64, Signedness.SIGNED)

# Ops whose block arguments are loop induction variables (MLIR's LoopLikeOpInterface).
LOOP_LIKE_OPS = frozenset({"scf.for", "scf.forall", "scf.parallel", "scf.while", "affine.for", "affine.parallel"})


class ScalarValue(OpTrait):
    """Marks ops whose result is a scalar known at launch time (read by `uniform.def_immutable_mapping`)."""

    def verify(self, op: Operation) -> None:
        return


@irdl_op_definition
class CreateSymbolOp(IRDLOperation):
    """A placeholder `index` value standing for symbol `SymbolId` (a discardable i64 attribute)."""

    name = "symbol.create_symbol"

    result = result_def(IndexType)

    traits = traits_def(Pure(), ScalarValue())
    assembly_format = "attr-dict `:` type(results)"

    def __init__(self, symbol_id: int | None = None):
        attrs = {"SymbolId": IntegerAttr(symbol_id, 64)} if symbol_id is not None else {}
        super().__init__(result_types=[_INDEX], attributes=attrs)

    @property
    def symbol_id(self) -> int | None:
        attr = self.attributes.get("SymbolId")
        return attr.value.data if isinstance(attr, IntegerAttr) else None

    def verify_(self) -> None:
        attr = self.attributes.get("SymbolId")
        if attr is not None and not isinstance(attr, IntegerAttr):
            raise VerifyException("attribute 'SymbolId' must be an integer")


@irdl_op_definition
class CreateIdOp(IRDLOperation):
    """Declares that `input` is symbol `symbol_id` (signed 64-bit); never removed as dead code."""

    name = "symbol.create_id"

    input = operand_def()
    symbol_id = prop_def(IntegerAttr[IntegerType])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input)"

    def __init__(self, value: SSAValue, symbol_id: int):
        super().__init__(operands=[value], properties={"symbol_id": IntegerAttr(symbol_id, SI64)})

    def verify_(self) -> None:
        if self.symbol_id.type != SI64:
            raise VerifyException(
                f"attribute 'symbol_id' must be a 64-bit signed integer (`: si64`), got {self.symbol_id.type}")


@irdl_op_definition
class SymbolImmutableMappingOp(IRDLOperation):
    """A constant-keyed table of symbols: `([%c0 -> %s0], [%c1 -> %s1]) : index`."""

    name = "symbol.symbol_immutable_mapping"

    keys = var_operand_def(IndexType)
    values = var_operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (SameVariadicOperandSize(),)

    assembly_format = "custom<ImmutableMap>($keys, $values) attr-dict `:` type($result)"
    custom_directives = (ImmutableMap,)

    def verify_(self) -> None:
        if len(self.keys) != len(self.values):
            raise VerifyException("Mismatching keys/values sizes in SymbolImmutableMapping")
        for key in self.keys:
            if not isinstance(key.owner, Operation) or not key.owner.has_trait(ConstantLike, value_if_unregistered=False):
                raise VerifyException("All keys expected to be constant operations")
        for value in self.values:
            if not isinstance(value.owner, CreateSymbolOp):
                raise VerifyException("Values in SymbolImmutableMapping should be results of symbol.create_symbol")


class QueryMapBase(IRDLOperation):
    """`(map:%m, key:%k) : T`, a lookup in a key -> value table (`symbol.query_map`, `uniform.query_map`)."""

    map = operand_def(IndexType)
    key = operand_def(IndexType)

    traits = traits_def(Pure(), IsolatedFromAbove())
    assembly_format = "`(` `map` `` `:` `` $map `,` `key` `` `:` `` $key `` `)` attr-dict `:` type($result)"


@irdl_op_definition
class SymbolQueryMapOp(QueryMapBase):
    """The symbol `map` holds for the runtime value of `key` (a constant or a loop induction variable)."""

    name = "symbol.query_map"

    result = result_def(IndexType)

    def verify_(self) -> None:
        if isinstance(self.key.owner, Block):
            parent = self.key.owner.parent_op()
            if parent is None or parent.name not in LOOP_LIKE_OPS:
                raise VerifyException("key's parentOp must be a ForOp.")
        if not isinstance(self.map.owner, SymbolImmutableMappingOp):
            raise VerifyException("map's defOp must be symbol_immutable_mapping op.")


SYMBOL = dfir_dialect("symbol", [CreateSymbolOp, CreateIdOp, SymbolImmutableMappingOp, SymbolQueryMapOp])
