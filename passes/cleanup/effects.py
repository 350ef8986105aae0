"""MLIR's side-effect queries (`SideEffectInterfaces.cpp`) over xDSL's effect traits.

The cleanup passes decide "dead", "pure" and "hoistable" the way MLIR does, which differs from
xDSL's helpers in a few places this module makes explicit:

* `memref.alloc` declares an allocation with no value in xDSL; MLIR's allocation is on the op's
  own result, so an unused alloc is trivially dead (`would_be_trivially_dead`).
* xDSL's `affine.min` carries no traits at all; in MLIR it is `Pure` (`PURE_BY_NAME`).
* xDSL's linalg ops carry no traits; in MLIR a linalg op only has effects on its memref operands,
  so one working on tensors alone is effect free.
* An unregistered op has unknown effects (it is never dead, never pure).

`would_be_trivially_dead(op)` is MLIR's `wouldOpBeTriviallyDead`, `is_trivially_dead(op)` its
`isOpTriviallyDead`, `is_memory_effect_free(op)` its `isMemoryEffectFree`, `is_speculatable(op)`
its `isSpeculatable` and `is_pure(op)` their conjunction.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.traits import is_speculatable as _xdsl_is_speculatable

from dfsched.dialects.constants import constant_int

# Ops that are Pure in MLIR but carry no (or a partial) trait in xDSL 0.74.
PURE_BY_NAME = frozenset({"affine.min", "arith.remui"})

# MLIR's conditionally speculatable divisions: speculatable when the divisor is a constant other
# than 0 (unsigned) or other than 0 and -1 (signed). xDSL marks ceildivsi Pure and ceildivui never
# speculatable.
_DIVISIONS = {"arith.divui": (0,), "arith.ceildivui": (0,), "arith.divsi": (0, -1), "arith.ceildivsi": (0, -1)}


def _is_linalg(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name not in ("linalg.yield", "linalg.index")


def _linalg_on_tensors(op: Operation) -> bool:
    return _is_linalg(op) and not any(isinstance(v.type, MemRefType) for v in op.operands)


def _own_effects(op: Operation):
    """The effects `op` declares itself (not its nested ops); None when unknown or undeclared.

    Returns (declared, effects): `declared` is False when the op has no effect trait of its own.
    """
    if op.name in PURE_BY_NAME or _linalg_on_tensors(op):
        return True, set()
    traits = [t for t in op.get_traits_of_type(MemoryEffect) if not isinstance(t, RecursiveMemoryEffect)]
    if not traits:
        return False, None
    effects = set()
    for trait in traits:
        found = trait.get_effects(op)
        if found is None:
            return True, None
        effects.update(found)
    return True, effects


def _has_recursive_effects(op: Operation) -> bool:
    return bool(op.get_traits_of_type(RecursiveMemoryEffect))


def _nested_ops(op: Operation):
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


# Effect traits whose effects do not depend on the op instance.
_FIXED_EFFECTS = (NoMemoryEffect, MemoryReadEffect, MemoryWriteEffect, MemoryFreeEffect)
# Op class -> `would_be_trivially_dead` of its region-free instances, for classes whose answer
# depends on the class alone (cleanup asks it for every op of every sweep).
_DEAD_BY_CLASS: dict[type[Operation], bool] = {}


def _answer_is_per_class(op: Operation) -> bool:
    return not op.regions and not isinstance(op, UnregisteredOp) and not _is_linalg(op) and all(
        isinstance(t, _FIXED_EFFECTS) for t in op.get_traits_of_type(MemoryEffect))


def would_be_trivially_dead(op: Operation) -> bool:
    """True when `op` could be erased as soon as its results are unused."""
    cached = _DEAD_BY_CLASS.get(type(op))
    if cached is not None and not op.regions:
        return cached
    answer = _would_be_trivially_dead(op)
    if _answer_is_per_class(op):
        _DEAD_BY_CLASS[type(op)] = answer
    return answer


def _would_be_trivially_dead(op: Operation) -> bool:
    if isinstance(op, UnregisteredOp):
        return False
    if op.has_trait(IsTerminator, value_if_unregistered=True):
        return False
    if op.has_trait(SymbolOpInterface, value_if_unregistered=True) or op.name == "builtin.module":
        return False
    stack = [op]
    while stack:
        current = stack.pop()
        if isinstance(current, UnregisteredOp):
            return False
        recursive = _has_recursive_effects(current)
        if recursive:
            stack.extend(_nested_ops(current))
        declared, effects = _own_effects(current)
        if declared:
            if effects is None:
                return False
            for effect in effects:
                if effect.kind == MemoryEffectKind.READ:
                    continue
                if effect.kind == MemoryEffectKind.ALLOC and (
                    (effect.value is None and current.results) or effect.value in current.results
                ):
                    continue
                return False
            continue
        if recursive:
            continue
        return False
    return True


def is_trivially_dead(op: Operation) -> bool:
    # `first_use`, not `uses`: the greedy driver asks this of every op it pops.
    return all(r.first_use is None for r in op.results) and would_be_trivially_dead(op)


def is_memory_effect_free(op: Operation) -> bool:
    """No effect at all, nested ops included (an allocation is an effect here)."""
    if isinstance(op, UnregisteredOp):
        return False
    declared, effects = _own_effects(op)
    recursive = _has_recursive_effects(op)
    if declared:
        if effects is None or effects:
            return False
        if not recursive:
            return True
    elif not recursive:
        return False
    return all(is_memory_effect_free(inner) for inner in _nested_ops(op))


def is_speculatable(op: Operation) -> bool:
    if isinstance(op, UnregisteredOp):
        return False
    if op.name in PURE_BY_NAME:
        return True
    if op.name in _DIVISIONS:
        divisor = constant_int(op.operands[1])
        return divisor is not None and divisor not in _DIVISIONS[op.name]
    if _linalg_on_tensors(op):
        return True
    return _xdsl_is_speculatable(op)


def is_pure(op: Operation) -> bool:
    return is_memory_effect_free(op) and is_speculatable(op)
