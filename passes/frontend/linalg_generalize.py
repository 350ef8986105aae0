"""Turning a program's tensor compute into `linalg.generic` ops (C3SP step 1).

* `generalize_named_ops`: every linalg op that is not a `linalg.generic` (named elementwise
  ops such as `linalg.add`, `linalg.fill`, `linalg.reduce`, `linalg.broadcast`, ...) becomes
  the generic with the same operands, indexing maps, iterator types and scalar body
  (upstream `generalizeNamedOp`).
* `ElementwiseToGeneric`: an elementwise `arith`/`math` op on ranked tensors becomes an
  all-parallel generic with identity maps whose body is the same op on scalars; the init is
  the first operand of the result's type, or a new `tensor.empty` (upstream's
  elementwise-to-linalg patterns).
* `drop_fill_inits`: a `linalg.fill` of zero that only initialises other linalg ops is
  folded into their `tensor.empty` init (`map-reduction-partials` turns a `tensor.empty`
  init into a zero fill); a fill of any other constant that initialises a reduction stays
  (the reduction starts from it: -inf for a maximum); elementwise ops never read their init.

Shared by construct-three-stage-pipeline; the helpers raise located errors.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.compat import IteratorType, IteratorTypeAttr, linalg_ops, op_name
from dfsched.diagnostics import error
from dfsched.passes.frontend.pipeline_greedy import constant_value

GenericOp, ReduceOp, BroadcastOp, YieldOp = (
    linalg_ops.GenericOp, linalg_ops.ReduceOp, linalg_ops.BroadcastOp, linalg_ops.YieldOp)

ELEMENTWISE_DIALECTS = ("arith", "math")
NOT_ELEMENTWISE = frozenset({"arith.constant"})


# ---------------------------------------------------------------------------
# Op classes of the registered dialects (our linalg extension may subclass xDSL's)
# ---------------------------------------------------------------------------


def op_class(ctx: Context | None, name: str, default: type[Operation]) -> type[Operation]:
    """The class the context registers for `name` when it derives from `default`."""
    if ctx is not None:
        cls = ctx.get_optional_op(name)
        if cls is not None and issubclass(cls, default):
            return cls
    return default


def make_generic(
    ctx: Context | None,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    body: Region,
    maps: Sequence[AffineMap],
    iterators: Sequence[Attribute],
    result_types: Sequence[Attribute],
) -> GenericOp:
    cls = op_class(ctx, "linalg.generic", GenericOp)
    return cls(  # type: ignore[call-arg]
        list(inputs),
        list(outputs),
        body,
        [AffineMapAttr(m) for m in maps],
        [_iterator_attr(i) for i in iterators],
        list(result_types),
    )


def _iterator_attr(value: Attribute | str) -> Attribute:
    if isinstance(value, IteratorTypeAttr):
        return value
    text = value if isinstance(value, str) else getattr(value, "data", str(value))
    return IteratorTypeAttr(IteratorType(str(text)))


def iterator_names(op: Operation) -> list[str]:
    return [str(it.data) for it in op.iterator_types.data]  # type: ignore[attr-defined]


def indexing_maps(op: Operation) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps.data]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Named linalg ops
# ---------------------------------------------------------------------------


def is_linalg_compute(op: Operation) -> bool:
    """A linalg op that computes (not the body terminator or `linalg.index`)."""
    name = op_name(op)
    return name.startswith("linalg.") and name not in ("linalg.yield", "linalg.index")


def generalize_named_ops(func: Operation, ctx: Context | None) -> None:
    """Replace every linalg op that is not already a generic by its generic form (a reduction's
    starting fill stays: it is the reduction's init, not compute)."""
    named = [op for op in func.walk()
             if is_linalg_compute(op) and not isinstance(op, GenericOp) and not is_reduction_init(op)]
    for op in named:
        generic = generic_form(op, ctx)
        if generic is None:
            raise error(op, "Failed to generalize linalg operation")
        generic.location = op.location
        Rewriter.replace_op(op, generic)


def generic_form(op: Operation, ctx: Context | None) -> GenericOp | None:
    """The `linalg.generic` equivalent of a named linalg op (None when there is none)."""
    if isinstance(op, ReduceOp):
        return _reduce_to_generic(op, ctx)
    if isinstance(op, BroadcastOp):
        return _broadcast_to_generic(op, ctx)
    get_maps = getattr(op, "get_indexing_maps", None)
    get_iterators = getattr(op, "get_iterator_types", None)
    body = getattr(op, "body", None)
    if get_maps is None or get_iterators is None or not isinstance(body, Region):
        return None
    inputs, outputs = list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    if any(isinstance(v.type, MemRefType) for v in (*inputs, *outputs)):
        return None
    try:
        maps = [m.data for m in get_maps().data]
        iterators = list(get_iterators().data)
    except (NotImplementedError, ValueError, AssertionError):
        return None
    return make_generic(ctx, inputs, outputs, body.clone(), maps, iterators, [r.type for r in op.results])


def maps_and_iterators(op: Operation) -> tuple[list[AffineMap], list[str]] | None:
    """The indexing maps and iterator names of a linalg op, read off its generic form."""
    generic = op if op_name(op) == "linalg.generic" else generic_form(op, None)
    if generic is None:
        return None
    maps = [m.data for m in generic.indexing_maps.data]
    iterators = [str(it.data) for it in generic.iterator_types.data]
    if generic is not op:
        generic.erase()  # a detached copy: drop the uses it holds on the kernel's values
    return maps, iterators


def _reduce_to_generic(op: ReduceOp, ctx: Context | None) -> GenericOp | None:
    source, init = op.input, op.init
    if not isinstance(source.type, TensorType) or not isinstance(init.type, TensorType):
        return None
    rank = len(source.type.get_shape())
    reduced = set(op.dimensions.get_values())
    kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in reduced)
    maps = [AffineMap.identity(rank), AffineMap(rank, 0, kept)]
    iterators = ["reduction" if d in reduced else "parallel" for d in range(rank)]
    return make_generic(ctx, [source], [init], op.region.clone(), maps, iterators, [r.type for r in op.results])


def _broadcast_to_generic(op: BroadcastOp, ctx: Context | None) -> GenericOp | None:
    source, init = op.input, op.init
    if not isinstance(init.type, TensorType):
        return None
    rank = len(init.type.get_shape())
    added = set(op.dimensions.get_values())
    kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in added)
    maps = [AffineMap(rank, 0, kept), AffineMap.identity(rank)]
    return make_generic(
        ctx, [source], [init], op.hidden_region.clone(), maps, ["parallel"] * rank, [r.type for r in op.results]
    )


# ---------------------------------------------------------------------------
# Elementwise arith/math on tensors
# ---------------------------------------------------------------------------


def is_elementwise_on_tensors(op: Operation) -> bool:
    """An `arith`/`math` op whose operands and results are ranked tensors of one shape."""
    name = op_name(op)
    if name.split(".", 1)[0] not in ELEMENTWISE_DIALECTS or name in NOT_ELEMENTWISE or op.regions:
        return False
    if not op.results or not op.operands:
        return False
    types = [v.type for v in (*op.operands, *op.results)]
    if not all(isinstance(t, TensorType) for t in types):
        return False
    shapes = {tuple(t.get_shape()) for t in types}  # type: ignore[union-attr]
    return len(shapes) == 1 and -1 not in next(iter(shapes))


class ElementwiseToGeneric(RewritePattern):
    """`%r = arith.mulf %a, %b : tensor<..>` → `linalg.generic ins(%a, %b) outs(%a) {mulf}`."""

    def __init__(self, ctx: Context | None):
        self.ctx = ctx

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_elementwise_on_tensors(op):
            return
        rank = len(op.results[0].type.get_shape())  # type: ignore[union-attr]
        outputs: list[SSAValue] = []
        for result in op.results:
            match = next((v for v in op.operands if v.type == result.type), None)
            if match is None:
                empty = tensor.EmptyOp([], result.type)
                rewriter.insert(empty, InsertPoint.before(op))
                match = empty.tensor
            outputs.append(match)
        arg_types = [v.type.get_element_type() for v in (*op.operands, *outputs)]  # type: ignore[union-attr]
        block = Block(arg_types=arg_types)
        scalar = type(op).create(
            operands=list(block.args[: len(op.operands)]),
            result_types=[r.type.get_element_type() for r in op.results],  # type: ignore[union-attr]
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        block.add_op(scalar)
        block.add_op(YieldOp(*scalar.results))
        maps = [AffineMap.identity(rank)] * (len(op.operands) + len(outputs))
        generic = make_generic(
            self.ctx, list(op.operands), outputs, Region(block), maps, ["parallel"] * rank,
            [r.type for r in op.results],
        )
        generic.location = op.location
        rewriter.replace(op, generic)


# ---------------------------------------------------------------------------
# linalg.fill inits
# ---------------------------------------------------------------------------


def is_reduction_init(op: Operation) -> bool:
    """A `linalg.fill` of a constant whose every use is the init of a linalg op that reads it:
    the value a reduction starts from (what `drop_fill_inits` keeps)."""
    if op_name(op) != "linalg.fill" or len(op.results) != 1 or _fill_constant(op) is None:
        return False
    uses = list(op.results[0].uses)
    return bool(uses) and all(_is_init_use(u.operation, u.index) and _reads_init(u.operation, u.index)
                              for u in uses)


def drop_fill_inits(func: Operation) -> None:
    """Fold `linalg.fill`s that only initialise other linalg ops into their init tensor."""
    for fill in [op for op in func.walk() if op_name(op) == "linalg.fill"]:
        if len(fill.results) != 1 or len(fill.outputs) != 1:  # type: ignore[attr-defined]
            continue
        result = fill.results[0]
        uses = list(result.uses)
        if not uses or not all(_is_init_use(use.operation, use.index) for use in uses):
            continue
        if any(_reads_init(use.operation, use.index) for use in uses):
            value = _fill_constant(fill)
            if value is None:
                raise error(fill, "a reduction init must be a linalg.fill of a constant")
            if not is_zero(value):
                continue  # the reduction starts from this constant: the fill stays its init
        result.replace_all_uses_with(fill.outputs[0])  # type: ignore[attr-defined]
        Rewriter.erase_op(fill)


def _dps_inputs_outputs(op: Operation) -> tuple[list[SSAValue], list[SSAValue]] | None:
    if isinstance(op, ReduceOp | BroadcastOp):
        return [op.input], [op.init]
    if hasattr(op, "inputs") and hasattr(op, "outputs") and is_linalg_compute(op):
        return list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    return None


def _is_init_use(user: Operation, operand_index: int) -> bool:
    io = _dps_inputs_outputs(user)
    return io is not None and operand_index >= len(io[0])


def _reads_init(user: Operation, operand_index: int) -> bool:
    """Whether the linalg op `user` reads the init at operand `operand_index`."""
    if isinstance(user, ReduceOp):
        return True
    iterators = getattr(user, "get_iterator_types", None)
    if iterators is not None:
        try:
            if any(str(it.data) != "parallel" for it in iterators().data):
                return True
        except (NotImplementedError, ValueError):
            return True
    body = getattr(user, "body", None)
    if isinstance(body, Region) and body.blocks and operand_index < len(body.blocks[0].args):
        return bool(body.blocks[0].args[operand_index].uses)
    return True


def _fill_constant(fill: Operation) -> Attribute | None:
    source = fill.inputs[0]  # type: ignore[attr-defined]
    owner = source.owner
    return constant_value(owner) if isinstance(owner, Operation) else None


def is_zero(value: Attribute) -> bool:
    """A zero scalar, or a dense tensor of zeros."""
    if isinstance(value, FloatAttr):
        return float(value.value.data) == 0.0
    if isinstance(value, IntegerAttr):
        return value.value.data == 0
    if isinstance(value, DenseIntOrFPElementsAttr):
        values = value.get_values()
        return all(float(v) == 0.0 for v in values)
    return False


__all__ = [
    "ElementwiseToGeneric",
    "drop_fill_inits",
    "generalize_named_ops",
    "generic_form",
    "is_reduction_init",
    "indexing_maps",
    "is_zero",
    "iterator_names",
    "make_generic",
    "op_class",
]
