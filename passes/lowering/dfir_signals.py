"""Signal lowering (`docs/passes.md#ktdflowering-to-dfir`, last item).

A `ktdf_lowering.signal` left in a program unit says "the units of this kind and those peers
synchronise here". Each peer kind (a signal operand of another kind) gets a uniform map from the
program's own units to the matching peer unit, and the program emits a `dataflow.sync_send` to
every peer, then a `dataflow.sync_recv` from every peer.

Matching is by core; when both the program's units and a peer kind span several corelets, a
peer group that covers every corelet of the program is merged into one corelet-to-corelet map.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from dfsched.diagnostics import error
from dfsched.dialects.dataflow import SyncRecvOp, SyncSendOp
from dfsched.dialects.ktdf_lowering import SignalOp
from dfsched.dialects.constants import constant_int
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_utils import (
    corelet_of,
    required_program_unit,
    get_unit_of,
    iter_arg_of,
    kind_of,
    mapping_of,
    uniform_map_query,
    unit_cores,
)


def _current_operand(signal: SignalOp, pu) -> SSAValue:
    """The signal operand whose mapping's first unit is one of the program unit's units."""
    units = set(pu.units)
    for operand in signal.units:
        mapping = mapping_of(operand)
        if mapping is None:
            if operand.owner.__class__.__name__ != "QueryMapOp":
                raise error(signal, "signal operand must be a uniform.query_map result")
            raise error(signal, "query_map must reference a def_immutable_mapping")
        if not mapping.values:
            raise error(signal, "def_immutable_mapping must have at least one value")
        if mapping.values[0] in units:
            return operand
    raise error(signal, "signal must include at least one query_map whose first mapping result is in the "
                        "current program_unit")


def _by_core(builder: Builder, operand: SSAValue, pu, signal: SignalOp) -> SSAValue:
    """Upstream `buildSignalQueryMap`: [my unit -> the peer the original map gives my core]."""
    mapping = mapping_of(operand)
    if mapping is None:
        raise error(signal, "failed to build query map for signal operand")
    by_core: dict[int | None, SSAValue] = {}  # the first value per constant key
    for k, v in zip(mapping.keys, mapping.values):
        by_core.setdefault(constant_int(k), v)
    keys: list[SSAValue] = []
    values: list[SSAValue] = []
    failed = "failed to build query map for signal operand"
    for unit_value, core in unit_cores(pu, signal, failed, failed):
        match = by_core.get(core)
        if match is None:
            raise error(signal, "failed to build query map for signal operand")
        keys.append(unit_value)
        values.append(match)
    return uniform_map_query(builder, keys, values, iter_arg_of(pu, signal))


def _corelets(values) -> set[int]:
    out = set()
    for value in values:
        unit = get_unit_of(value)
        if unit is not None:
            out.add(corelet_of(unit))
    return out


class LowerSignal(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, SignalOp):
            return
        if len(op.units) < 2:
            raise error(op, "signal operation must have at least 2 unit operands")
        pu = required_program_unit(op)
        current = _current_operand(op, pu)
        current_kind = kind_of(current)
        if current_kind is None:
            raise error(op, "failed to determine unit resource type from query_map")
        peers: list[SSAValue] = []
        for operand in op.units:
            if operand is current:
                continue
            kind = kind_of(operand)
            if kind is None:
                raise error(op, "failed to determine unit resource type from query_map")
            if kind != current_kind:
                peers.append(operand)

        builder = Builder.before(op, rewriter)
        current_multi = len(_corelets(pu.units)) > 1
        per_kind: dict[str, set[int]] = {}
        for peer in peers:
            mapping = mapping_of(peer)
            if mapping is not None:
                per_kind.setdefault(kind_of(peer), set()).update(_corelets(mapping.values))
        peers_multi = any(len(c) > 1 for c in per_kind.values())

        targets: list[SSAValue] = []
        if current_multi and peers_multi:
            groups: dict[str, list[SSAValue]] = {}
            for peer in peers:
                groups.setdefault(kind_of(peer), []).append(peer)
            for group in groups.values():
                by_corelet: list[tuple[int, SSAValue]] = []
                for peer in group:
                    for value in mapping_of(peer).values:
                        unit = get_unit_of(value)
                        if unit is None:
                            raise error(op, "signal peer must map to dataflow.get_unit values")
                        by_corelet.append((corelet_of(unit), value))
                own = [corelet_of(get_unit_of(u)) for u in pu.units]
                if not all(any(c == cl for c, _ in by_corelet) for cl in own):
                    targets.extend(_by_core(builder, peer, pu, op) for peer in group)
                    continue
                keys = list(pu.units)
                values = [next(v for c, v in by_corelet if c == cl) for cl in own]
                targets.append(uniform_map_query(builder, keys, values, iter_arg_of(pu, op)))
        else:
            targets = [_by_core(builder, peer, pu, op) for peer in peers]

        for target in targets:
            builder.insert(SyncSendOp.build(operands=[target],
                                            properties={"wait_immediately_for_async_transfers": IntegerAttr.from_bool(True)}))
        for target in targets:
            builder.insert(SyncRecvOp.build(operands=[target]))
        rewriter.erase(op)


__all__ = ["LowerSignal"]
