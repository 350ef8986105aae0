"""The ktdf / ktdf_lowering Python API: builders, accessors, effects and patterns.

Passes build ScheduleIR through these constructors, so they must produce IR that verifies,
prints in upstream syntax and parses back to the same text.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, StringAttr, TensorType, f16
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from dfsched import compat, dialects, printing
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import ktdf, ktdf_lowering
from unit_helpers import assert_contains


def parse(text: str) -> ModuleOp:
    module = compat.LocatingParser(dialects.make_context(), text, "test.mlir").parse_module()
    compat.verify_module(module)
    return module


def text_of(module: ModuleOp) -> str:
    return printing.module_to_string(module)


def function(*ops, arg_types=()) -> tuple[ModuleOp, Block]:
    block = Block(arg_types=arg_types)
    block.add_ops([*ops, func.ReturnOp()])
    fn = func.FuncOp("f", (list(arg_types), []), Region(block))
    return ModuleOp([fn]), block


def slot(count: int = 64, src: str = "L1LU", dst: str = "SFU") -> ktdf.FifoSlotType:
    return ktdf.FifoSlotType(StringAttr(src), StringAttr(dst), count, f16)


def test_registered_under_their_names():
    assert dialects.DIALECTS["ktdf"] == ("dfsched.dialects.ktdf", "KTDF")
    assert dialects.DIALECTS["ktdf_lowering"] == ("dfsched.dialects.ktdf_lowering", "KTDF_LOWERING")
    assert ktdf.KTDF.name == "ktdf" and ktdf_lowering.KTDF_LOWERING.name == "ktdf_lowering"


def test_fifo_slot_type_parts():
    dynamic = ktdf.FifoSlotType(StringAttr("SFU"), StringAttr("L1SU"), ktdf.KDYNAMIC, f16)
    assert dynamic.is_dynamic and not slot().is_dynamic
    assert str(dynamic) == '!ktdf.fifo.slot<"SFU" -> "L1SU", ?xf16>'
    assert ktdf.element_type_of(slot()) == f16
    assert ktdf.element_type_of(MemRefType(f16, [4])) == f16


def test_built_pipeline_round_trips():
    """A three-stage pipeline built with the constructors, as construct-three-stage-pipeline does."""
    src_type = MemRefType(f16, [64], memory_space=StringAttr("L1"))
    private_block = Block()
    fin = ktdf.FifoAllocateOp([slot()])
    t0, t1 = ktdf.CreateTokenOp(), ktdf.CreateTokenOp()
    private_block.add_ops([fin, t0, t1, ktdf.PrivateYieldOp([fin.slots[0], t0.result, t1.result])])
    private = ktdf.PrivateOp([slot(), ktdf.TokenType(), ktdf.TokenType()], Region(private_block))

    block = Block(arg_types=[src_type])
    load = ktdf.StageOp([], [private.res[1]], applicable_units=["L1LU"])
    load.body.block.add_op(ktdf.DataTransferOp(
        block.args[0], private.res[0], source_map=AffineMap(0, 0, (AffineExpr.constant(0),)),
        source_sizes=[64], dest_sizes=[64]))
    compute = ktdf.StageOp([private.res[1]], [private.res[2]], applicable_units=["SFU"])
    read = ktdf.ReadFromFifoOp(private.res[0], TensorType(f16, [64]))
    compute.body.block.add_op(read)
    pipeline = ktdf.PipelineOp(Region(Block([private, load, compute])), modulo=2)
    block.add_ops([pipeline, func.ReturnOp()])
    module = ModuleOp([func.FuncOp("f", ([src_type], []), Region(block))])
    compat.verify_module(module)

    text = text_of(module)
    assert_contains(text, "ktdf.pipeline modulo(size : 2) {", "ktdf.stage depends_in(none) depends_out(%0#1) {",
                    "ktdf.data_transfer from %arg0[0] size [64] to %0#0 size [64]", '} {applicable_units = ["SFU"]}')
    assert text_of(parse(text)) == text
    assert pipeline.private is private and pipeline.stages == [load, compute]
    assert compute.unit_kinds == ["SFU"]


def test_data_transfer_mixed_sizes():
    module, block = function(arg_types=[MemRefType(f16, [8, 64]), slot(), IndexType()])
    mem, fifo, n = block.args
    op = ktdf.DataTransferOp(mem, fifo, source_map=AffineMap.identity(2), source_indices=[n, n],
                             source_sizes=[1, n], dest_sizes=[64])
    block.insert_op_before(op, block.first_op)
    compat.verify_module(module)
    assert op.mixed_sizes("source") == [1, n]
    assert op.mixed_sizes("dest") == [64]
    assert "from %arg0[%arg2, %arg2] size [1, %arg2] to %arg1 size [64]" in text_of(module)


def test_data_transfer_without_sizes_on_a_fifo_side():
    module, block = function(arg_types=[slot(), MemRefType(f16, [64])])
    op = ktdf.DataTransferOp(block.args[0], block.args[1], dest_map=AffineMap(0, 0, (AffineExpr.constant(0),)),
                             dest_sizes=[64])
    block.insert_op_before(op, block.first_op)
    compat.verify_module(module)
    assert op.mixed_sizes("source") is None
    assert "ktdf.data_transfer from %arg0 to %arg1[0] size [64]" in text_of(module)


def test_unique_values_are_not_merged_but_are_dead_when_unused():
    a, b = ktdf.CreateTokenOp(), ktdf.CreateTokenOp()
    r1, r2 = ktdf.TilingReserveSizeOp(4, 2), ktdf.TilingReserveSizeOp(4, 2)
    for op in (a, r1):
        assert not is_side_effect_free(op)
        assert {e.kind for e in get_effects(op)} == {MemoryEffectKind.ALLOC}
    module, block = function(a, b, r1, r2)
    block.last_op.operands = [a.result, b.result, r1.result, r2.result]
    CommonSubexpressionElimination().apply(dialects.make_context(), module)
    assert len([op for op in module.walk() if isinstance(op, (ktdf.CreateTokenOp, ktdf.TilingReserveSizeOp))]) == 4


def test_opaque_effects_follow_operand_kinds():
    module, block = function(arg_types=[TensorType(f16, [8]), MemRefType(f16, [8])])
    tensor, memref = block.args
    pure = ktdf.OpaqueOp("NEG", [tensor], [tensor])
    writes = ktdf.OpaqueOp("ZERO", [], [memref])
    assert pure.res[0].type == TensorType(f16, [8])
    assert is_side_effect_free(pure)
    assert {e.kind for e in get_effects(writes)} == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}


def test_parallel_accessors():
    c0 = arith.ConstantOp(IntegerAttr(0, IndexType()))
    par = ktdf.ParallelOp([c0.result], [c0.result], [c0.result], 2)
    par.body.block.add_op(ktdf.ParallelYieldOp())
    module, _ = function(c0, par)
    compat.verify_module(module)
    assert len(par.induction_vars) == 1 and par.instance_id is par.body.block.args[-1]
    assert "ktdf.parallel (%arg0, %arg1) = (%c0) to (%c0) step (%c0) distribute(num_instances = 2) {" \
        in text_of(module)


def test_stage_verifier_reports_block_argument_tokens():
    with pytest.raises(DiagnosticError, match="depends_in operand must originate from ktdf.create_token"):
        parse("""
        func.func @f(%t: !ktdf.token) {
          ktdf.pipeline {
            ktdf.stage depends_in(%t) depends_out(none) {
            }
          }
          return
        }""")


def test_pipeline_verifier_note_points_at_the_stray_op():
    with pytest.raises(DiagnosticError) as info:
        parse("""
        func.func @f() {
          ktdf.pipeline {
            %c = arith.constant 0 : index
          }
          return
        }""")
    diagnostic = info.value.diagnostic
    assert diagnostic.message.startswith("'ktdf.pipeline' op immediate children")
    assert [(n.line, n.message) for n in diagnostic.notes] == [(4, "found 'arith.constant' op")]


def test_execute_on_and_signal_builders():
    module, block = function(arg_types=[IndexType(), IndexType()])
    u0, u1 = block.args
    outer = ktdf_lowering.ExecuteOnOp([u0, u1])
    outer.body.block.add_op(ktdf_lowering.SignalOp([u0, u1]))
    block.insert_op_before(outer, block.first_op)
    compat.verify_module(module)
    text = text_of(module)
    assert "ktdf_lowering.execute_on %arg0, %arg1 {" in text
    assert "ktdf_lowering.signal %arg0, %arg1\n" in text
    assert get_effects(outer.body.block.first_op) is None  # unknown effects: never removed
