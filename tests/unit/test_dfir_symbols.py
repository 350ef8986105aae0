"""Symbolic start addresses: a displacement is evaluated at every unit of a grid at once."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.passes.lowering import dfir_symbols


def _queried_offset(units: int):
    """`(query of unit -> 10 * unit) * 2 + 3` over a block whose arguments stand for the units."""
    block = Block(arg_types=[IndexType()] * (units + 1))
    keys, key = list(block.args[:units]), block.args[units]
    constants = [arith.ConstantOp.from_int_and_width(10 * u, IndexType()) for u in range(units)]
    mapping = DefImmutableMappingOp(keys, [c.result for c in constants])
    query = QueryMapOp(mapping.result, key, IndexType())
    two, three = (arith.ConstantOp.from_int_and_width(n, IndexType()) for n in (2, 3))
    scaled = arith.MuliOp(query.result, two.result)
    offset = arith.AddiOp(scaled.result, three.result)
    block.add_ops([*constants, mapping, query, two, three, scaled, offset])
    return offset.result, keys


def test_displacement_is_evaluated_per_unit():
    offset, units = _queried_offset(5)
    assert dfir_symbols.evaluate_at_units(offset, units) == [20 * u + 3 for u in range(5)]


def test_each_per_unit_table_is_read_once_for_the_whole_grid(monkeypatch):
    # Read once per unit, a 65,536-tile grid made this quadratic (issue 19, grid scaling).
    reads = []
    real = dfir_symbols.per_unit_constants
    monkeypatch.setattr(dfir_symbols, "per_unit_constants", lambda v: reads.append(v) or real(v))
    offset, units = _queried_offset(64)
    assert dfir_symbols.evaluate_at_units(offset, units)[63] == 20 * 63 + 3
    assert len(reads) == len(set(reads)) <= 3
