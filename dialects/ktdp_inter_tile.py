"""The `ktdp` inter-tile ops: `inter_tile_produce` / `consume` / `reduce` and their yields, which
describe data exchanged between compute tiles (`docs/dialects.md#ktdp`), and the small integer-set
enumeration their verifiers need."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from xdsl.dialects.builtin import AffineSetAttr, IndexType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import (AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr,
                            AffineSet, AffineSymExpr)
from xdsl.irdl import (IRDLOperation, irdl_op_definition, lazy_traits_def, operand_def, opt_prop_def, prop_def,
                       region_def, result_def, traits_def, var_operand_def, var_result_def)
from xdsl.traits import (HasParent, IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike,
                         SingleBlockImplicitTerminator)
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.directives import Body, Delivered, OwnType, ProducedFuture
from dfsched.dialects.ktdp_spellings import delivering

from dfsched.dialects.ktdp_types import TileFutureType


# ===========================================================================
# Inter-tile communication
# ===========================================================================


def _check_ranked_tensor_operands(op: IRDLOperation, values: Sequence[SSAValue], first_index: int = 0) -> None:
    for i, v in enumerate(values):
        if not isinstance(v.type, TensorType):
            raise VerifyException(f"operand #{first_index + i} must be variadic of ranked tensor of any type "
                                  f"values, but got '{v.type}'")


class _YieldTensorsOp(IRDLOperation):
    """Syntax and checks shared by the yields of the inter-tile regions: `%v, ... : types`,
    every value a ranked tensor."""

    values = var_operand_def()

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def verify_(self) -> None:
        _check_ranked_tensor_operands(self, self.values)


@irdl_op_definition
class YieldPartialOp(_YieldTensorsOp):
    """`ktdp.yield_partial %p : tensor<...>`: a tile's contribution, one value per role."""

    name = "ktdp.yield_partial"

    traits = lazy_traits_def(lambda: (IsTerminator(), ReturnLike(), Pure(), HasParent(InterTileProduceOp)))


@irdl_op_definition
class YieldReducedOp(_YieldTensorsOp):
    """`ktdp.yield_reduced %s : tensor<...>`: the combination of two partials, per role."""

    name = "ktdp.yield_reduced"

    traits = lazy_traits_def(lambda: (IsTerminator(), ReturnLike(), Pure(), HasParent(InterTileReduceOp)))


# -- enumerating small integer sets (the disjointness check of inter_tile_produce) ----------


def linear_form(expr: AffineExpr, num_dims: int, num_symbols: int) -> list[int] | None:
    """Coefficients [dims..., symbols..., constant] of a linear `expr`, None otherwise."""
    row = [0] * (num_dims + num_symbols + 1)
    if isinstance(expr, AffineConstantExpr):
        row[-1] = expr.value
    elif isinstance(expr, AffineDimExpr | AffineSymExpr):
        row[expr.position + (num_dims if isinstance(expr, AffineSymExpr) else 0)] = 1
    if not isinstance(expr, AffineBinaryOpExpr):
        return row
    lhs = linear_form(expr.lhs, num_dims, num_symbols)
    rhs = linear_form(expr.rhs, num_dims, num_symbols)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        return [a + b for a, b in zip(lhs, rhs)]
    if expr.kind == AffineBinaryOpKind.Mul:
        if all(c == 0 for c in rhs[:-1]):
            return [a * rhs[-1] for a in lhs]
        if all(c == 0 for c in lhs[:-1]):
            return [b * lhs[-1] for b in rhs]
    return None


def set_contains(s: AffineSet, dims: Sequence[int], symbols: Sequence[int]) -> bool:
    for c in s.constraints:
        value = c.lhs.eval(dims, symbols) - c.rhs.eval(dims, symbols)
        kind = c.kind.value
        if (kind == ">=" and value < 0) or (kind == "<=" and value > 0) or (kind == "==" and value != 0):
            return False
    return True


def _bounds(s: AffineSet, dim: int, dims: Sequence[int], symbols: Sequence[int]) -> tuple[int | None, int | None]:
    """Constant bounds of `dim` implied by the linear constraints once every other dim and
    every symbol is fixed to the given values (non-linear constraints are skipped)."""
    lows: list[int] = []
    highs: list[int] = []
    for c in s.constraints:
        row = linear_form(c.lhs - c.rhs, s.num_dims, s.num_symbols)
        if row is None:
            continue
        if c.kind.value == "<=":
            row = [-x for x in row]
        a = row[dim]
        if a == 0:
            continue
        values = [*dims, *symbols]
        r = row[-1] + sum(row[j] * values[j] for j in range(len(values)) if j != dim)
        # now: a * x + r >= 0, or == 0
        if a > 0:
            lows.append(-(r // a))  # ceil(-r / a)
            if c.kind.value == "==":
                highs.append((-r) // a)
        else:
            highs.append(r // -a)  # floor(r / -a)
            if c.kind.value == "==":
                lows.append(-((-r) // -a))
    return max(lows, default=None), min(highs, default=None)


_ENUMERATION_LIMIT = 1 << 16


def group_values(groups: AffineSet) -> list[int] | None:
    """The group indices of a `(g)` set, or None when they are not statically bounded."""
    lo, hi = _bounds(groups, 0, [0], [])
    if lo is None or hi is None or hi - lo > _ENUMERATION_LIMIT:
        return None
    return [g for g in range(lo, hi + 1) if set_contains(groups, [g], [])]


def tiles_of(tiles: AffineSet, group: int) -> set[int] | None:
    """The tile ids a `(i)[g]` set selects for group `group` (ids are >= 0)."""
    _, hi = _bounds(tiles, 0, [0], [group])
    if hi is None or hi > _ENUMERATION_LIMIT:
        return None
    return {i for i in range(0, hi + 1) if set_contains(tiles, [i], [group])}


@irdl_op_definition
class InterTileProduceOp(IRDLOperation):
    """`%f = ktdp.inter_tile_produce producer_tiles_per_group = <set> -> <(T...), groups = <set>>
    { ^bb0(%gid: index): ... ktdp.yield_partial ... }`: what each producing tile
    contributes to an exchange between tiles; the result is consumed by one delivery op."""

    name = "ktdp.inter_tile_produce"

    producer_tiles_per_group = prop_def(AffineSetAttr)
    future = result_def(TileFutureType)
    body = region_def()

    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(YieldPartialOp), RecursiveMemoryEffect()))

    assembly_format = ("`producer_tiles_per_group` `=` $producer_tiles_per_group attr-dict "
                       "custom<ProducedFuture>(type($future)) custom<Body>($body)")
    custom_directives = (ProducedFuture, Body)

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None or len(self.body.blocks) != 1:
            raise VerifyException("region #0 ('body') failed to verify constraint: region with 1 blocks")
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerifyException("producer region must take a single `index` group-id argument")
        future = self.future.type
        assert isinstance(future, TileFutureType)
        groups = future.groups.data
        producers = self.producer_tiles_per_group.data
        if groups.num_symbols != 0:
            raise VerifyException("`groups` integer set must not have symbols")
        if groups.num_dims != 1:
            raise VerifyException("`groups` integer set must have a single dimension (g)")
        if producers.num_symbols != 1:
            raise VerifyException("`producer_tiles_per_group` must have exactly one symbol (the group index g)")
        values = group_values(groups)
        if values is not None:
            sets = [tiles_of(producers, g) for g in values]
            if all(s is not None for s in sets):
                for a, b in combinations(range(len(values)), 2):
                    if sets[a] & sets[b]:  # type: ignore[operator]
                        raise VerifyException(f"producer_tiles_per_group for groups {values[a]} and {values[b]} are "
                                              "not disjoint")
        partials = future.get_partial_types()
        terminator = block.last_op
        if not isinstance(terminator, YieldPartialOp):
            return  # the implicit-terminator trait reports it
        if len(terminator.values) != len(partials):
            raise VerifyException(f"yield_partial yields {len(terminator.values)} values but the future carries "
                                  f"{len(partials)} partial type(s)")
        for i, (value, partial) in enumerate(zip(terminator.values, partials)):
            if value.type != partial:
                raise VerifyException(f"yield_partial operand #{i} type {value.type} does not match future "
                                      f"partial type {partial}")


def _check_delivery_sets(op: IRDLOperation, check_dims: bool) -> None:
    consumers = op.properties["consumer_tiles_per_group"]
    assert isinstance(consumers, AffineSetAttr)
    if consumers.data.num_symbols != 1:
        raise VerifyException("`consumer_tiles_per_group` must have exactly one symbol (the group index g)")
    if check_dims and consumers.data.num_dims != 1:
        raise VerifyException("`consumer_tiles_per_group` must have exactly one dimension (the tile id i)")
    dependency = op.properties.get("producer_dependency_per_consumer")
    if check_dims and isinstance(dependency, AffineSetAttr):
        if dependency.data.num_symbols not in (1, 2):
            raise VerifyException("`producer_dependency_per_consumer` must have one symbol (c) or two symbols (c, g)")
        if dependency.data.num_dims != 1:
            raise VerifyException("`producer_dependency_per_consumer` must have exactly one dimension (the producer "
                                  "tile id p)")


def _check_results_match_future(op: IRDLOperation, future: SSAValue) -> tuple[Attribute, ...]:
    future_type = future.type
    assert isinstance(future_type, TileFutureType)
    partials = future_type.get_partial_types()
    for i, t in enumerate(op.result_types):
        if not isinstance(t, TensorType):
            raise VerifyException(f"result #{i} must be variadic of ranked tensor of any type values, but got '{t}'")
    if tuple(op.result_types) != tuple(partials):
        raise VerifyException("failed to verify that result types must match future partial types")
    return partials


_DELIVERY_HEAD = ("`(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group")
_DELIVERY_TYPES = "attr-dict `:` custom<OwnType>(type($future)) `->` custom<Delivered>(type($results_))"


@delivering
@irdl_op_definition
class InterTileConsumeOp(IRDLOperation):
    """`%r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = <set> : <future> -> T`:
    deliver each partial unchanged (broadcast or routing); each consumer has one source."""

    name = "ktdp.inter_tile_consume"

    future = operand_def(TileFutureType)
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    results_ = var_result_def()

    traits = traits_def(RecursiveMemoryEffect())

    assembly_format = (f"{_DELIVERY_HEAD} (`,` `producer_dependency_per_consumer` `=` "
                       f"$producer_dependency_per_consumer^)? {_DELIVERY_TYPES}")
    custom_directives = (OwnType, Delivered)

    def verify_(self) -> None:
        _check_results_match_future(self, self.future)
        _check_delivery_sets(self, check_dims=True)


@delivering
@irdl_op_definition
class InterTileReduceOp(IRDLOperation):
    """`%r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = <set>, identity(%id : T)
    : <future> -> T { ^bb0(%lhs: T, %rhs: T): ... ktdp.yield_reduced ... }`: combine every
    producer's partials with the region's combiner and deliver the result."""

    name = "ktdp.inter_tile_reduce"

    future = operand_def(TileFutureType)
    identity = var_operand_def()
    consumer_tiles_per_group = prop_def(AffineSetAttr)
    producer_dependency_per_consumer = opt_prop_def(AffineSetAttr)
    results_ = var_result_def()
    combiner = region_def()

    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(YieldReducedOp), RecursiveMemoryEffect()))

    assembly_format = (f"{_DELIVERY_HEAD} `,` (`producer_dependency_per_consumer` `=` "
                       "$producer_dependency_per_consumer^ `,`)? `identity` `(` ($identity^ `:` type($identity))? `)` "
                       f"{_DELIVERY_TYPES} custom<Body>($combiner)")
    custom_directives = (OwnType, Delivered, Body)

    def verify_(self) -> None:
        partials = _check_results_match_future(self, self.future)
        _check_ranked_tensor_operands(self, self.identity, first_index=1)
        if tuple(self.identity.types) != tuple(self.result_types):
            raise VerifyException("failed to verify that identity types must match result types")
        block = self.combiner.blocks.first
        if block is None or len(self.combiner.blocks) != 1:
            raise VerifyException("region #0 ('combiner') failed to verify constraint: region with 1 blocks")
        n = len(partials)
        if len(block.args) != 2 * n:
            raise VerifyException(f"reducer region must take 2*{n} arguments, got {len(block.args)}")
        for i, partial in enumerate(partials):
            if block.args[i].type != partial or block.args[n + i].type != partial:
                raise VerifyException(f"reducer region argument pair #{i} must both have partial type {partial}")
        _check_delivery_sets(self, check_dims=False)
        terminator = block.last_op
        if not isinstance(terminator, YieldReducedOp):
            return
        if len(terminator.values) != n:
            raise VerifyException(f"yield_reduced yields {len(terminator.values)} values but expected {n}")
        for i, (value, partial) in enumerate(zip(terminator.values, partials)):
            if value.type != partial:
                raise VerifyException(f"yield_reduced operand #{i} type {value.type} must match partial type {partial}")
