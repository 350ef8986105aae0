"""`ktir-legality-check`: accept the V1 KTIR language, reject the rest with a located error.

The first frontend pass (`docs/passes.md#ktir-legality-check`). It walks the
module in pre-order and stops at the first construct V1 cannot schedule:

* a `grid` of more than 2^31 compute tiles (DataflowIR's core ids are i32);
* `scf.for` with loop-carried values (`iter_args`) that do not accumulate sums of loaded
  chunks (`fold-accumulation-loops` says why; the others `compute-group-extraction` folds),
  and any `scf.while`; an online softmax whose state's element type has no SIMD lanes in the
  device's compute unit (checked on the loop before its body: the state is computed element-wise
  in that type, folded or not; Decision 95);
* `ktdp.construct_distributed_memory_view` that `resolve-distributed-views` (at the front door)
  could not resolve into plain views; the error gives its reason;
* `ktdp.inter_tile_produce`/`consume`/`reduce` that `lower-inter-tile-ops` cannot lower (its
  planning gives the reason). On a device with fewer cores than the kernel's grid has tiles
  (tiles that exchange partials wait for each other, so each needs a core of its own), the
  error names both numbers; on one without core-to-core links (`ktdf_arch.core_links`), it
  names the missing links;
* a view of compute tile N's scratchpad (`#ktdp.memory_space<ct_local, ct_id = N>`) with N
  outside the grid; in a grid of several tiles, on a device with fewer cores than tiles or
  without core-to-core links (the other tiles read it over the links, from its own core);
* `ktdp.construct_indirect_access_tile` without a device (upstream's V1 refusal), or on a device
  with no unit declaring `ktdf_arch.feature.address_list` (no unit can move its rows; the
  error names the capability). `construct-three-stage-pipeline` splits the rest;
* linalg compute other than `add`, `mul`, `sub`, `reduce`, `matmul`, `batch_matmul` and `generic`;
* in a `linalg.generic`, `linalg.matmul` or `linalg.batch_matmul` body, anything but the
  element-wise arith/math ops of `arch/elementwise.py`, `spyreop` intrinsics, scalar `arith.constant`s and `linalg.yield`
  (upstream accepts only `arith.addf/mulf/subf` there; whether the device's compute unit
  executes an op on its element type is `construct-three-stage-pipeline`'s check).

dfsched also rejects a `ktdp.construct_memory_view` the device cannot hold (upstream
compiles these, and the result cannot run): a negative constant base address, a negative
static size or stride, and, when the device is known, a view whose bytes (base address plus
the farthest element, in the memory its memory space maps to) reach past that memory's size; and a
`ktdp.construct_access_tile` that some compute tile of the grid places (partly) outside its view
(`access_bounds.py`: KTIR masks those accesses, the scheduled transfers cannot yet).

One step past upstream: a `linalg.fill` of a scalar `arith.constant` whose result only
initialises reductions (the `outs` of a `linalg.reduce`, or of a `linalg.generic` with a
reduction iterator) is accepted, because the Triton frontend initialises every reduction
that way. Later passes must handle it.

The pass never changes the IR.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue

from dfsched.compat import op_name
from dfsched.arch.elementwise import is_elementwise_op_name
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects.ktdp import DYNAMIC
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.frontend.access_bounds import check_access_tile_in_view
from dfsched.passes.frontend.carried_slots import around_exchange
from dfsched.passes.frontend.fold_accumulation_loops import plan_fold
from dfsched.passes.frontend.tile_invariant_loop_bounds import kernel_grid
from dfsched.dialects.constants import constant_int
from dfsched.dialects.ktdf_arch_types import attribute_text

ITER_ARGS = "V1 does not support scf.for with loop-carried arguments (iter_args)"
WHILE = "V1 does not support scf.while loops"
DISTRIBUTED_VIEW = "V1 does not support ktdp.construct_distributed_memory_view"
INDIRECT_TILE = "V1 does not support ktdp.construct_indirect_access_tile"
INTER_TILE_OPS = ("ktdp.inter_tile_produce", "ktdp.inter_tile_consume", "ktdp.inter_tile_reduce")
NO_ADDRESS_LIST = ("device '{}' has no exec_unit with 'ktdf_arch.feature.address_list': no unit can issue the "
                   "address-list transfers of an indirect access tile (gather or scatter)")
GENERIC_BODY = ("unsupported op in a linalg.generic body: only element-wise arith/math ops, spyreop "
                "intrinsics, linalg.index and scalar constants are accepted")
NAMED_LINALG = "V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op"
NEGATIVE_BASE = "memory view base address must not be negative (got {})"
NEGATIVE_SHAPE = "memory view {} must not be negative (got {})"
CARRIED_OFF_CHIP = ("loop-carried value #0 ({}, {} bytes) cannot stay on chip: it accumulates over the loop's whole "
                    "range, which folding loads at once, so each of its elements needs {} elements along the stepped "
                    "dimension of each of its {} streamed tile(s) in the scratchpad ({} bytes), but '{}' of device '{}' holds {} bytes per core "
                    "(a range too long for the scratchpad is not split into DMA chunks yet)")
MAX_TILES = 2**31
TOO_MANY_TILES = ("grid {} has {} compute tiles, but DataflowIR numbers cores with i32 "
                  "(`dataflow.get_unit {{core = c : i32}}`, a core per tile): at most {}")
BEYOND_MEMORY = "memory view ends at byte {} but memory '{}' of the device holds {} bytes"
OWNER_OUTSIDE_GRID = "the view is compute tile {}'s scratchpad (ct_id = {}), but the kernel's grid has {} tile(s)"
OWNER_CORES = ("the view is compute tile {}'s scratchpad (ct_id = {}), which the other tiles read from its core, so "
               "the kernel's {} compute tiles need as many cores, but device '{}' has {} core(s)")
OWNER_LINKS = ("the view is compute tile {}'s scratchpad (ct_id = {}), which the other tiles read over the "
               "core-to-core links, but device '{}' declares none ('ktdf_arch.core_links')")

# linalg ops the walk accepts and descends into.
ACCEPTED_LINALG = frozenset({"linalg.add", "linalg.mul", "linalg.sub", "linalg.reduce", "linalg.yield"})
# Named ops whose body is checked like a generic's (a contraction: multiply-accumulate).
CHECKED_BODY = frozenset({"linalg.generic", "linalg.matmul", "linalg.batch_matmul"})


@dataclass(frozen=True)
class KtirLegalityCheck(DevicePass):
    """Reject KTIR constructs V1 cannot lower (fail fast, one diagnostic, IR unchanged).

    The device (`device`, when the module declares none) bounds views by its memories' sizes."""

    name = "ktir-legality-check"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_region_ops(op, self.device)


def check_region_ops(op: Operation, device: str | None = None) -> None:
    """Pre-order walk of everything nested in `op`; raise on the first illegal op."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if check_op(inner):
                    if op_name(inner) == "ktdp.construct_memory_view":
                        check_view_fits(inner, device)
                        check_owner_tile(inner, device)
                    if op_name(inner) == "ktdp.construct_access_tile":
                        check_access_tile_in_view(inner)
                    if op_name(inner) == "ktdp.construct_indirect_access_tile":
                        check_address_lists(inner, device)
                    if op_name(inner) in INTER_TILE_OPS:
                        check_inter_tile(inner, device)
                    if isinstance(inner, scf.ForOp) and inner.iter_args and not around_exchange(inner):
                        check_softmax_lanes(inner, device)
                        check_carried_on_chip(inner, device)
                    check_region_ops(inner, device)


def check_tile_count(function: Operation) -> None:
    """DataflowIR numbers cores with i32 (`dataflow.get_unit {core = c : i32}`, one core per
    compute tile): a grid of more tiles cannot be written."""
    extents = kernel_grid(function)
    if extents and math.prod(extents) > MAX_TILES:
        raise error(function, TOO_MANY_TILES.format(list(extents), math.prod(extents), MAX_TILES))


def check_view_fits(view: Operation, device: str | None) -> None:
    """A view's static sizes and strides are not negative, and its bytes fit its memory."""
    sizes, strides = view.get_static_sizes(), view.get_static_strides()
    for what, values in (("size", sizes), ("stride", strides)):
        for value in values:
            if value < 0 and value != DYNAMIC:
                raise error(view, NEGATIVE_SHAPE.format(what, value))
    base = constant_int(view.operands[0])
    if base is None or DYNAMIC in sizes or DYNAMIC in strides or not sizes:
        return
    memory = _memory_of(view, device)
    if memory is None or memory.size is None:
        return
    element = _element_bytes(view)
    last = sum((size - 1) * stride for size, stride in zip(sizes, strides)) if all(sizes) else -1
    end = base + (last + 1) * element
    if base >= memory.size or end > memory.size:
        raise error(view, BEYOND_MEMORY.format(max(base, end), memory.kind, memory.size))


def check_softmax_lanes(loop: scf.ForOp, device: str | None) -> None:
    """An online softmax computes its state (maximum, exponentials, sums) element-wise in the
    state's element type, before and after the fold: the compute unit needs SIMD lanes for it
    (Decision 7). Checked on the loop before its body, so a kernel the device cannot run is told
    so first (Decision 95)."""
    from dfsched.arch.loading import device_model_for
    from dfsched.passes.frontend.online_softmax_loops import OnlineSoftmaxFold

    plan = plan_fold(loop)
    if not isinstance(plan, OnlineSoftmaxFold):
        return
    try:
        model = device_model_for(loop, device or None)
        unit = model.compute_unit(loop) if model is not None else None
    except DiagnosticError:
        return  # no device, or no single compute unit: later passes say why
    if unit is None:
        return
    state = loop.iter_args[plan.indices[0]].type
    element = state.element_type
    if unit.simd is not None and unit.simd.lanes_for(element) > 0:
        return
    raise model.fail(f"this online softmax keeps its state in {attribute_text(element)} ({attribute_text(state)}) "
                     f"but exec_unit '{unit.kind}' declares no SIMD lanes for element type "
                     f"{attribute_text(element)}", loop, unit.op)


def check_owner_tile(view: Operation, device: str | None) -> None:
    """A view of compute tile N's scratchpad (`ct_local, ct_id = N`) names a tile of the grid;
    in a grid of several tiles the others read it over the core-to-core links, from a core of
    its own (tile N's scratchpad holds its data while the others run), so the device needs as
    many cores as tiles and `ktdf_arch.core_links`."""
    from dfsched.arch.loading import device_model_for
    from dfsched.passes.frontend.lower_inter_tile_ops import grid_tiles

    owner = getattr(getattr(view.properties.get("memory_space"), "ct_id", None), "data", -1)
    if owner < 0:
        return
    tiles = grid_tiles(view)
    if owner >= tiles:
        raise error(view, OWNER_OUTSIDE_GRID.format(owner, owner, tiles))
    model = device_model_for(view, device or None) if tiles > 1 else None
    if model is None:
        return
    if tiles > model.cores:
        raise error(view, OWNER_CORES.format(owner, owner, tiles, model.name, model.cores))
    if model.core_links is None:
        raise error(view, OWNER_LINKS.format(owner, owner, model.name))


def check_carried_on_chip(loop: scf.ForOp, device: str | None) -> None:
    """A folding loop's carried values stay on chip across its whole range, and the fold loads
    that range of each streamed tile at once (no DMA-level chunking yet): for one element of the
    accumulator, the whole range along the stepped dimension must fit the scratchpad."""
    from dfsched.arch.loading import device_model_for
    from dfsched.dialects.ktdp import MemorySpaceAttr

    plan = plan_fold(loop)
    loads, total = (plan.growth.loads, plan.growth.total) if hasattr(plan, "growth") else (plan.streamed, plan.total)
    needed = sum(total * _element_bytes(load) for load in loads)
    try:
        model = device_model_for(loop, device or None)
        memory = model.memory_for_space(MemorySpaceAttr("ct_local"), loop) if model is not None else None
    except DiagnosticError:
        return
    if memory is None or memory.size is None or needed <= memory.size:
        return
    carried = loop.iter_args[0].type
    bytes_ = math.prod(getattr(carried, "get_shape", lambda: ())()) * _element_bytes_of(carried)
    raise error(loop, CARRIED_OFF_CHIP.format(carried, bytes_, total, len(loads), needed, memory.kind,
                                              model.name, memory.size))


def check_address_lists(tile: Operation, device: str | None) -> None:
    """An indirect access tile needs a device with a unit that issues address-list transfers
    (`ktdf_arch.feature.address_list`); without a device, upstream's V1 refusal."""
    from dfsched.arch.loading import device_model_for

    model = device_model_for(tile, device or None)
    if model is None:
        raise error(tile, INDIRECT_TILE)
    if not model.address_list_units():
        raise error(tile, NO_ADDRESS_LIST.format(model.name))


def check_inter_tile(op: Operation, device: str | None) -> None:
    """Inter-tile ops are lowered by `lower-inter-tile-ops` (Decision 63); its planning refuses,
    located, what it cannot lower and devices that could not run it (fewer cores than tiles, no
    core links)."""
    from dfsched.passes.frontend.lower_inter_tile_ops import plan_exchanges

    function = op.parent_op()
    while function is not None and "grid" not in function.attributes:
        function = function.parent_op()
    plan_exchanges(function or op, device or None)


def _memory_of(view: Operation, device: str | None):
    """The device memory `view`'s memory space maps to (None when unknown: later passes say why)."""
    from dfsched.arch.loading import device_model_for

    space = view.properties.get("memory_space")
    if space is None:
        return None
    try:
        model = device_model_for(view, device or None)
        return model.memory_for_space(space, view) if model is not None else None
    except DiagnosticError:
        return None


def _element_bytes(view: Operation) -> int:
    return _element_bytes_of(view.results[0].type)


def _element_bytes_of(shaped) -> int:
    element = getattr(shaped, "element_type", shaped)
    width = getattr(element, "bitwidth", None)
    return max(1, (width or 8) // 8) if isinstance(width, int) else 1


def check_op(op: Operation) -> bool:
    """Raise if `op` itself is illegal; return whether the walk should descend into it."""
    name = op_name(op)
    if name == "scf.for":
        if loop_carried_values(op):
            if not isinstance(op, scf.ForOp):
                raise error(op, ITER_ARGS)
            if not around_exchange(op):  # else carried in scratchpad slots, checked with the exchange
                plan_fold(op)  # raises, naming the carried value and why it does not fold
        return True
    if name == "scf.while":
        raise error(op, WHILE)
    if name == "func.func" and "grid" in op.attributes:
        check_tile_count(op)
    if name == "ktdp.construct_distributed_memory_view":
        from dfsched.passes.frontend.resolve_distributed_views import why_unresolved

        raise error(op, f"{DISTRIBUTED_VIEW} unless resolve-distributed-views resolves it into plain views: "
                        f"{why_unresolved(op) or 'it runs at the front door (-ktir-to-dfir, --bind)'}")
    if name == "ktdp.construct_memory_view":
        base = constant_int(op.operands[0])
        if base is not None and base < 0:
            raise error(op, NEGATIVE_BASE.format(base))
    if name.startswith("linalg."):
        return check_linalg(op, name)
    return True


def check_linalg(op: Operation, name: str) -> bool:
    if name in CHECKED_BODY:
        check_generic_body(op)
        return False  # the body was inspected as a whole
    if name in ACCEPTED_LINALG:
        return True
    if name == "linalg.fill":
        reason = why_not_reduction_init(op)
        if reason is None:
            return True
        raise error(op, NAMED_LINALG, notes=[(op, reason)])
    raise error(op, NAMED_LINALG)


def check_generic_body(generic: Operation) -> None:
    for region in generic.regions:
        for inner in region.walk():
            if inner is generic:
                continue
            name = op_name(inner)
            if name == "arith.constant":
                if is_shaped(inner.results[0].type):
                    raise error(inner, GENERIC_BODY)
            elif name not in ("linalg.yield", "linalg.index") and not is_elementwise_op_name(name):
                raise error(inner, GENERIC_BODY)  # a position (linalg.index) is computed in i32: Decision 107


# ---------------------------------------------------------------------------
# linalg.fill as the init of a reduction
# ---------------------------------------------------------------------------


def why_not_reduction_init(fill: Operation) -> str | None:
    """None when `fill` writes a scalar constant into tensors that only seed reductions."""
    value = fill.operands[0] if fill.operands else None
    if value is None or not is_scalar_constant(value):
        return "linalg.fill is accepted only to initialise a reduction with a scalar constant"
    if not fill.results or all(not r.uses for r in fill.results):
        return "this linalg.fill initialises no reduction"
    for result in fill.results:
        for use in result.uses:
            if not is_reduction_init(use.operation, use.index):
                return (f"the result of this linalg.fill is used by '{op_name(use.operation)}', "
                        "not as the init of a reduction")
    return None


def is_scalar_constant(value: SSAValue) -> bool:
    owner = value.owner
    return (isinstance(owner, Operation) and op_name(owner) == "arith.constant"
            and not is_shaped(value.type))


def is_shaped(ty: Attribute) -> bool:
    from xdsl.dialects.builtin import ShapedType

    return isinstance(ty, ShapedType)


def is_reduction_init(user: Operation, operand_index: int) -> bool:
    """Whether operand `operand_index` of `user` is the accumulator of a reduction (also the
    initial value of an `scf.for` accumulation, which folds into one: the loop is checked itself)."""
    name = op_name(user)
    if name == "scf.for":
        return operand_index >= 3
    if name == "ktdp.inter_tile_reduce":  # its identity (lower-inter-tile-ops reads the constant)
        return operand_index >= 1
    if name == "linalg.reduce":
        return operand_index in init_operand_indices(user)
    if name in ("linalg.matmul", "linalg.batch_matmul"):  # a contraction: its init is the accumulator
        return operand_index >= len(user.operands) - len(getattr(user, "outputs", ()))
    if name == "linalg.generic":
        if not any(str(getattr(it, "data", it)).endswith("reduction") for it in iterator_types(user)):
            return False
        outputs = list(getattr(user, "outputs", ()))
        first_output = len(user.operands) - len(outputs)
        return operand_index >= first_output
    return False


def init_operand_indices(reduce: Operation) -> range:
    """linalg.reduce has N inputs followed by N inits."""
    inits = getattr(reduce, "inits", None)
    if inits is None:
        inits = getattr(reduce, "init", None)
    if inits is None:
        count = len(reduce.operands) // 2
    else:
        count = 1 if isinstance(inits, SSAValue) else len(inits)
    return range(len(reduce.operands) - count, len(reduce.operands))


def iterator_types(generic: Operation) -> list[Attribute]:
    attr = generic.properties.get("iterator_types") or generic.attributes.get("iterator_types")
    return list(getattr(attr, "data", ()) or ())


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------


def loop_carried_values(for_op: Operation) -> int:
    iter_args = getattr(for_op, "iter_args", None)
    if iter_args is not None:
        return len(iter_args)
    return max(0, len(for_op.operands) - 3)
