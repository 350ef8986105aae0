"""Compute and FIFO lowerings (`docs/passes.md#ktdflowering-to-dfir`, except signals: `dfir_signals`).

* `ktdf.read_from_fifo` → `dataflow.receive` from the unit of the slot's source kind;
* `ktdf.write_to_fifo` → `dataflow.send` to the unit of the slot's destination kind (a memref
  is first read whole with `agen.vector_load`);
* `linalg.generic`: element-wise on tensors → one `vectorchain.binary` per add/sub/mul/max/min
  body op; any other element-wise op (a `spyreop` intrinsic, exp, div, a cast, cmp+select,
  ...), which no vectorchain op carries exactly, stays as itself in an island: a
  `linalg.generic` over the vector, see `island` and `_lower_body`; with
  reduction dimensions → an `scf.for` per reduction dimension carrying the accumulator, reading
  one parallel slice from the FIFO per step; on buffers → load the accumulator, compute, store;
  a contraction step marked for the matrix unit → one matrix-multiply island (`_matrix_step`);
  the lane combine of a lane-wide reduction → shuffles and binaries (`_lane_combine`);
* `linalg.fill` with zero → `vectorchain.constant_bitstream` + `vectorchain.shuffle` (stored when
  the output is a memref);
* `memref.copy` of a buffer read from a FIFO → `agen.vector_store`;
* `ktdf.tiling.derive_size` → the tile size, or `select(iv < ub - 1, tile, remainder)`.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from dfsched.arch.elementwise import ELEMENTWISE_OPS
from dfsched.diagnostics import error
from dfsched.dialects.dataflow import SendOp
from dfsched.dialects.ktdf import ReadFromFifoOp, TilingDeriveSizeOp, WriteToFifoOp
from dfsched.dialects.vectorchain import BinaryOp, BinaryOperator, BinaryOperatorAttr, ConstantBitstreamOp, ShuffleOp
from dfsched.dialects.constants import constant_int
from dfsched.float_text import float_bits
from dfsched.passes.body_positions import lane_positions
from dfsched.passes.builder import Builder
from dfsched.passes.contraction import MATRIX_TILE, matrix_tile
from dfsched.passes.lane_wide import IDENTITIES, is_lane_combine
from dfsched.passes.lowering.dfir_utils import (
    emit_vector_load,
    emit_vector_store,
    flattened_vector_type,
    identity_map,
    receive_from_fifo,
    required_program_unit,
    resolve_fifo_unit,
)

BINARY_OPS = {
    "arith.mulf": BinaryOperator.mul,
    "arith.addf": BinaryOperator.add,
    "arith.subf": BinaryOperator.sub,
    "arith.maximumf": BinaryOperator.max,
    "arith.minimumf": BinaryOperator.min,
}  # arith.maxnumf is not abs_max (upstream lowers it so): it is an island, with fmax semantics


def _operator(name: str) -> BinaryOperatorAttr:
    return BinaryOperatorAttr(BINARY_OPS[name])


def combine(builder: Builder, model, vector_type, lhs: SSAValue, rhs: SSAValue, combiner: Operation) -> SSAValue:
    """`combiner` (a scalar op of two operands) applied to two whole vectors: the vectorchain
    binary where one is exact, else an island of the op itself (`arith.maxnumf`: fmax's NaN rule,
    Decision 111)."""
    if combiner.name in BINARY_OPS:
        return binary(builder, vector_type, lhs, rhs, combiner.name)
    template = combiner.clone()
    template.operands = [lhs, rhs]
    try:
        return island(builder, model, [template])
    finally:
        template.erase()


def binary(builder: Builder, vector_type, lhs: SSAValue, rhs: SSAValue, operator: str) -> SSAValue:
    return builder.value(BinaryOp.build(
        operands=[lhs, rhs, []], result_types=[vector_type],
        properties={"binary_op": _operator(operator), "op_specific_map": AffineMapAttr(identity_map(1))}))


def is_elementwise_intrinsic(op: Operation) -> bool:
    """A `spyreop` intrinsic that maps scalars to a scalar of the same type (exp, sigmoid,
    realdiv, compare, select, layernormnorm, ...): element-wise over a vector. Reductions
    (`exx2`), fused pairs, constants and `slice_reduction` are not."""
    if not op.name.startswith("spyreop.") or len(op.results) != 1 or not op.operands:
        return False
    result = op.results[0].type
    return not isinstance(result, ShapedType) and all(
        isinstance(v.type, ShapedType) or v.type == result for v in op.operands)


def is_island_op(op: Operation) -> bool:
    """A body op lowered as an island: an element-wise intrinsic, or an element-wise
    arith/math op with no exact vectorchain op (`arch/elementwise.py`)."""
    return is_elementwise_intrinsic(op) or (op.name in ELEMENTWISE_OPS and len(op.results) == 1)


def island(builder: Builder, model, ops: list[Operation]) -> SSAValue:
    """Element-wise scalar ops applied to whole vectors, as themselves (Decision 15).

    vectorchain has no op that carries an intrinsic, a transcendental function or a cast
    exactly: its unary ops are fixed functions or undocumented estimates. So `ops` (the op
    whose vector result is wanted, last, after the mask producers folded into it: see
    `_lower_body`) stay as themselves, on scalars, in one element-wise `linalg.generic` over
    the flattened vector (as 1-D tensors: linalg takes no vectors), bridged by
    `builtin.unrealized_conversion_cast`s:

        %t = builtin.unrealized_conversion_cast %v : vector<64xf16> to tensor<64xf16>
        %e = tensor.empty() : tensor<64xf16>
        %r = linalg.generic {...identity maps, ["parallel"]} ins(%t : tensor<64xf16>) outs(%e : tensor<64xf16>) {
        ^bb0(%a: f16, %o: f16):
          %s = spyreop.sigmoid %a : f16
          linalg.yield %s : f16
        } -> tensor<64xf16>
        %w = builtin.unrealized_conversion_cast %r : tensor<64xf16> to vector<64xf16>

    Shaped operands from outside `ops` (lowered vectors, or FIFO-read tensors that become
    vectors when the read is lowered) become the generic's inputs, each with its own element
    type; scalar operands captured from outside the generic stay scalar operands. The result
    vector has the result's element type, so a cast (`arith.extf`) changes the lane type and
    a type without lanes is Decision 7's error. Returns the vector result.
    """
    from dfsched.compat import IteratorType, IteratorTypeAttr, linalg_ops
    from dfsched.dialects.linalg_ext import GenericOp

    root = ops[-1]
    inside = {r for o in ops for r in o.results}
    vector_inputs: list[SSAValue] = []
    for o in ops:
        for v in o.operands:
            if isinstance(v.type, ShapedType) and v not in inside and v not in vector_inputs:
                vector_inputs.append(v)
    if not vector_inputs:
        raise error(root, "element-wise op in linalg.generic body has no vector operand")
    counts = {flattened_vector_type(model, v.type, root).element_count() for v in vector_inputs}
    if len(counts) != 1:
        raise error(root, "element-wise op operands must flatten to vectors of one length")
    count = counts.pop()
    scalar = root.results[0].type
    vector = flattened_vector_type(model, TensorType(scalar, [count]), root)

    def element(v: SSAValue):
        t = v.type
        return t.element_type if isinstance(t, ShapedType) else t

    ins = [builder.value(UnrealizedConversionCastOp.get([v], [TensorType(element(v), [count])]))
           for v in vector_inputs]
    as_tensor = TensorType(scalar, [count])
    init = builder.value(tensor.EmptyOp([], as_tensor))
    body = Block(arg_types=[element(v) for v in vector_inputs] + [scalar])
    mapping = {v: body.args[i] for i, v in enumerate(vector_inputs)}
    for o in ops:
        clone = o.clone()
        clone.operands = [mapping.get(v, v) for v in o.operands]
        mapping.update(zip(o.results, clone.results))
        body.add_op(clone)
    body.add_op(linalg_ops.YieldOp(mapping[root.results[0]]))
    identity = AffineMapAttr(identity_map(1))
    generic = builder.insert(GenericOp(
        ins, [init], Region(body), [identity] * (len(ins) + 1),
        [IteratorTypeAttr(IteratorType.PARALLEL)], [as_tensor]))
    return builder.value(UnrealizedConversionCastOp.get([generic.results[0]], [vector]))


def is_intrinsic_island(op: Operation) -> bool:
    """A `linalg.generic` made by `island` (already lowered: the pattern leaves it alone)."""
    block = op.body.block
    body = list(block.ops)
    return (len(body) >= 2 and all(is_island_op(o) for o in body[:-1])
            and all(isinstance(v.owner, UnrealizedConversionCastOp) for v in op.inputs)
            and len(op.results) == 1
            and all(isinstance(use.operation, UnrealizedConversionCastOp) for use in op.results[0].uses))


# ---------------------------------------------------------------------------
# FIFOs
# ---------------------------------------------------------------------------


def matrix_block_ops(func: Operation) -> set[Operation]:
    """The ops that move or initialise a matrix step's blocks (`passes/contraction.py`): the FIFO
    reads of its operands, and the fills, narrowing generics and FIFO writes of its
    accumulator and of the accumulator's narrowed copy. Their vectors may span several of the
    unit's vectors: the block is whole unit tiles, streamed vector by vector."""
    found: set[Operation] = set()
    for op in func.walk():
        if op.name != "linalg.generic" or matrix_tile(op) is None or op.results:
            continue
        found.update(v.owner for v in op.inputs if isinstance(v.owner, ReadFromFifoOp))
        buffers = list(op.outputs)
        for buffer in buffers:
            for use in buffer.uses:
                user = use.operation
                if user.name in ("linalg.fill", "ktdf.write_to_fifo"):
                    found.add(user)
                elif user.name == "linalg.generic" and user is not op and matrix_tile(user) is None \
                        and buffer in user.inputs:
                    found.add(user)
                    buffers.extend(v for v in user.outputs if v not in buffers)
    return found


class _FifoPattern(RewritePattern):
    """A compute op's FIFO read or write: `blocks` are the ones moving a matrix-unit block."""

    op_class: type[Operation]

    def __init__(self, components, model, blocks: set[Operation] = frozenset()):
        self.components, self.model, self.blocks = components, model, blocks

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, self.op_class):
            data = op.result if isinstance(op, ReadFromFifoOp) else op.data
            vector = flattened_vector_type(self.model, data.type, op, op in self.blocks)
            self.lower(op, vector, required_program_unit(op), Builder.before(op, rewriter), rewriter)


class LowerReadFromFifo(_FifoPattern):
    op_class = ReadFromFifoOp

    def lower(self, op: ReadFromFifoOp, vector: VectorType, pu, builder: Builder, rewriter: PatternRewriter) -> None:
        received = receive_from_fifo(builder, op.fifo_slot.type.src, self.components, pu, op, vector)
        rewriter.replace(op, [], [received])


class LowerWriteToFifo(_FifoPattern):
    op_class = WriteToFifoOp

    def lower(self, op: WriteToFifoOp, vector: VectorType, pu, builder: Builder, rewriter: PatternRewriter) -> None:
        dest = resolve_fifo_unit(builder, op.fifo_slot.type.dest, self.components, pu, op)
        data = op.data
        if isinstance(data.type, MemRefType):
            data = emit_vector_load(builder, vector, data)
        builder.insert(SendOp.build(operands=[dest, data]))
        rewriter.erase(op)


class LowerCopyFromFifo(RewritePattern):
    """`memref.copy` of a FIFO read: store the received vector into the target."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "memref.copy" or not isinstance(op.operands[0].owner, ReadFromFifoOp):
            return
        emit_vector_store(Builder.before(op, rewriter), op.operands[0], op.operands[1])
        rewriter.erase(op)


# ---------------------------------------------------------------------------
# linalg
# ---------------------------------------------------------------------------


def _vector_constant(op: Operation, model, value: SSAValue, builder: Builder) -> SSAValue:
    """A dense tensor constant input as the same constant of the flattened vector type."""
    if not isinstance(value.type, TensorType):
        return value
    const = value.owner
    if not isinstance(const, arith.ConstantOp) or not isinstance(const.value, DenseIntOrFPElementsAttr):
        return value
    vector = flattened_vector_type(model, value.type, op)
    reshaped = DenseIntOrFPElementsAttr.from_list(vector, list(const.value.get_values()))
    return builder.value(arith.ConstantOp(reshaped, vector))


def _lower_body(op: Operation, model, builder: Builder, block: Block) -> SSAValue:
    """Lower the body ops in order; returns the yielded value.

    * a scalar op on scalars only (`arith.constant`, or arithmetic on captured scalars) moves
      before the generic unchanged;
    * `arith.addf/subf/mulf/maximumf/minimumf` on two vectors → `vectorchain.binary`;
    * a mask producer (`arith.cmpf`/`cmpi`, an i1 result: no lanes hold it) waits and is
      folded into the island of the op that uses it (`arith.select`);
    * any other element-wise op → an island (`island`).
    """
    terminator = block.last_op
    assert terminator is not None
    waiting: dict[SSAValue, Operation] = {}  # mask results not lowered yet -> their op

    def with_masks(o: Operation) -> list[Operation]:
        found: list[Operation] = []
        for v in o.operands:
            producer = waiting.pop(v, None)
            if producer is not None:
                found += with_masks(producer)
        return found + [o]

    lowered: set[Operation] = set()  # the i32 casts of positions, replaced by a vector constant
    for inner in list(block.ops):
        if inner is terminator:
            break
        if inner in lowered:
            continue
        if inner.name == "linalg.index":
            lowered.update(_lower_position(op, model, builder, inner))
            continue
        if any(v.owner is block for v in inner.operands if isinstance(v, BlockArgument)):
            raise error(inner, "element-wise body op reads the generic's output; only inputs can be read")
        if not any(isinstance(v.type, ShapedType) for v in inner.operands) and not any(
                v in waiting for v in inner.operands) and (inner.name == "arith.constant" or inner.operands):
            inner.detach()
            builder.insert(inner)
            continue
        if not is_island_op(inner):
            raise error(inner, "unsupported operation type in linalg.generic body")
        if inner.name in BINARY_OPS and all(isinstance(v.type, ShapedType) for v in inner.operands):
            lhs, rhs = inner.operands
            vector = flattened_vector_type(model, lhs.type, inner)
            inner.results[0].replace_all_uses_with(binary(builder, vector, lhs, rhs, inner.name))
            continue
        if isinstance(inner.results[0].type, IntegerType) and inner.results[0].type.width.data == 1:
            waiting[inner.results[0]] = inner
            continue
        inner.results[0].replace_all_uses_with(island(builder, model, with_masks(inner)))
    result = terminator.operands[0]
    if result in waiting:
        result_op = waiting[result]
        result = island(builder, model, with_masks(result_op))
    return result


def _lower_position(op: Operation, model, builder: Builder, index: Operation) -> list[Operation]:
    """`linalg.index d` of a tile's body, read in i32 (`body_positions.positions_in_i32`), as the
    vector constant of each lane's position along d within the tile (Decision 107); returns the
    casts it replaces."""
    dim = index.dim.value.data
    casts = [use.operation for use in index.results[0].uses]
    if not casts or any(c.name != "arith.index_cast" or c.results[0].type != i32 for c in casts):
        raise error(index, f"linalg.index {dim} must be read through arith.index_cast to i32 to have lanes")
    shape = list(op.outputs[0].type.get_shape())
    vector = flattened_vector_type(model, TensorType(i32, [_element_count(shape)]), index)
    positions = DenseIntOrFPElementsAttr.from_list(vector, lane_positions(shape, dim))
    constant = builder.value(arith.ConstantOp(positions, vector))
    for cast in casts:
        cast.results[0].replace_all_uses_with(constant)
    return casts


def _iterators(op: Operation) -> list[str]:
    names = []
    for attr in op.iterator_types.data:
        data = attr.data
        names.append(getattr(data, "value", str(data)))
    return names


class LowerLinalgGeneric(RewritePattern):
    def __init__(self, model, blocks: set[Operation] = frozenset()):
        self.model, self.blocks = model, blocks

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.generic" or is_intrinsic_island(op):
            return
        operands = [*op.inputs, *op.outputs]
        if operands and all(isinstance(v.type, MemRefType) for v in operands) and not op.results:
            if matrix_tile(op) is not None:
                return self._matrix_step(op, rewriter)
            if is_lane_combine(op):
                return self._lane_combine(op, rewriter)
            return self._buffer(op, rewriter)
        if not all(isinstance(v.type, TensorType) for v in op.outputs) or len(op.results) != 1:
            return
        if "reduction" in _iterators(op):
            return self._reduction(op, rewriter)
        block = op.body.block
        terminator = block.last_op
        if terminator is None or len(terminator.operands) != 1:
            return
        builder = Builder.before(op, rewriter)
        for arg, value in zip(block.args[: len(op.inputs)], op.inputs):
            arg.replace_all_uses_with(_vector_constant(op, self.model, value, builder))
        result = _lower_body(op, self.model, builder, block)
        rewriter.replace(op, [], [result])

    def _buffer(self, op: Operation, rewriter: PatternRewriter) -> None:
        block = op.body.block
        terminator = block.last_op
        if terminator is None or len(terminator.operands) != 1:
            return
        out = op.outputs[0]
        if op in self.blocks:  # a matrix accumulator block rounded to the result type
            return self._narrow_block(op, rewriter)
        builder = Builder.before(op, rewriter)
        vector = flattened_vector_type(self.model, out.type, op, op in self.blocks)
        for index, (arg, value) in enumerate(zip(block.args[: len(op.inputs)], op.inputs)):
            arg.replace_all_uses_with(broadcast_input(builder, self.model, op, index, value, vector))
        block.args[-1].replace_all_uses_with(emit_vector_load(builder, vector, out))
        result = _lower_body(op, self.model, builder, block)
        emit_vector_store(builder, result, out)
        rewriter.erase(op)

    def _narrow_block(self, op: Operation, rewriter: PatternRewriter) -> None:
        """`map-reduction-partials`' narrowing of a wide accumulator block (its body one
        `arith.truncf`): the block loaded, converted by one `vectorchain.cast`, stored."""
        body = list(op.body.block.ops)
        if len(op.inputs) != 1 or len(body) != 2 or body[0].name != "arith.truncf":
            raise error(op, "a matrix accumulator block is only narrowed by an arith.truncf")
        from dfsched.dialects.vectorchain import CastOp

        builder = Builder.before(op, rewriter)
        source, out = op.inputs[0], op.outputs[0]
        wide = emit_vector_load(builder, flattened_vector_type(self.model, source.type, op, block=True), source)
        narrow = flattened_vector_type(self.model, out.type, op, block=True)
        emit_vector_store(builder, builder.value(CastOp.build(operands=[wide, []], result_types=[narrow])), out)
        rewriter.erase(op)

    def _lane_combine(self, op: Operation, rewriter: PatternRewriter) -> None:
        """The last step of a lane-wide reduction (`passes/lane_wide.py`): each row's
        L partials folded into its result. The P x L partials are one vector; log2(L) rounds
        each combine it with a copy whose lanes are rotated by L/2, L/4, ..., 1 within every
        row (`vectorchain.shuffle`), after which every lane holds its row's total; a shuffle
        picks each row's first lane, and the body combines them into the result buffer:

            %p = agen.vector_load %partials            : vector<P*L>
            %s = vectorchain.shuffle input(%p) {indices = [L/2, ..., L/2 - 1, ...]}
            %p1 = vectorchain.binary %p, %s {add}      ... (log2(L) times)
            %t = vectorchain.shuffle input(%pk) {indices = [0, L, 2L, ...]} : vector<P>
            %r = vectorchain.binary %acc, %t {add}; agen.vector_store %r, %result
        """
        partials, out = op.inputs[0], op.outputs[0]
        rows_shape = list(partials.type.get_shape())
        width = rows_shape[-1]
        if width & (width - 1) or len(op.body.block.ops) != 2:
            raise error(op, "a lane combine needs a power-of-two lane count and a one-op body")
        folded = op.body.block.first_op
        assert folded is not None
        if folded.name not in IDENTITIES:  # associative and commutative (passes/lane_wide.py)
            raise error(folded, "unsupported lane combine op (expected one of "
                                + ", ".join(sorted(IDENTITIES)) + ")")
        rows = _element_count(rows_shape[:-1])
        builder = Builder.before(op, rewriter)
        vector = flattened_vector_type(self.model, partials.type, op)
        value = emit_vector_load(builder, vector, partials)
        shift = width // 2
        while shift:
            rotated = [row * width + (lane + shift) % width for row in range(rows) for lane in range(width)]
            partner = builder.value(ShuffleOp(value, rotated, 1, vector))
            value = combine(builder, self.model, vector, value, partner, folded)
            shift //= 2
        out_vector = flattened_vector_type(self.model, out.type, op)
        totals = builder.value(ShuffleOp(value, [row * width for row in range(rows)], 1, out_vector))
        block = op.body.block
        block.args[0].replace_all_uses_with(totals)
        block.args[-1].replace_all_uses_with(emit_vector_load(builder, out_vector, out))
        emit_vector_store(builder, _lower_body(op, self.model, builder, block), out)
        rewriter.erase(op)

    def _matrix_step(self, op: Operation, rewriter: PatternRewriter) -> None:
        """One step of a contraction on the matrix unit (`passes/contraction.py`): an M x K
        and a K x N operand vector multiplied into the M x N accumulator buffer, as an island
        (Decision 15's form): the contraction generic itself on tensors, bridged from and to
        the vectors by `builtin.unrealized_conversion_cast`, keeping its mark so the simulator
        costs it by the unit's `cycles_per_tile`:

            %a = builtin.unrealized_conversion_cast %x : vector<32xf16> to tensor<4x8xf16>
            %c = builtin.unrealized_conversion_cast %acc : vector<32xf16> to tensor<4x8xf16>
            %r = linalg.generic {contraction maps} ins(%a, %b) outs(%c) attrs = {dfsched.matrix_tile = ...}
            %v = builtin.unrealized_conversion_cast %r : tensor<4x8xf16> to vector<32xf16>
        """
        from dfsched.dialects.linalg_ext import GenericOp

        builder = Builder.before(op, rewriter)
        out = op.outputs[0]

        def as_tensor(value: SSAValue, shaped) -> SSAValue:
            tensor_type = TensorType(shaped.element_type, shaped.get_shape())
            return builder.value(UnrealizedConversionCastOp.get([value], [tensor_type]))

        operands = []
        for value in op.inputs:
            vector = flattened_vector_type(self.model, value.type, op, block=True)
            loaded = value if isinstance(value.owner, ReadFromFifoOp) else emit_vector_load(builder, vector, value)
            operands.append(as_tensor(loaded, value.type))
        acc_vector = flattened_vector_type(self.model, out.type, op, block=True)
        acc = as_tensor(emit_vector_load(builder, acc_vector, out), out.type)
        step = builder.insert(GenericOp(operands, [acc], op.body.clone(), op.indexing_maps.data,
                                        op.iterator_types.data, [acc.type]))
        step.attributes[MATRIX_TILE] = op.attributes[MATRIX_TILE]
        result = builder.value(UnrealizedConversionCastOp.get([step.results[0]], [acc_vector]))
        emit_vector_store(builder, result, out)
        rewriter.erase(op)

    def _reduction(self, op: Operation, rewriter: PatternRewriter) -> None:
        block = op.body.block
        body_ops = [o for o in block.ops if o is not block.last_op]
        if len(body_ops) != 1:
            raise error(op, "reduction linalg.generic body must have exactly one compute op")
        if body_ops[0].name not in BINARY_OPS:
            raise error(body_ops[0], "unsupported reduction body op in linalg.generic")
        operator = body_ops[0].name
        input_value = op.inputs[0]
        input_type = input_value.type
        if not isinstance(input_type, TensorType):
            return
        iterators = _iterators(op)
        reduction_dims = [i for i, kind in enumerate(iterators) if kind == "reduction"]
        output_type = op.outputs[0].type
        vector = flattened_vector_type(self.model, output_type, op)
        builder = Builder.before(op, rewriter)
        acc = _vector_constant(op, self.model, op.outputs[0], builder)
        if acc.type != vector:
            zero = _zero_attr(vector)
            acc = builder.value(arith.ConstantOp(zero, vector))
        read = input_value.owner
        if not isinstance(read, ReadFromFifoOp):
            raise error(op, "reduction linalg.generic input must be produced by ktdf.read_from_fifo")
        shape = input_type.get_shape()
        parallel_shape = [shape[i] for i, kind in enumerate(iterators) if kind != "reduction"]
        parallel_type = TensorType(input_type.element_type, parallel_shape)
        loops: list[scf.ForOp] = []
        current = acc
        for dim in reduction_dims:
            lower = builder.constant(0)
            upper = builder.constant(shape[dim])
            step = builder.constant(1)
            body = Block(arg_types=[lower.type, vector])
            loop = builder.insert(scf.ForOp(lower, upper, step, [current], Region(body)))
            assert isinstance(loop, scf.ForOp)
            loops.append(loop)
            builder = Builder(InsertPoint.at_end(body), rewriter, op.location)
            current = body.args[1]
        slice_read = builder.value(ReadFromFifoOp(read.fifo_slot, parallel_type))
        result = binary(builder, vector, current, slice_read, operator)
        for loop in reversed(loops):
            Builder(InsertPoint.at_end(loop.body.block), rewriter, op.location).insert(scf.YieldOp(result))
            result = loop.results[0]
        rewriter.replace(op, [], [result])
        rewriter.erase(read)


def broadcast_input(builder: Builder, model, op: Operation, index: int, value: SSAValue,
                    vector: VectorType) -> SSAValue:
    """Input `index` of a buffer generic as the output's flattened vector.

    An input indexed like the output is used as it is. Otherwise (one step of a contraction:
    a column of A and a row of B, each spread over the output tile) a `vectorchain.shuffle`
    gathers, for every output element, the input element its indexing map names; a pattern
    that repeats is written once with a repetition count. Reduction dims must have extent 1
    here (`reduction-loop-exposure` made each step explicit).
    """
    maps = [m.data for m in op.indexing_maps.data]
    shapes = [list(v.type.get_shape()) for v in (*op.inputs, *op.outputs)]
    if maps[index] == maps[-1] and shapes[index] == shapes[-1]:
        return value
    extents = [1] * maps[-1].num_dims
    for amap, shape in zip(maps, shapes):
        for result, size in zip(amap.results, shape):
            if isinstance(result, AffineDimExpr):
                extents[result.position] = size
    if any(extents[d] != 1 for d, kind in enumerate(_iterators(op)) if kind == "reduction"):
        raise error(op, "a contraction reaches the vector unit with an unexposed reduction dim "
                        "(run reduction-loop-exposure first)")
    out_shape, in_shape = shapes[-1], shapes[index]
    point = [0] * len(extents)
    indices: list[int] = []
    for flat in range(vector.element_count()):
        rest = flat
        for position in reversed(range(len(out_shape))):
            rest, point[maps[-1].results[position].position] = divmod(rest, out_shape[position])  # type: ignore[attr-defined]
        coords = [point[r.position] if isinstance(r, AffineDimExpr) else 0 for r in maps[index].results]
        linear = 0
        for coord, size in zip(coords, in_shape):
            linear = linear * size + coord
        indices.append(linear)
    if indices == list(range(len(indices))) and vector.element_count() == _element_count(in_shape):
        return value
    period = next(p for p in range(1, len(indices) + 1)
                  if len(indices) % p == 0 and indices == indices[:p] * (len(indices) // p))
    if isinstance(value.type, MemRefType) and not isinstance(value.owner, ReadFromFifoOp):  # a FIFO read becomes a vector
        value = emit_vector_load(builder, flattened_vector_type(model, value.type, op), value)
    spread = VectorType(value.type.element_type, [vector.element_count()])  # the input's type (a body extf widens it)
    return builder.value(ShuffleOp(value, indices[:period], len(indices) // period, spread))


def _element_count(shape: list[int]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


def _zero_attr(vector: VectorType):
    from xdsl.dialects.builtin import IndexType, IntegerType

    if isinstance(vector.element_type, IntegerType | IndexType):
        return DenseIntOrFPElementsAttr.from_list(vector, [0] * vector.element_count())
    return DenseIntOrFPElementsAttr.from_list(vector, [0.0] * vector.element_count())


def _scalar_bits(value: Attribute, element_type: Attribute, at: Operation) -> int:
    """The bit pattern of a scalar constant in `element_type` (a fill's value: 0, -inf, 1.0, ...)."""
    from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IndexType, IntegerType

    if isinstance(value, IntegerAttr) and isinstance(element_type, IntegerType | IndexType):
        width = element_type.width.data if isinstance(element_type, IntegerType) else 64
        return value.value.data & ((1 << width) - 1)
    if isinstance(value, FloatAttr):
        if isinstance(element_type, Float16Type | Float32Type | Float64Type | BFloat16Type):
            return float_bits(float(value.value.data), element_type)
    raise error(at, f"linalg.fill of a {value} cannot fill a vector of {element_type}")


class LowerLinalgFill(RewritePattern):
    def __init__(self, model, blocks: set[Operation] = frozenset()):
        self.model, self.blocks = model, blocks

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "linalg.fill" or len(op.inputs) != 1:
            return
        const = op.inputs[0].owner
        if not isinstance(const, arith.ConstantOp):
            return
        out = op.outputs[0]
        vector = flattened_vector_type(self.model, out.type, op, op in self.blocks)
        bits = _scalar_bits(const.value, vector.element_type, op)
        builder = Builder.before(op, rewriter)
        seed = builder.value(ConstantBitstreamOp([bits], VectorType(vector.element_type, [1])))
        splat = builder.value(ShuffleOp(seed, [0], vector.element_count(), vector))
        if op.results:
            rewriter.replace(op, [], [splat])
            return
        emit_vector_store(builder, splat, out)
        rewriter.erase(op)


# ---------------------------------------------------------------------------
# ktdf.tiling.derive_size
# ---------------------------------------------------------------------------


class LowerDeriveSize(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, TilingDeriveSizeOp) or len(op.ivs) != 1:
            return
        iv, tile_size, total = op.ivs[0], op.tile_sizes[0], op.total_size
        owner = iv.owner
        if not isinstance(owner, Block):
            raise error(op, "IV must be a block argument")
        loop = owner.parent_op()
        if not isinstance(loop, scf.ForOp):
            raise error(op, "IV must be from an scf.for loop")
        tile, size = constant_int(tile_size), constant_int(total)
        if tile is None or size is None:
            raise error(op, "tile_size and total_size must be constants")
        if tile == 0:
            raise error(op, "tile_size must not be zero")
        epilogue = size % tile
        if epilogue == 0:
            rewriter.replace(op, [], [tile_size])
            return
        builder = Builder.before(op, rewriter)
        one = builder.constant(1)
        last = builder.value(arith.SubiOp(loop.ub, one))
        not_last = builder.value(arith.CmpiOp(iv, last, "slt"))
        remainder = builder.constant(epilogue)
        selected = builder.value(arith.SelectOp(not_last, tile_size, remainder))
        rewriter.replace(op, [], [selected])


__all__ = [
    "LowerReadFromFifo",
    "LowerWriteToFifo",
    "LowerCopyFromFifo",
    "LowerLinalgGeneric",
    "LowerLinalgFill",
    "LowerDeriveSize",
]
