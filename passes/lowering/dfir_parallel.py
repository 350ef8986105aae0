"""`ktdf.parallel` lowering (`docs/passes.md#ktdflowering-to-dfir`, Decision 3).

`ktdf.parallel (%iv, %inst) = (%lb) to (%ub) step (%s) distribute(num_instances = N)` runs its
iterations on N instances (the corelets of a core). Inside a program unit each unit is one
instance: its `corelet` attribute k says which. The T = ceil((ub - lb) / s) iterations are cut
into N contiguous blocks, the first T mod N instances taking one more iteration than the others:
instance k runs `count_k = T div N (+1 if k < T mod N)` iterations starting at iteration
`first_k = k * (T div N) + min(k, T mod N)`.

The op becomes `scf.for %j = 0 to count step 1` (`count` a per-unit uniform lookup when the
instances differ) around the same body. `%iv` may only address memory views through
`agen.vector_load`/`agen.vector_store`: with `%iv = lb + s * (first_k + %j)`, each access keeps
`%j` in its subscripts (scaled by `s` when `s != 1`) and its view starts `c * (lb + s * first_k)`
elements further for unit k, `c` being the element distance one step of `%iv` covers in that
view; the start address moves by that many elements' bytes (Decision 8: view start addresses
are byte addresses). With lb = 0, s = 1 and N dividing T this is upstream's lowering, but for
the unit of the offset (upstream adds the element count to the start address).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.diagnostics import error
from dfsched.dialects.affine_subscripts import affine_mul
from dfsched.dialects.agen import VectorLoadOp, VectorStoreOp
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp
from dfsched.dialects.ktdf import ParallelOp
from dfsched.passes.cleanup.affine_utils import substitute
from dfsched.passes.lowering.dfir_symbols import element_size_bytes
from dfsched.dialects.ktdp_inter_tile import linear_form
from dfsched.dialects.constants import constant_int
from dfsched.passes.lowering.program import MISSING_GRID, one_d_grid_size
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_utils import (
    corelet_of,
    enclosing_program_unit,
    get_unit_of,
    iter_arg_of,
    uniform_map_query,
)


def compose(outer: AffineMap, inner: AffineMap) -> AffineMap:
    """`outer ∘ inner` (inner's results feed outer's dims)."""
    symbols = [AffineSymExpr(i) for i in range(outer.num_symbols)]
    results = tuple(substitute(r, list(inner.results), symbols) for r in outer.results)
    return AffineMap(inner.num_dims, inner.num_symbols + outer.num_symbols, results)


def _access(op: Operation):
    if isinstance(op, VectorLoadOp):
        return op.mem_ref, op.affine_map.data, op.load_order.data, list(op.map_operands)
    assert isinstance(op, VectorStoreOp)
    return op.mem_ref, op.affine_map.data, op.store_order.data, list(op.map_operands)


def _iv_coefficient(op: Operation, iv: SSAValue) -> int:
    """Element distance one step of `iv` covers in the view `op` accesses (upstream
    `constructIteratorCoeffDict`: layout ∘ order ∘ subscripts)."""
    memref, subscripts, order, operands = _access(op)
    view = memref.owner
    if not isinstance(view, GetLogicalMemoryViewOp):
        raise error(op, "Memref must be defined by dataflow.get_logical_memory_view")
    composed = compose(view.layout_map.data, compose(order, subscripts))
    if len(composed.results) != 1 or composed.num_symbols:
        raise error(op, "the parallel loop's induction variable does not address the view linearly")
    row = linear_form(composed.results[0], composed.num_dims, 0)  # [per dim..., constant]
    if row is None:
        raise error(op, "the parallel loop's induction variable does not address the view linearly")
    return sum(c for c, v in zip(row[:-1], operands) if v is iv)


def _scale_iv(op: Operation, iv: SSAValue, step: int) -> None:
    """Multiply the iv's dimension by `step` in the access's subscripts."""
    if step == 1:
        return
    amap = op.affine_map.data
    operands = list(op.map_operands)
    dims: list[AffineExpr] = []
    for i in range(amap.num_dims):
        dim = AffineDimExpr(i)
        dims.append(affine_mul(dim, AffineConstantExpr(step)) if operands[i] is iv else dim)
    symbols = [AffineSymExpr(i) for i in range(amap.num_symbols)]
    results = tuple(substitute(r, dims, symbols) for r in amap.results)
    op.properties["affine_map"] = AffineMapAttr(AffineMap(amap.num_dims, amap.num_symbols, results))


def _bound(value: SSAValue, what: str, op: ParallelOp) -> int:
    constant = constant_int(value)
    if constant is None:
        raise error(op, f"{what} must be a constant for lowering")
    return constant


def _lower_one(op: ParallelOp) -> None:
    body = op.body.block
    if len(body.args) != 2 or len(op.upper_bounds) != 1:
        raise error(op, "Expect 1 dimensional ktdf.parallel (with exactly 2 block arguments)")
    iv, instance = body.args
    if instance.uses:
        raise error(op, "instance_id expected to have no uses for lowering to scf.for")
    users: list[Operation] = []
    for use in iv.uses:
        if not isinstance(use.operation, VectorLoadOp | VectorStoreOp):
            raise error(op, "loop_iv can only be used in agen.vector_load/store operations")
        if use.operation not in users:
            users.append(use.operation)
    lower = _bound(op.lower_bounds[0], "Lower bound", op)
    upper = _bound(op.upper_bounds[0], "Upper bound", op)
    step = _bound(op.steps[0], "Step", op)
    if step <= 0:
        raise error(op, f"Step must be positive for lowering (got {step})")
    instances = op.num_instances.value.data
    if instances <= 0:
        raise error(op, f"num_instances must be positive (got {instances})")
    trips = max(0, -(-(upper - lower) // step))
    base, extra = divmod(trips, instances)

    def count(k: int) -> int:
        return base + (1 if k < extra else 0)

    def first(k: int) -> int:
        return k * base + min(k, extra)

    pu = enclosing_program_unit(op)
    units: list[tuple[SSAValue, int]] = []
    if pu is not None:
        for unit_value in pu.units:
            unit = get_unit_of(unit_value)
            corelet = corelet_of(unit) if unit is not None else -1
            if not 0 <= corelet < instances:
                raise error(op, f"corelet ID must be in [0, {instances}) to run one instance of a ktdf.parallel "
                                f"with num_instances = {instances}, got {corelet}")
            units.append((unit_value, corelet))
    counts = {count(k) for _, k in units} if units else {count(k) for k in range(instances)}
    if pu is None and (len(counts) > 1 or users):
        raise error(op, "a ktdf.parallel outside a dataflow.program_unit cannot tell its instances apart")

    builder = Builder.before(op)
    zero = builder.constant(0)
    one = builder.constant(1)
    if len(counts) == 1:
        bound = builder.constant(counts.pop())
    else:
        values = builder.constants([count(k) for _, k in units])
        bound = uniform_map_query(builder, [u for u, _ in units], values, iter_arg_of(pu, op))
    loop_body = Block(arg_types=[iv.type])
    loop_body.add_op(scf.YieldOp())
    loop = builder.insert(scf.ForOp(zero, bound, one, [], Region(loop_body)))
    new_iv = loop_body.args[0]
    iv.replace_all_uses_with(new_iv)
    terminator = loop_body.last_op
    for inner in list(body.ops):
        if inner is body.last_op and inner.name == "ktdf.parallel_yield":
            break
        inner.detach()
        loop_body.insert_op_before(inner, terminator)

    for access in users:
        coefficient = _iv_coefficient(access, new_iv)
        _scale_iv(access, new_iv, step)
        memref = access.mem_ref
        view = memref.owner
        assert isinstance(view, GetLogicalMemoryViewOp)
        if len(list(memref.uses)) != 1:
            # The view serves other accesses too: give this one a view of its own.
            fresh = GetLogicalMemoryViewOp(view.from_unit, view.start_address, view.layout_map, view.data.type)
            fresh.location = access.location
            Rewriter.insert_op(fresh, InsertPoint.before(access))
            access.operands = [fresh.data if v is memref else v for v in access.operands]
            view = fresh
        at_view = Builder.before(view)
        # Decision 8: the coefficient counts elements, a view's start address is in bytes.
        scale = coefficient * element_size_bytes(view.data.type.element_type)
        offsets = at_view.constants([scale * (lower + step * first(k)) for _, k in units])
        offset = uniform_map_query(at_view, [u for u, _ in units], offsets, iter_arg_of(pu, access))
        start = at_view.value(arith.AddiOp(view.start_address, offset))
        view.operands = [view.from_unit, start]
    del loop
    Rewriter.erase_op(op)


def lower_parallel_ops(func: Operation) -> None:
    ops = [op for op in func.walk(region_first=True) if isinstance(op, ParallelOp)]
    if not ops:
        return
    one_d_grid_size(func, not_an_array=MISSING_GRID)
    for op in ops:
        _lower_one(op)
