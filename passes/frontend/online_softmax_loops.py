"""Online-softmax loops folded into one softmax over their range (`fold-accumulation-loops`,
README Decision 88).

Triton's paged (and flash) attention walks the keys a chunk (a page) at a time and carries, per
query row, the running maximum `M`, the running sum of exponentials `L` and the output
accumulator `A`:

    %M', %L', %A' = scf.for %j = lb to ub step s iter_args(%M = -inf, %L = l0, %A = 0) {
      S = scores of chunk %j (from loads of chunk %j)     V = values of chunk %j
      m = max(M, reduce_max(S))                            P = exp(S - m)
      a = exp(M - m)                                       L' = L * a + reduce_add(P)
      A' = contraction(P, V) into A * a                    scf.yield m, L', A'
    }

With `M` starting at -inf the first rescale factor is exp(-inf - m) = 0 and every later one
brings the earlier chunks to the new maximum, so after the loop `M` is the maximum over the whole
range, `L` the sum of exp(S_all - M) and `A` the contraction of exp(S_all - M) with V_all. The
fold computes that directly: the chunk computations of S and V are rebuilt on the whole range
(streamed tiles grown along the dimension the loop steps, as Decision 44 grows them; an indirect
tile grows the variable its page index adds to the loop variable), then one max reduction, one
exp, one sum and one contraction from zero. The results differ from the loop's by rounding only
(one rescale instead of one per chunk; a row whose first chunk is all -inf is NaN in the loop and
finite here).

A loop whose next value of a carried tensor is `max(carried, reduce_max(S))` is taken as an
online softmax; from then on what does not fit is a located error on the loop naming the
construct. Conditions: constant bounds, a step dividing the range; exactly three carried
values, as above (the bodies of `m`, `a`, `P`, `L'` and the rescale are `linalg.generic`s of
those single ops); `M` starts at -inf, `L` at a finite splat, `A` at zero; S and V are computed
in the loop from loads of streamed tiles by element-wise `arith`/`math` ops, linalg ops
stepping along one parallel dimension (a body reads the loop variable only in the chunk position
`j * c + linalg.index d` along that dimension, which the grown op reads as `linalg.index d`:
a causal mask; Decision 95), their
loop-invariant operands the same along it (splats, fills, empties, broadcasts), and
`tensor.collapse_shape`s whose stepped dimension is the outermost of its group not 1 long
(a page `[1, 16, 1, 128]` into token rows `[16, 128]`); P and V step
along the contraction's reduction dimension; nothing else in the loop depends on the loop
variable or has an effect. Reads no architecture facts.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import AffineSetAttr, DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from dfsched.compat import op_name
from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_attr, constant_int
from dfsched.passes.frontend.chunk_growth import (
    REFUSED,
    LoopDependence,
    accumulator_init,
    grown,
    grown_invariant,
    grown_tile,
    inserter_before,
    is_offset_of_iv,
    refuse_effect,
    streamed_position,
    uniform_along,
    zero_or_empty,
)
from dfsched.passes.frontend.indirect_access import box_extents
from dfsched.passes.frontend.linalg_generalize import (
    generic_form,
    is_elementwise_on_tensors,
    is_linalg_compute,
    maps_and_iterators,
)
from dfsched.passes.frontend.utils import box_set

MAXIMA = frozenset({"arith.maximumf", "arith.maxnumf"})


def refuse_online(loop: Operation, why: str):
    return error(loop, f"{REFUSED} unless they accumulate sums of loaded chunks or carry an online softmax; "
                       f"this loop carries an online softmax (a running maximum) but {why}")


# ---------------------------------------------------------------------------
# Growing the chunk computations to the whole range
# ---------------------------------------------------------------------------


@dataclass
class RangeGrowth:
    """The chunk computations of `loop` checked to grow to its whole range: each chunk value's
    grown dimension (`positions`), the loads (`loads`: what the legality check sizes) and the
    tiles they read. `replaced` values count as loop-invariant (the fold defines them before)."""

    loop: scf.ForOp
    deps: LoopDependence
    step: int
    trips: int
    replaced: set[SSAValue] = field(default_factory=set)
    positions: dict[SSAValue, int] = field(default_factory=dict)
    loads: dict[Operation, int] = field(default_factory=dict)
    tiles: dict[Operation, int] = field(default_factory=dict)
    grown_ops: set[Operation] = field(default_factory=set)
    position_reads: set[Operation] = field(default_factory=set)  # linalg ops reading `j * c + linalg.index`

    def refuse(self, why: str):
        return refuse_online(self.loop, why)

    @property
    def total(self) -> int:
        """The range's length: what a streamed tile's `step` long dimension grows to."""
        return self.step * self.trips

    def grown_type(self, shaped, position: int):
        """`shaped` (a chunk value's type) with dimension `position` one chunk per iteration."""
        return grown(shaped, position, shaped.get_shape()[position] * self.trips)

    def position_of(self, value: SSAValue) -> int | None:
        """The dimension chunk value `value` grows along (None: the same in every iteration)."""
        if value in self.replaced or not self.deps.depends(value):
            return None
        if value in self.positions:
            return self.positions[value]
        owner = value.owner if isinstance(value, OpResult) else None
        if owner is None or owner.parent_block() is not self.loop.body.block:
            raise self.refuse("a chunk of the scores or values is a loop-carried value")
        if isinstance(owner, ktdp.LoadOp):
            position = self._load(owner)
        elif is_elementwise_on_tensors(owner):
            position = self._elementwise(owner)
        elif is_linalg_compute(owner) and len(owner.results) == 1 and owner.regions:
            position = self._linalg(owner)
        elif isinstance(owner, tensor.CollapseShapeOp):
            position = self._collapse(owner)
        elif op_name(owner) == "tensor.expand_shape":
            raise self.refuse(f"'{op_name(owner)}' reshapes a chunk of the scores or values: the fold grows each "
                              f"chunk along one of its dimensions; keep the page a tensor dimension of its own "
                              f"(as examples/paged_attention_decode.mlir does)")
        else:
            raise self.refuse(f"'{op_name(owner)}' computes a chunk of the scores or values and does not grow "
                              f"with the range (loads of streamed tiles, element-wise arith/math ops and linalg "
                              f"ops stepping along a parallel dimension do)")
        self.positions[value] = position
        self.grown_ops.add(owner)
        return position

    def _load(self, load: Operation) -> int:
        tile = load.operands[0].owner
        if isinstance(tile, ktdp.ConstructIndirectAccessTileOp) and tile.parent_block() is self.loop.body.block:
            position = self._indirect(tile)
        elif isinstance(tile, ktdp.ConstructAccessTileOp) and tile.parent_block() is self.loop.body.block:
            position = streamed_position(self.loop, self.deps, None, tile, self.step)
        else:
            raise self.refuse("a chunk is loaded through an access tile not built in the loop")
        self.tiles[tile] = position
        self.loads[load] = position
        return position

    def _indirect(self, tile: ktdp.ConstructIndirectAccessTileOp) -> int:
        """The variable of `tile` that the loop steps: its one moving captured value `c` (the loop
        variable plus an invariant offset) appears once, as `c + v` with `v` a variable `step`
        long used nowhere else (`ind(%table[%j + %p])`: page %j)."""
        fixed = [tile.base, *tile.indirect_memrefs, *tile.symbol_operands]
        if any(self.deps.depends(v) for v in fixed):
            raise self.refuse("an indirect access tile's view or index views change with the loop")
        captured = list(tile.captured_variables)
        moving = [k for k, v in enumerate(captured) if self.deps.depends(v)]
        if len(moving) != 1 or not is_offset_of_iv(captured[moving[0]], self.deps):
            raise self.refuse("an indirect access tile must capture exactly one value that changes with the "
                              "loop, the loop variable plus a loop-invariant offset")
        order, space = tile.variables_space_order, tile.variables_space_set
        if order is None or space is None or order.data != AffineMap.identity(order.data.num_dims):
            raise self.refuse("an indirect access tile in the loop must enumerate a variables space in order")
        extents = box_extents(space.data, tile, "variables_space_set")  # type: ignore[union-attr]
        k, n = moving[0], len(captured)
        rows = []
        for amap in tile.per_dim_subscript_maps.data:
            for expr in amap.data.results:  # type: ignore[union-attr]
                rows.append(ktdp.linear_form(expr, amap.data.num_dims, 0))  # type: ignore[union-attr]
        with_k = [r for r in rows if r is None or r[k]]
        paired = [v for v in range(len(extents)) if with_k and with_k[0] is not None and with_k[0][n + v]]
        if len(with_k) != 1 or with_k[0] is None or with_k[0][k] != 1 or len(paired) != 1 \
                or with_k[0][n + paired[0]] != 1:
            raise self.refuse("the value an indirect access tile captures from the loop must appear in one "
                              "subscript, as that value plus one variable")
        variable = paired[0]
        if sum(1 for r in rows if r is None or r[n + variable]) != 1:
            raise self.refuse(f"variable {variable} of an indirect access tile, which the loop steps, is used in "
                              f"more than one subscript")
        if extents[variable] != self.step:
            raise self.refuse(f"an indirect access tile is {extents[variable]} long along the loop's dimension but "
                              f"the loop steps by {self.step}: the chunks must tile the range exactly")
        return variable

    def _collapse(self, op: tensor.CollapseShapeOp) -> int:
        """A collapse keeps the chunks in order when the stepped dimension is the outermost of
        its group that is not 1 long (a page `[1, 16, 1, 128]` into `[16, 128]`: chunk j is
        rows 16j to 16j + 15 of the grown result)."""
        position = self.position_of(op.src)
        shape = op.src.type.get_shape()
        for group, dims in enumerate(op.reassociation):
            dims = [d.value.data for d in dims.data]
            if position in dims:
                if any(shape[d] != 1 for d in dims[:dims.index(position)]):
                    raise self.refuse(f"'{op_name(op)}' merges the dimension the loop steps under a longer one: "
                                      f"the chunks would interleave; keep the page a tensor dimension of its own")
                return group
        raise self.refuse(f"'{op_name(op)}' has no group for the dimension the loop steps")

    def _elementwise(self, op: Operation) -> int:
        # `is_elementwise_on_tensors`: every operand is a tensor of the result's shape
        positions = {p for v in op.operands for p in [self.position_of(v)] if p is not None}
        if len(positions) != 1:
            raise self.refuse(f"the operands of '{op_name(op)}' step along different dimensions")
        position = positions.pop()
        for value in op.operands:
            if self.position_of(value) is None and not self._uniform(value, position):
                raise self.refuse(f"an operand of '{op_name(op)}' is the same in every iteration but not a splat, "
                                  f"fill or broadcast along the dimension the loop steps")
        return position

    def _linalg(self, op: Operation) -> int:
        # a one-result linalg op computes on tensors (the verifier refuses tensor and buffer
        # operands mixed), so it has a generic form
        maps, iterators = maps_and_iterators(op)  # type: ignore[misc]
        inputs, init = op.operands[:-1], op.operands[-1]
        stepped: set[int] = set()
        for value, amap in zip(inputs, maps):
            position = self.position_of(value)
            if position is not None:
                result = amap.results[position]
                if not isinstance(result, AffineDimExpr):
                    raise self.refuse(f"'{op_name(op)}' reads a chunk through a map that is not a dimension")
                stepped.add(result.position)
        if len(stepped) != 1:
            raise self.refuse(f"the chunk inputs of '{op_name(op)}' step along different dimensions")
        dim = stepped.pop()
        if iterators[dim] != "parallel":
            raise self.refuse(f"'{op_name(op)}' reduces along the dimension the loop steps")
        for value, amap in zip(inputs, maps):
            if self.position_of(value) is None and any(AffineDimExpr(dim) in r.dfs() for r in amap.results):
                raise self.refuse(f"an input of '{op_name(op)}' is the same in every iteration but indexed by "
                                  f"the dimension the loop steps")
        out = [i for i, r in enumerate(maps[-1].results) if r == AffineDimExpr(dim)]
        if not out or self.deps.depends(init):
            raise self.refuse(f"the result of '{op_name(op)}' does not step with the loop from an init that is "
                              f"the same in every iteration")
        self._check_body(op, dim, op.results[0].type.get_shape()[out[0]])
        if not self._uniform(init, out[0]):
            raise self.refuse(f"the init of '{op_name(op)}' is not a splat, fill or tensor.empty")
        return out[0]

    def _check_body(self, op: Operation, dim: int, length: int) -> None:
        """The body reads the loop variable only in chunk positions `j * c + linalg.index dim`
        (`c * step` the chunk's `length` along `dim`, the dimension the loop steps): the grown op
        reads that position as its own `linalg.index dim` (Decision 95)."""
        iv = self.loop.body.block.args[0]
        reads = _position_reads(op, iv)
        if reads is None:
            raise self.refuse(f"the body of '{op_name(op)}' reads the loop variable other than in a chunk "
                              f"position `loop variable * c + linalg.index`")
        for _, _, index, c in reads:
            if index.dim.value.data != dim:
                raise self.refuse(f"'{op_name(op)}' adds the loop variable to linalg.index {index.dim.value.data}, "
                                  f"not to the dimension the loop steps ({dim})")
            if c * self.step != length:
                raise self.refuse(f"'{op_name(op)}' reads position `loop variable * {c} + linalg.index {dim}` but "
                                  f"a chunk is {length} long there and the loop steps by {self.step}")
        sums = {addi for addi, _, _, _ in reads}
        products = {muli for _, muli, _, _ in reads}
        for inner in op.regions[0].walk():
            if op_name(inner) == "linalg.index" and inner.dim.value.data == dim and \
                    any(u.operation not in sums for u in inner.results[0].uses):
                raise self.refuse(f"'{op_name(op)}' reads its position along the dimension the loop steps with "
                                  f"linalg.index {dim} alone, not as `loop variable * c + linalg.index {dim}`")
            if inner in products:
                continue
            if any(self.deps.depends(v) for v in inner.operands if not op.is_ancestor(_defining(v))):
                raise self.refuse(f"the body of '{op_name(op)}' reads a value that changes with the loop")
        if reads:
            self.position_reads.add(op)

    def _uniform(self, value: SSAValue, position: int) -> bool:
        owner = value.owner if isinstance(value, OpResult) else None
        if isinstance(owner, tensor.EmptyOp | FillOp | tensor.SplatOp) and \
                not any(self.deps.depends(v) for v in owner.operands):
            return True
        return uniform_along(self.loop, value, position)

    # -- rewriting -------------------------------------------------------------------------

    def rebuild(self, op: Operation, mapping: dict[SSAValue, SSAValue], insert) -> Operation:
        """`op` of the loop body before the loop, on the whole range when it grows."""
        if op in self.tiles:
            if isinstance(op, ktdp.ConstructAccessTileOp):
                return grown_tile(op, self.tiles[op], self.total, mapping)
            return self._grown_indirect(op, mapping)
        if op not in self.grown_ops:
            return op.clone(value_mapper=mapping)
        position = self.positions[op.results[0]]
        result_type = self.grown_type(op.results[0].type, position)
        if isinstance(op, ktdp.LoadOp):
            return ktdp.LoadOp(mapping[op.operands[0]], result_type)
        if isinstance(op, tensor.CollapseShapeOp):
            return type(op).create(operands=[mapping[op.src]], result_types=[result_type],
                                   properties=dict(op.properties), attributes=dict(op.attributes))
        operands = [self._operand(v, position if is_elementwise_on_tensors(op) else None, mapping, insert)
                    for v in op.operands]
        if is_linalg_compute(op):
            operands[-1] = self._grown_uniform(op.operands[-1], position, mapping, insert)
            generic = op if op_name(op) == "linalg.generic" else generic_form(op, None)
            assert generic is not None
            new = type(generic).create(operands=operands, result_types=[result_type],
                                       properties=dict(generic.properties), attributes=dict(generic.attributes),
                                       regions=[_region_clone(r, mapping) for r in generic.regions])
            if generic is not op:
                generic.erase()
            if op in self.position_reads:
                iv = self.loop.body.block.args[0]
                _read_grown_positions(new, mapping.get(iv, iv), constant_int(self.loop.lb))
            return new
        return type(op).create(operands=operands, result_types=[result_type], properties=dict(op.properties),
                               attributes=dict(op.attributes))

    def _operand(self, value: SSAValue, position: int | None, mapping, insert) -> SSAValue:
        if value in mapping or position is None or self.position_of(value) is not None:
            return mapping.get(value, value)
        return self._grown_uniform(value, position, mapping, insert)

    def _grown_uniform(self, value: SSAValue, position: int, mapping, insert) -> SSAValue:
        owner = value.owner
        shaped = self.grown_type(value.type, position)
        if isinstance(owner, tensor.EmptyOp):
            return insert(tensor.EmptyOp([], shaped), owner).results[0]
        if isinstance(owner, FillOp):
            empty = insert(tensor.EmptyOp([], shaped), owner)
            scalar = mapping.get(owner.inputs[0], owner.inputs[0])
            return insert(FillOp([scalar], [empty.results[0]], [shaped]), owner).results[0]
        if isinstance(owner, tensor.SplatOp):
            return insert(tensor.SplatOp(mapping.get(owner.input, owner.input), [], shaped), owner).results[0]
        length = value.type.get_shape()[position] * self.trips
        return insert(grown_invariant(self.loop, value, position, length, insert), self.loop).results[0]

    def _grown_indirect(self, tile: ktdp.ConstructIndirectAccessTileOp, mapping) -> Operation:
        variable = self.tiles[tile]
        extents = box_extents(tile.variables_space_set.data, tile, "variables_space_set")  # type: ignore[union-attr]
        extents[variable] = self.total
        properties = dict(tile.properties)
        properties["variables_space_set"] = AffineSetAttr(box_set(extents))
        return type(tile).create(operands=[mapping.get(v, v) for v in tile.operands],
                                 result_types=[grown(tile.result.type, variable, self.total)],
                                 properties=properties, attributes=dict(tile.attributes),
                                 regions=[r.clone() for r in tile.regions])


def _region_clone(region: Region, mapping: dict[SSAValue, SSAValue]) -> Region:
    """`region` cloned reading the rebuilt values (a constant the loop body defined, the loop
    variable's first value) where it read the body's."""
    copy = Region()
    region.clone_into(copy, value_mapper=dict(mapping))
    return copy


def _position_reads(op: Operation, iv: SSAValue) -> list[tuple[Operation, Operation, Operation, int]] | None:
    """The chunk positions `iv * c + linalg.index d` of `op`'s body as (addi, muli, index, c);
    None when the body reads `iv` otherwise."""
    found = []
    for use in list(iv.uses):
        muli = use.operation
        if not op.is_ancestor(muli):
            continue
        if op_name(muli) != "arith.muli" or len(list(muli.results[0].uses)) != 1:
            return None
        other = muli.operands[1 - use.index]
        c = constant_int(other)
        addi = next(iter(muli.results[0].uses)).operation
        if c is None or c <= 0 or op_name(addi) != "arith.addi":
            return None
        index = _defining(addi.operands[1] if addi.operands[0] is muli.results[0] else addi.operands[0])
        if index is None or op_name(index) != "linalg.index":
            return None
        found.append((addi, muli, index, c))
    return found


def _read_grown_positions(op: Operation, iv: SSAValue, lb: int) -> None:
    """In the grown `op`, position `iv * c + linalg.index d` is `linalg.index d` (+ `lb * c`):
    the grown dimension enumerates every chunk from the loop's first."""
    for addi, muli, index, c in _position_reads(op, iv) or []:
        position = index.results[0]
        if lb:
            offset = arith.ConstantOp(IntegerAttr(lb * c, position.type))
            shifted = arith.AddiOp(position, offset.results[0])
            addi.parent_block().insert_ops_before([offset, shifted], addi)
            position = shifted.results[0]
        addi.results[0].replace_all_uses_with(position)
        addi.detach()
        addi.erase()
        muli.detach()
        muli.erase()


def _defining(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else value.block.parent_op()


# ---------------------------------------------------------------------------
# Recognising the online softmax
# ---------------------------------------------------------------------------


@dataclass
class OnlineSoftmaxFold:
    """An online-softmax loop and the ops its fold rebuilds (carried indices of M, L, A)."""

    loop: scf.ForOp
    growth: RangeGrowth
    indices: tuple[int, int, int]
    max_reduction: Operation
    sum_reduction: Operation
    contraction: Operation
    pattern: set[Operation]

    def apply(self) -> None:
        loop, growth = self.loop, self.growth
        insert = inserter_before(loop)
        iv = loop.body.block.args[0]
        start = insert(arith.ConstantOp(IntegerAttr(constant_int(loop.lb), iv.type)), loop)
        mapping: dict[SSAValue, SSAValue] = {iv: start.results[0]}
        m_new = loop.body.block.last_op.operands[self.indices[0]]
        a_init = accumulator_init(loop.iter_args[self.indices[2]], insert, loop)
        for op in list(loop.body.block.ops):
            if op is loop.body.block.last_op or (op in self.pattern and op not in
                                                  (self.max_reduction, self.sum_reduction, self.contraction)):
                continue
            if op is self.contraction:
                new = op.clone(value_mapper={**mapping, op.operands[-1]: a_init})
            else:
                new = growth.rebuild(op, mapping, insert) if op not in self.pattern else op.clone(value_mapper=mapping)
            insert(new, op)
            for old, fresh in zip(op.results, new.results):
                mapping[old] = fresh
            if op is self.max_reduction:
                mapping[m_new] = new.results[0]
        finals = (self.max_reduction, self.sum_reduction, self.contraction)
        for index, final in zip(self.indices, finals):
            loop.results[index].replace_all_uses_with(mapping[final.results[0]])
        loop.detach()
        loop.erase()


def plan_online_softmax(loop: scf.ForOp) -> OnlineSoftmaxFold | None:
    """How `loop` folds as an online softmax; None when it carries no running maximum; a
    located error on the loop when it does but does not fold."""
    body = loop.body.block
    carried, nexts = list(body.args[1:]), list(body.last_op.operands)
    found = _running_maximum(body, carried, nexts)
    if found is None:
        return None
    i_m, m_op, max_reduction = found
    if len(carried) != 3:
        raise refuse_online(loop, f"it carries {len(carried)} values, not three (maximum, sum, accumulator)")
    lb, ub, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None:
        raise refuse_online(loop, "its bounds and step are not constants (bind the kernel's scalars with --bind)")
    if step <= 0 or ub <= lb or (ub - lb) % step:
        raise refuse_online(loop, f"its step ({step}) does not divide its non-empty range [{lb}, {ub})")
    m_carried, m_new = carried[i_m], nexts[i_m]
    scores = max_reduction.operands[0]
    alpha_op = _single_user(loop, m_carried, exclude=m_op, what="the running maximum")
    if _exp_of_difference(alpha_op) != (m_carried, m_new):
        raise refuse_online(loop, "the running maximum is read other than by exp(old maximum - new maximum)")
    p_ops = [u.operation for u in m_new.uses if u.operation not in (alpha_op, body.last_op)]
    if len(p_ops) != 1 or _exp_of_difference(p_ops[0]) != (scores, m_new):
        raise refuse_online(loop, "the new maximum is read other than by exp(scores - new maximum) and the "
                                  "rescale factor")
    p_op = p_ops[0]
    rest = [i for i in range(3) if i != i_m]
    owners = {i: _owner_in(body, nexts[i]) for i in rest}
    i_a = next((i for i in rest if owners[i] is not None and _is_reduction(owners[i])), None)
    if i_a is None:
        raise refuse_online(loop, "no carried value is a contraction into the rescaled accumulator")
    i_l = rest[0] if rest[1] == i_a else rest[1]
    contraction, l_op = owners[i_a], owners[i_l]
    sum_reduction = _l_update(loop, l_op, carried[i_l], alpha_op)
    if _reduction_combiner(sum_reduction) != "arith.addf" or sum_reduction.operands[0] is not p_op.results[0]:
        raise refuse_online(loop, "the running sum does not add the sum reduction of exp(scores - new maximum)")
    if zero_or_empty(sum_reduction.operands[-1]) is not True:
        raise refuse_online(loop, "the sum of exponentials does not start from zero")
    scaled_op = _owner_in(body, contraction.operands[-1])
    if scaled_op is None or _binary(scaled_op, "arith.mulf") is None or \
            set(_binary(scaled_op, "arith.mulf")) != {carried[i_a], alpha_op.results[0]}:
        raise refuse_online(loop, "the accumulator is not contracted into itself times the rescale factor")
    values = [v for v in contraction.operands[:-1] if v is not p_op.results[0]]
    if len(values) != 1 or len(contraction.operands) != 3:
        raise refuse_online(loop, "the contraction does not read exp(scores - new maximum) and one other input")
    _check_inits(loop, (i_m, i_l, i_a))
    growth = RangeGrowth(loop, LoopDependence(loop), step, (ub - lb) // step, replaced={m_new})
    _check_reduces(growth, max_reduction, growth.position_of(scores))
    _check_reduces(growth, sum_reduction, growth.position_of(p_op.results[0]))
    _check_contraction(growth, contraction, p_op.results[0], values[0])
    pattern = {m_op, max_reduction, alpha_op, sum_reduction, l_op, scaled_op, contraction}
    _check_rest_of_body(growth, pattern)
    return OnlineSoftmaxFold(loop, growth, (i_m, i_l, i_a), max_reduction, sum_reduction, contraction, pattern)


def _running_maximum(body, carried, nexts):
    for index, (value, next_value) in enumerate(zip(carried, nexts)):
        op = _owner_in(body, next_value)
        pair = _binary(op, *MAXIMA) if op is not None else None
        if pair is None or value not in pair:
            continue
        other = pair[1] if pair[0] is value else pair[0]
        reduction = _owner_in(body, other)
        if reduction is not None and _is_reduction(reduction) and _reduction_combiner(reduction) in MAXIMA:
            return index, op, reduction
    return None


def _owner_in(body, value: SSAValue) -> Operation | None:
    owner = value.owner if isinstance(value, OpResult) else None
    return owner if owner is not None and owner.parent_block() is body else None


def _single_user(loop, value: SSAValue, exclude: Operation, what: str) -> Operation:
    users = [u.operation for u in value.uses if u.operation is not exclude]
    if len(users) != 1:
        raise refuse_online(loop, f"{what} is read by {len(users)} ops besides its update, not by one rescale")
    return users[0]


def _body_ops(op: Operation) -> list[Operation] | None:
    """The ops of an element-wise `linalg.generic`'s body before its yield (None otherwise)."""
    if op_name(op) != "linalg.generic" or len(op.results) != 1:
        return None
    maps_iterators = maps_and_iterators(op)
    if maps_iterators is None or any(it != "parallel" for it in maps_iterators[1]):
        return None
    ops = list(op.regions[0].blocks.first.ops)
    return ops[:-1]


def _binary(op: Operation, *names: str) -> tuple[SSAValue, SSAValue] | None:
    """The two inputs of a generic whose body is one `names` op of its two inputs."""
    ops = _body_ops(op)
    if ops is None or len(ops) != 1 or op_name(ops[0]) not in names or len(op.operands) != 3:
        return None
    args = op.regions[0].blocks.first.args
    yielded = op.regions[0].blocks.first.last_op.operands[0]
    if set(ops[0].operands) != {args[0], args[1]} or yielded is not ops[0].results[0]:
        return None
    return op.operands[0], op.operands[1]


def _exp_of_difference(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """(x, y) for a generic computing exp(x - y) of its two inputs."""
    ops = _body_ops(op)
    if ops is None or len(ops) != 2 or len(op.operands) != 3:
        return None
    sub, exp = ops
    args = op.regions[0].blocks.first.args
    if op_name(sub) != "arith.subf" or op_name(exp) != "math.exp" or exp.operands[0] is not sub.results[0]:
        return None
    order = {args[0]: op.operands[0], args[1]: op.operands[1]}
    if sub.operands[0] not in order or sub.operands[1] not in order:
        return None
    return order[sub.operands[0]], order[sub.operands[1]]


def _l_update(loop, l_op: Operation | None, l_carried: SSAValue, alpha_op: Operation) -> Operation:
    """The sum reduction in `L * a + l` (a generic of those two ops); raises if it is not that."""
    ops = _body_ops(l_op) if l_op is not None else None
    why = "the running sum's next value is not L * rescale factor + the sum of exponentials"
    if ops is None or len(ops) != 2 or len(l_op.operands) != 4:
        raise refuse_online(loop, why)
    mul, add = ops
    args = list(l_op.regions[0].blocks.first.args)
    inputs = dict(zip(args, l_op.operands))
    if op_name(mul) != "arith.mulf" or op_name(add) != "arith.addf" or mul.results[0] not in add.operands:
        raise refuse_online(loop, why)
    added = add.operands[1] if add.operands[0] is mul.results[0] else add.operands[0]
    if {inputs.get(v) for v in mul.operands} != {l_carried, alpha_op.results[0]} or added not in inputs:
        raise refuse_online(loop, why)
    reduction = _owner_in(loop.body.block, inputs[added])
    if reduction is None or not _is_reduction(reduction):
        raise refuse_online(loop, why)
    return reduction


def _is_reduction(op: Operation) -> bool:
    if not is_linalg_compute(op) or len(op.results) != 1 or not op.regions:
        return False
    found = maps_and_iterators(op)
    return found is not None and "reduction" in found[1]


def _reduction_combiner(op: Operation) -> str | None:
    """The op a single-combiner reduction folds with (`linalg.reduce { arith.maximumf }`)."""
    ops = list(op.regions[0].blocks.first.ops)
    return op_name(ops[0]) if len(ops) == 2 else None


def _check_inits(loop: scf.ForOp, indices: tuple[int, int, int]) -> None:
    i_m, i_l, i_a = indices
    if _splat_float(loop.iter_args[i_m]) != -math.inf:
        raise refuse_online(loop, "the running maximum does not start at -inf")
    start = _splat_float(loop.iter_args[i_l])
    if start is None or not math.isfinite(start):
        raise refuse_online(loop, "the running sum does not start at a finite splat")
    if zero_or_empty(loop.iter_args[i_a]) is not True:
        raise refuse_online(loop, "the accumulator does not start at zero")


def _splat_float(value: SSAValue) -> float | None:
    """The float a splat constant, `linalg.fill` or `tensor.splat` holds (an i32 constant
    bitcast to f32 included: Triton's -inf)."""
    owner = value.owner if isinstance(value, OpResult) else None
    scalar = owner.inputs[0] if isinstance(owner, FillOp) else owner.input if isinstance(owner, tensor.SplatOp) \
        else value
    attr = constant_attr(scalar)
    if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
        return float(attr.get_values()[0])
    if isinstance(attr, FloatAttr):
        return attr.value.data
    cast = scalar.owner if isinstance(scalar, OpResult) else None
    if isinstance(cast, arith.BitcastOp) and isinstance(constant_attr(cast.input), IntegerAttr) \
            and getattr(cast.result.type, "bitwidth", None) == 32:
        bits = constant_attr(cast.input).value.data & 0xFFFFFFFF
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return None


def _check_reduces(growth: RangeGrowth, reduction: Operation, position: int | None) -> None:
    maps, iterators = maps_and_iterators(reduction)  # type: ignore[misc]  # `_is_reduction`: it has one
    result = maps[0].results[position] if position is not None else None
    if not isinstance(result, AffineDimExpr) or iterators[result.position] != "reduction":
        raise refuse_online(growth.loop, f"'{op_name(reduction)}' does not reduce along the dimension the loop steps")


def _check_contraction(growth: RangeGrowth, contraction: Operation, weights: SSAValue, values: SSAValue) -> None:
    maps, iterators = maps_and_iterators(contraction)  # type: ignore[misc]  # `_is_reduction`: it has one
    dims = set()
    for value, amap in zip(contraction.operands[:-1], maps):
        position = growth.position_of(value)
        result = amap.results[position] if position is not None else None
        if not isinstance(result, AffineDimExpr) or iterators[result.position] != "reduction":
            raise refuse_online(growth.loop, f"an input of '{op_name(contraction)}' does not step along a "
                                             f"dimension it reduces")
        dims.add(result.position)
    if len(dims) != 1:
        raise refuse_online(growth.loop, f"the inputs of '{op_name(contraction)}' step along different dimensions")


def _check_rest_of_body(growth: RangeGrowth, pattern: set[Operation]) -> None:
    """Everything else in the loop is loop-invariant, index arithmetic for the grown tiles, or
    grown; nothing has an effect."""
    body = growth.loop.body.block
    for op in body.ops:
        if op is body.last_op or op in pattern or op in growth.grown_ops or op in growth.tiles:
            continue
        refuse_effect(growth.loop, op, "loads and the softmax's computation")
        if any(growth.deps.depends(r) for r in op.results) and not _feeds_tiles(op, growth):
            raise refuse_online(growth.loop, f"'{op_name(op)}' in the loop depends on the loop variable and is "
                                             f"not part of the scores, the values or the softmax's updates")


def _feeds_tiles(op: Operation, growth: RangeGrowth) -> bool:
    users = [u.operation for r in op.results for u in r.uses]
    return all(u in growth.tiles or op_name(u) in ("arith.addi", "arith.index_cast", "arith.index_castui")
               and _feeds_tiles(u, growth) for u in users)
