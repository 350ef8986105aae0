"""Query-map arithmetic collapse (`docs/passes.md#ktdflowering-to-dfir`).

Integer arithmetic over per-unit constant lookups is folded into the lookup itself:

* rule A: `op(query(m, k), c)` (or `op(c, query(m, k))`) with every value of `m` constant becomes
  `query(m', k)` where `m'` holds `op(v, c)` (`op(c, v)`) for each value;
* rule B: `op(query(a, k), query(b, k))` over the same key, both mappings constant, becomes one
  query over the per-key results (keys of `a`; a key missing in `b` blocks the rule).

`op` is one of `arith.addi/subi/muli/divui/remui` (unsigned division/remainder by 0 give 0).
Run with MLIR's greedy driver (folding, dead-op removal, constant hoisting).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from dfsched.passes.builder import constants_once
from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.passes.cleanup.greedy import GreedyConfig, apply_patterns_greedily
from dfsched.passes.cleanup.patterns import fold, folder_patterns
from dfsched.dialects.constants import constant_int
from dfsched.passes.lowering.dfir_utils import INDEX, queried_mapping

_MASK = (1 << 64) - 1
_OPS = (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.RemUIOp)


def _signed(value: int) -> int:
    value &= _MASK
    return value - (1 << 64) if value >= 1 << 63 else value


def evaluate(op: Operation, lhs: int, rhs: int) -> int:
    if isinstance(op, arith.AddiOp):
        return _signed(lhs + rhs)
    if isinstance(op, arith.SubiOp):
        return _signed(lhs - rhs)
    if isinstance(op, arith.MuliOp):
        return _signed(lhs * rhs)
    if rhs == 0:
        return 0
    if isinstance(op, arith.DivUIOp):
        return _signed((lhs & _MASK) // (rhs & _MASK))
    return _signed((lhs & _MASK) % (rhs & _MASK))


def _constant_values(mapping: DefImmutableMappingOp) -> list[int] | None:
    out = []
    for value in mapping.values:
        constant = constant_int(value)
        if constant is None:
            return None
        out.append(constant)
    return out


def _folded_query(rewriter: PatternRewriter, op: Operation, keys, values: list[int], key: SSAValue) -> None:
    """`op` becomes a query of a new mapping whose values are new constants right before it
    (one per distinct value: `constants_once`; the next iteration uniques them).

    The constants go in without the driver hearing of them (a grid-wide mapping has one per
    core): visited, a used constant has no pattern and no fold, so the driver's worklist would
    only pop them; if the mapping dies, erasing it puts them on the worklist as usual. The next
    iteration's constant uniquing sees them as it would have."""
    constants, per_entry = constants_once(values)
    block = op.parent_block()
    assert block is not None
    block.insert_ops_before(constants, op)
    mapping = DefImmutableMappingOp(list(keys), per_entry)
    query = QueryMapOp(mapping.result, key, INDEX)
    rewriter.replace(op, [mapping, query], [query.result])


def _int_like(op: Operation) -> bool:
    return isinstance(op.results[0].type, IndexType | IntegerType)


class FoldConstantIntoQuery(RewritePattern):
    """Rule A."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, _OPS) or not _int_like(op):
            return
        lhs, rhs = op.operands
        found = queried_mapping(lhs)
        if found is not None:
            query_is_lhs, constant = True, constant_int(rhs)
        else:
            found = queried_mapping(rhs)
            if found is None:
                return
            query_is_lhs, constant = False, constant_int(lhs)
        if constant is None:
            return
        query, mapping = found
        values = _constant_values(mapping)
        if values is None:
            return
        folded = [evaluate(op, v, constant) if query_is_lhs else evaluate(op, constant, v) for v in values]
        _folded_query(rewriter, op, mapping.keys, folded, query.key)


class MergeQueriesSameKey(RewritePattern):
    """Rule B."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, _OPS) or not _int_like(op):
            return
        a, b = queried_mapping(op.operands[0]), queried_mapping(op.operands[1])
        if a is None or b is None or a[0].key is not b[0].key:
            return
        values_a = _constant_values(a[1])
        if values_a is None:
            return
        folded = []
        table_b = b[1].table()
        for key, value in zip(a[1].keys, values_a):
            other = table_b.get(key)
            if other is None:
                return
            constant = constant_int(other)
            if constant is None:
                return
            folded.append(evaluate(op, value, constant))
        _folded_query(rewriter, op, a[1].keys, folded, a[0].key)


_PATTERNS = (FoldConstantIntoQuery(), MergeQueriesSameKey())


_OP_TYPES = frozenset(_OPS)


def _patterns_for(op: Operation):
    if type(op) in _OP_TYPES:  # the greedy driver asks for every op: no isinstance against ABCs
        return _PATTERNS
    return folder_patterns(op)


def collapse_arith_over_query_maps(func: Operation) -> bool:
    return apply_patterns_greedily(func, _patterns_for, fold, GreedyConfig(top_down=False))
