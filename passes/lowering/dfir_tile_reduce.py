"""`ktdf.tile_reduce` in DataflowIR: a launch that moves partials between cores and folds them.

Step of `ktdflowering-to-dfir` (`docs/passes.md#ktdflowering-to-dfir`, README Decision 63). Each
`ktdf.tile_reduce` of the orchestrator becomes `func.call @tile_reduce_N()` and a program module
`@tile_reduce_N` whose function runs, on every core c of the grid, three program units along the
device's route from the scratchpad to the compute unit and back (`L1 -> L1LU -> SFU -> L1SU -> L1`
on ring4, `LX -> LXLU -> PE -> LXSU -> LX` on spyre):

* the load unit of core c reads, vector by vector, the partial slot of every tile of c's group, in
  tile order, from that tile's core's scratchpad (a view on `C<m>-<memory>`: the simulator charges
  the hops of the core-to-core route, `DeviceModel.core_route`), and sends it to c's compute unit;
* the compute unit starts each vector from the identity splat and folds the group's vectors into
  it with the combiner (`vectorchain.binary`), in tile order as the reference does, and sends it on;
* the store unit writes it into c's result slot.

A core in no group stores the identity. The launch reads only partial slots that earlier launches
wrote and writes only result slots, so it cannot deadlock: launches run one after the other, and
within the launch every FIFO has one writer and one reader that agree on the count.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, FunctionType, MemRefType, ModuleOp, StringAttr, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from dfsched.compat import InsertPoint, Rewriter
from dfsched.diagnostics import error
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp, ProgramUnitOp, ReceiveOp, SendOp
from dfsched.dialects.ktdf_exchange import COMBINERS, TileReduceOp
from dfsched.dialects.ktdp_inter_tile import group_values, tiles_of
from dfsched.dialects.vectorchain import BinaryOp, BinaryOperator, BinaryOperatorAttr, ConstantBitstreamOp, ShuffleOp
from dfsched.passes.builder import Builder
from dfsched.passes.cleanup.canonicalize import canonicalize
from dfsched.passes.lowering.dfir_compute import _scalar_bits  # noqa: PLC2701  (the one home of fill bits)
from dfsched.passes.lowering.dfir_utils import (
    emit_vector_load,
    emit_vector_store,
    identity_map,
    make_unit,
    unit_name,
    unit_type_tag,
    vector_lanes,
)
from dfsched.passes.lowering.program import one_d_grid_size

PROGRAM = "tile_reduce_{}"


def lower_tile_reduces(module: ModuleOp, model) -> None:
    """Replace every `ktdf.tile_reduce` by a call of a program module of its own (module docstring)."""
    reduces = [op for op in module.walk() if isinstance(op, TileReduceOp)]
    for index, op in enumerate(reduces):
        name = PROGRAM.format(index)
        kernel = _kernel_of(op)
        program = _program(op, name, model, one_d_grid_size(kernel))
        module.body.block.add_op(program)
        declarations = kernel.parent_block()
        declarations.add_op(func.FuncOp(name, FunctionType.from_lists([], []), Region(), "private"))
        Rewriter.replace_op(op, func.CallOp(name, [], []))


def _kernel_of(op: Operation) -> func.FuncOp:
    parent = op.parent_op()
    while parent is not None and not (isinstance(parent, func.FuncOp) and "grid" in parent.attributes):
        parent = parent.parent_op()
    if parent is None:
        raise error(op, "a 'ktdf.tile_reduce' must be inside the kernel (a function with a 'grid')")
    return parent


def _route_kinds(model, at: Operation) -> tuple[str, str, str, str]:
    """(memory, load unit, compute, store unit) kinds: the device's route from the scratchpad to
    the compute unit and back, one unit each way."""
    memory = model.core_memory
    compute = model.compute_kind
    there = model.routing.route(memory.kind, compute) if memory is not None and compute else None
    back = model.routing.route(compute, memory.kind) if there is not None else None
    if there is None or back is None or len(there) != 3 or len(back) != 3:
        raise error(at, f"device '{model.name}' has no route from its scratchpad to its compute unit and back "
                        "through one unit each way, which an inter-tile reduction needs")
    return memory.kind, there[1].label, compute, back[1].label


def _program(op: TileReduceOp, name: str, model, tiles: int) -> ModuleOp:
    memory, loader, compute, storer = (unit_type_tag(k) for k in _route_kinds(model, op))
    body = Block()
    builder = Builder(InsertPoint.at_end(body), None, op.location)
    units = {(tag, core): builder.value(make_unit(unit_name(tag, core), tag, core, None if tag == memory else 0))
             for tag in (loader, compute, storer, memory) for core in range(tiles)}
    slot = op.slot_type
    element = slot.element_type
    count = 1
    for extent in slot.get_shape():
        count *= extent
    lanes = vector_lanes(model, element, op)
    chunks = [(start, min(lanes, count - start)) for start in range(0, count, lanes)]
    size = (element.bitwidth + 7) // 8
    producers = op.producers.data
    groups = group_values(op.groups.data) or []
    for core in range(tiles):
        group = next((g for g in groups if core in (tiles_of(producers, g) or set())), None)
        members = sorted(tiles_of(producers, group) or set()) if group is not None else []
        if any(m >= tiles for m in members):
            raise error(op, f"group {group} names compute tile {max(members)}, but the grid has {tiles}")
        unit = lambda tag, c=core: units[(tag, c)]  # noqa: E731
        views = _Views(units, memory, element, size)
        _unit_program(builder, [unit(loader)], lambda b: [
            b.insert(SendOp.build(operands=[unit(compute), emit_vector_load(
                b, VectorType(element, [n]), views.at(b, m, op.partial_address.value.data, start, n))]))
            for start, n in chunks for m in members])
        _unit_program(builder, [unit(compute)], lambda b: [
            _fold(b, op, element, n, unit(loader), unit(storer), len(members)) for start, n in chunks])
        _unit_program(builder, [unit(storer)], lambda b: [
            emit_vector_store(b, b.value(ReceiveOp.build(operands=[unit(compute)],
                                                         result_types=[VectorType(element, [n])])),
                              views.at(b, core, op.result_address.value.data, start, n))
            for start, n in chunks])
    builder.insert(func.ReturnOp())
    function = func.FuncOp(name, FunctionType.from_lists([], []), Region(body))
    canonicalize(function, top_down=False)  # one constant per address
    function.attributes["grid"] = _kernel_of(op).attributes["grid"]
    function.location = op.location
    program = ModuleOp([function])
    program.sym_name = StringAttr(name)
    return program


class _Views:
    """`dataflow.get_logical_memory_view`s of a slot's chunk in one core's scratchpad."""

    def __init__(self, units: dict, memory: str, element, size: int):
        self.units, self.memory, self.element, self.size = units, memory, element, size

    def at(self, builder: Builder, core: int, address: int, start: int, count: int) -> SSAValue:
        return builder.value(GetLogicalMemoryViewOp(
            self.units[(self.memory, core)], builder.constant(address + start * self.size),
            AffineMapAttr(AffineMap.identity(1)), MemRefType(self.element, [count])))


def _unit_program(builder: Builder, units: list[SSAValue], emit) -> None:
    block = Block()
    program = ProgramUnitOp(units, Region(block))
    builder.insert(program)
    inner = Builder(InsertPoint.before(block.last_op) if block.last_op else InsertPoint.at_end(block), None,
                    builder.location)
    emit(inner)


def _fold(builder: Builder, op: TileReduceOp, element, n: int, source: SSAValue, sink: SSAValue,
          members: int) -> None:
    vector = VectorType(element, [n])
    bits = _scalar_bits(op.identity, element, op)
    seed = builder.value(ConstantBitstreamOp([bits], VectorType(element, [1])))
    acc = builder.value(ShuffleOp(seed, [0], n, vector))
    operator = BinaryOperatorAttr(BinaryOperator(COMBINERS[op.combiner.data][1]))
    for _ in range(members):
        partial = builder.value(ReceiveOp.build(operands=[source], result_types=[vector]))
        acc = builder.value(BinaryOp.build(operands=[acc, partial, []], result_types=[vector],
                                           properties={"binary_op": operator,
                                                       "op_specific_map": AffineMapAttr(identity_map(1))}))
    builder.insert(SendOp.build(operands=[sink, acc]))
