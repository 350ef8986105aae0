"""`triton-to-linalg`: write Triton's scalar broadcasts as the linalg Inductor emits.

See `docs/passes.md#triton-to-linalg`. Triton-generated KTIR computes on whole tensors with
`arith`/`math` ops and moves values between a reduction and later element-wise ops through
scalars: `tensor.extract` of the reduction's result, `tensor.splat` of that scalar over the next
tensor, and `tensor.splat` of a constant as a reduction's starting value. The scheduler
(`construct-three-stage-pipeline`) works on linalg ops only, so this pass, at the front door,
rewrites

* an `scf.for` carrying a scalar that adds `tensor.extract` of a one-element tensor each
  iteration into a loop carrying that tensor, extracted once after it (`scalar_carries.py`);
* `%s = tensor.extract %r[c...]` followed by `%t = tensor.splat %s : tensor<S>` (constant
  indices) into a broadcast: `linalg.generic ins(%r) outs(tensor.empty : tensor<S>)` whose
  input map reads `%r` at the constant indices, its body yielding the element;
* the same when scalar `arith`/`math` ops compute the splat's input from the extracted element
  and constants (RMSNorm's `rsqrt(sum / N + eps)`): the generic's body computes them;
* an element-wise `arith`/`math` op on tensors with an operand that splats a scalar constant
  (or a constant converted to a float, or is a splat `arith.constant dense<c>`) into a generic
  over its other operands whose body uses the constant (LayerNorm's `var / N + eps`, a
  sigmoid's `1 / (1 + exp(-x))`);
* `%t = tensor.splat %c : tensor<S>` of a constant into
  `linalg.fill ins(%c) outs(tensor.empty : tensor<S>)`.

* `tensor.collapse_shape` / `tensor.expand_shape` that only drop or add unit dimensions (a
  1x1 tile collapsed to a rank-0 tensor, a row expanded to 1xN), read only as inputs of
  `linalg.generic` or `linalg.broadcast`: each reader (a broadcast first becomes its generic)
  reads the reshape's source instead, through its input map composed with the reshape (a unit
  dimension is read at 0), and the reshape goes.

* `linalg.transpose` read only by contractions folds into their maps, and `linalg.broadcast`
  becomes its generic (`named_layout_ops.py`).

A splat of any other scalar (a kernel argument, a value computed from scalars), an extract
whose index is not a constant and any other reshape stay as they are (the scheduler reports
them where it meets them). An extract left without users is erased. Arith and math ops on tensors need nothing:
`construct-three-stage-pipeline` turns them into generics already.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import Pure

from dfsched.compat import linalg_ops
from dfsched.dialects import linalg_ext
from dfsched.dialects.constants import constant_int
from dfsched.float_text import round_to_type
from dfsched.passes.frontend.linalg_generalize import generic_form, is_elementwise_on_tensors, make_generic
from dfsched.passes.frontend.scalar_carries import carry_scalars_as_tensors
from dfsched.passes.frontend.named_layout_ops import broadcasts_to_generics, fold_transposes_into_contractions


@dataclass(frozen=True)
class TritonToLinalg(ModulePass):
    """Turn `tensor.extract` + `tensor.splat` broadcasts and splats of constants into linalg."""

    name = "triton-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        carry_scalars_as_tensors(op)  # a carried scalar sum: a carried one-element tensor, read once after
        _dense_inits_to_fills(op)  # `outs(arith.constant dense<0.0>)`: the fill the scheduler starts from
        _fold_constant_bitcasts(op)  # Triton's -inf: an i32 constant bitcast to f32 (Decision 108)
        for elementwise in [o for o in op.walk() if is_elementwise_on_tensors(o) and len(o.results) == 1]:
            _fold_constant_splats(ctx, elementwise)
        for splat in [o for o in op.walk() if isinstance(o, tensor.SplatOp)]:
            result_type = splat.result.type
            if not isinstance(result_type, TensorType) or any(d < 0 for d in result_type.get_shape()):
                continue
            source = splat.input.owner
            if isinstance(source, arith.ConstantOp):
                _replace(splat, _fill(splat, result_type))
            elif isinstance(source, tensor.ExtractOp) and _constant_indices(source) is not None:
                _replace(splat, _broadcast(ctx, splat, source, result_type))
                if not source.result.uses:
                    Rewriter.erase_op(source)
            elif (chain := _scalar_chain(splat.input)) is not None:
                extract, ops = chain
                _replace(splat, _broadcast(ctx, splat, extract, result_type, ops))
                for dead in reversed([extract, *ops]):
                    if not any(r.uses for r in dead.results):
                        Rewriter.erase_op(dead)
        for reshape in [o for o in op.walk() if isinstance(o, tensor.CollapseShapeOp | tensor.ExpandShapeOp)]:
            _fold_unit_reshape(ctx, reshape)
        fold_transposes_into_contractions(ctx, op)  # tl.dot(q, tl.trans(k)): K's map transposed
        broadcasts_to_generics(ctx, op)


CONSTANT_CASTS = frozenset({"arith.sitofp", "arith.uitofp", "arith.extf", "arith.truncf"})


def _folded_cast(op: Operation) -> FloatAttr | None:
    """A constant integer or float converted to a float, as the constant it is."""
    source = op.operands[0].owner if op.name in CONSTANT_CASTS and isinstance(op.operands[0], OpResult) else None
    if isinstance(source, arith.ConstantOp) and isinstance(source.value, FloatAttr | IntegerAttr):
        return FloatAttr(round_to_type(float(source.value.value.data), op.results[0].type), op.results[0].type)
    return None


def _splatted_constant(value: SSAValue) -> FloatAttr | IntegerAttr | None:
    """The scalar constant a `tensor.splat` writes (a constant, or a constant integer or float
    converted to a float: Triton's `N` as f16), or every element of a splat `arith.constant
    dense<c>` holds, else None."""
    splat = value.owner if isinstance(value, OpResult) else None
    if isinstance(splat, arith.ConstantOp) and isinstance(splat.value, DenseIntOrFPElementsAttr) \
            and splat.value.is_splat() and isinstance(value.type, TensorType):
        return next(iter(splat.value.iter_attrs()))
    if not isinstance(splat, tensor.SplatOp):
        return None
    scalar = splat.input.owner if isinstance(splat.input, OpResult) else None
    if isinstance(scalar, arith.ConstantOp) and isinstance(scalar.value, FloatAttr | IntegerAttr):
        return scalar.value
    return _folded_cast(scalar) if scalar is not None else None


def _fold_constant_splats(ctx: Context, op: Operation) -> None:
    """`arith.addf %t, (tensor.splat %c)` on tensors -> a generic over `%t` whose body adds the
    scalar constant `%c` (defined beside it): the scheduler computes with a constant in a
    body, never with a tensor filled with it."""
    constants = [_splatted_constant(v) for v in op.operands]
    if all(c is None for c in constants) or all(c is not None for c in constants):
        return
    result_type = op.results[0].type
    rank = len(result_type.get_shape())
    inputs = [v for v, c in zip(op.operands, constants) if c is None]
    block = Block(arg_types=[*(v.type.get_element_type() for v in inputs), result_type.get_element_type()])
    args = iter(block.args)
    scalars = [arith.ConstantOp(c) for c in constants if c is not None]
    values = iter(s.result for s in scalars)
    operands = [next(args) if c is None else next(values) for c in constants]
    block.add_op(type(op).create(operands=operands, result_types=[result_type.get_element_type()],
                                 properties=dict(op.properties), attributes=dict(op.attributes)))
    block.add_op(linalg_ops.YieldOp(block.last_op.results[0]))
    empty = tensor.EmptyOp([], result_type)
    generic = make_generic(ctx, inputs, [empty.tensor], Region(block),
                           [AffineMap.identity(rank)] * (len(inputs) + 1), ["parallel"] * rank, [result_type])
    splats = [v.owner for v, c in zip(op.operands, constants) if c is not None]
    _replace(op, [*scalars, empty, generic])
    for splat in splats:
        if not splat.result.uses:
            Rewriter.erase_op(splat)


def _fold_constant_bitcasts(root: Operation) -> None:
    """`arith.bitcast` of an integer `arith.constant` to f16 or f32 is the float constant of those
    bits, so a splat of it is a splat of a constant (a fill), as Triton's `-inf` init is meant.
    numpy is imported only when there is one to fold: a compile without pays no numpy import."""
    for cast in [o for o in root.walk() if isinstance(o, arith.BitcastOp)]:
        source, target = cast.input.owner, cast.result.type
        if not isinstance(source, arith.ConstantOp) or not isinstance(source.value, IntegerAttr) \
                or not isinstance(target, AnyFloat) or target.bitwidth not in (16, 32):
            continue
        import numpy as np

        widths = {16: np.float16, 32: np.float32}
        bits = source.value.value.data & ((1 << target.bitwidth) - 1)
        unsigned = np.uint16 if target.bitwidth == 16 else np.uint32
        value = float(np.array(bits, dtype=unsigned).view(widths[target.bitwidth]))
        constant = arith.ConstantOp(FloatAttr(value, target))
        constant.location = cast.location
        Rewriter.replace_op(cast, constant)


def _dense_inits_to_fills(root: Operation) -> None:
    """A splat `arith.constant dense<c>` a linalg op accumulates into (its init, `outs`) becomes
    `linalg.fill ins(c) outs(tensor.empty)` in front of that op: the init form the scheduler
    starts accumulators from (Triton's `acc = tl.zeros(...)` before a `tl.dot`)."""
    for constant in [o for o in root.walk() if isinstance(o, arith.ConstantOp)]:
        scalar = _splatted_constant(constant.result)
        if scalar is None or not constant.result.type.has_static_shape():
            continue
        for use in list(constant.result.uses):
            user = use.operation
            inits = getattr(user, "outputs", None)
            if not user.name.startswith("linalg.") or inits is None or use.index < len(user.operands) - len(inits):
                continue
            value = arith.ConstantOp(scalar)
            empty = tensor.EmptyOp([], constant.result.type)
            fill = linalg_ext.FillOp([value.result], [empty.tensor], res=[constant.result.type])
            Rewriter.insert_op([value, empty, fill], InsertPoint.before(user))
            user.operands[use.index] = fill.results[0]
        if not constant.result.uses:
            Rewriter.erase_op(constant)


def _constant_indices(extract: tensor.ExtractOp) -> list[int] | None:
    values = [constant_int(index) for index in extract.indices]
    return None if any(v is None for v in values) else values  # type: ignore[return-value]


def _fill(splat: tensor.SplatOp, result_type: TensorType) -> list[Operation]:
    empty = tensor.EmptyOp([], result_type)
    fill = linalg_ext.FillOp([splat.input], [empty.tensor], res=[result_type])
    return [empty, fill]


def _scalar_chain(value: SSAValue) -> tuple[tensor.ExtractOp, list[Operation]] | None:
    """The one `tensor.extract` (constant indices) `value` is computed from through scalar
    `arith`/`math` ops whose other operands come from constants, and those ops (constants
    included) in an order that defines every value before its use; else None."""
    extracts: list[tensor.ExtractOp] = []
    ops: list[Operation] = []

    def visit(v: SSAValue) -> bool:
        owner = v.owner if isinstance(v, OpResult) else None
        if isinstance(owner, tensor.ExtractOp):
            if owner not in extracts:
                extracts.append(owner)
            return _constant_indices(owner) is not None
        if owner is None or owner in ops:
            return owner is not None
        if owner.name.split(".", 1)[0] not in ("arith", "math") or owner.regions \
                or not owner.has_trait(Pure) or any(isinstance(t, ShapedType) for t in (
                    *owner.operand_types, *owner.result_types)):
            return False
        if not all(visit(operand) for operand in owner.operands):
            return False
        ops.append(owner)
        return True

    return (extracts[0], ops) if visit(value) and len(extracts) == 1 else None


def _broadcast(ctx: Context, splat: tensor.SplatOp, extract: tensor.ExtractOp,
               result_type: TensorType, chain: list[Operation] = ()) -> list[Operation]:
    """`out[i...] = f(source[c...])` over `result_type`'s shape, `f` the scalar ops `chain`
    (cloned into the body) that compute the splat's input from the extracted element."""
    rank = len(result_type.get_shape())
    indices = _constant_indices(extract)
    assert indices is not None
    read = AffineMap(rank, 0, tuple(AffineExpr.constant(i) for i in indices))
    empty = tensor.EmptyOp([], result_type)
    element = result_type.get_element_type()
    block = Block(arg_types=[extract.tensor.type.get_element_type(), element])
    mapping: dict[SSAValue, SSAValue] = {extract.result: block.args[0]}
    for op in chain:
        folded = _folded_cast(op)
        block.add_op(arith.ConstantOp(folded) if folded is not None else op.clone(value_mapper=mapping))
        mapping.update(zip(op.results, block.last_op.results))
    block.add_op(linalg_ops.YieldOp(mapping[splat.input]))
    for op in reversed(list(block.ops)):  # constants only a folded cast read
        if op is not block.last_op and not any(r.uses for r in op.results):
            block.erase_op(op)
    generic = make_generic(ctx, [extract.tensor], [empty.tensor], Region(block),
                           [read, AffineMap.identity(rank)], ["parallel"] * rank, [result_type])
    return [empty, generic]


def _replace(splat: Operation, ops: list[Operation]) -> None:
    for op in ops:
        op.location = splat.location
        Rewriter.insert_op(op, InsertPoint.before(splat))
    Rewriter.replace_op(splat, [], [ops[-1].results[0]])


def _fold_unit_reshape(ctx: Context, reshape: Operation) -> None:
    groups = [[i.value.data for i in group.data] for group in reshape.reassociation.data]
    source_type, result_type = reshape.operands[0].type, reshape.results[0].type
    if not isinstance(source_type, TensorType) or not isinstance(result_type, TensorType):
        return
    source_shape, result_shape = source_type.get_shape(), result_type.get_shape()
    if any(d < 0 for d in (*source_shape, *result_shape)):
        return
    collapse = isinstance(reshape, tensor.CollapseShapeOp)
    # for each source dimension: the result dimension it is read through, or None (read at 0)
    through: list[int | None] = [None] * len(source_shape)
    for outer, group in enumerate(groups):
        inner_shape = source_shape if collapse else result_shape
        wide = [d for d in group if inner_shape[d] != 1]
        if len(wide) > 1:
            return  # a real reshape, not unit dimensions
        if collapse:
            if wide:
                through[wide[0]] = outer
        elif wide and source_shape[outer] != 1:
            through[outer] = wide[0]
    readers = [use.operation for use in reshape.results[0].uses]
    if not all(_reads_as_input(r, reshape.results[0]) for r in readers):
        return
    for reader in dict.fromkeys(readers):
        if isinstance(reader, linalg_ops.BroadcastOp):
            generic = generic_form(reader, ctx)
            if generic is None:
                return
            generic.location = reader.location
            Rewriter.replace_op(reader, generic)
            reader = generic
        maps = [m.data for m in reader.indexing_maps.data]
        for index, operand in enumerate(reader.operands):
            if operand is not reshape.results[0] or index >= len(reader.inputs):
                continue
            old = maps[index]
            results = tuple(AffineExpr.constant(0) if outer is None else old.results[outer] for outer in through)
            maps[index] = AffineMap(old.num_dims, old.num_symbols, results)
            reader.operands[index] = reshape.operands[0]
        reader.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in maps])
    if not reshape.results[0].uses:
        Rewriter.erase_op(reshape)


def _reads_as_input(reader: Operation, value) -> bool:
    if isinstance(reader, linalg_ops.BroadcastOp):
        return reader.input is value and reader.init is not value
    if isinstance(reader, linalg_ops.GenericOp):
        return value in reader.inputs and value not in reader.outputs
    return False


__all__ = ["TritonToLinalg"]
