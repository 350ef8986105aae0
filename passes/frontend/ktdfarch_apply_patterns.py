"""`ktdfarch-apply-patterns{groups=...}`: apply the device's own PDL rewrites (a checkpoint).

`docs/passes.md#ktdfarch-apply-patterns`, Decision 9. A device may carry
`ktdf_arch.patterns ["group", ...] { pdl.pattern ... }` blocks. For each function:

1. find its device: a `ktdf_arch.maps_to = @dev` on the way up wins, else the one device
   declared in an enclosing module (two candidates: none); an import declaration is
   resolved to its definition. With no device in the IR, `--device` supplies one; with
   neither the pass does nothing;
2. take every `pdl.pattern` of every `patterns` block that is ungrouped or shares a group
   with the enabled `groups` (device order);
3. apply them greedily to the function with xDSL's PDL interpreter, as MLIR's greedy driver
   does (which also uniques and hoists constants, erases dead ops and folds, even when the
   device has no pattern).

The native helpers of `docs/passes.md#ktdfarch-apply-patterns` are provided: constraints `ktdf_arch.mapped_to(op)` (the
op's `ktdf_arch.maps_to`; fails without one) and `ktdf_arch.has_feature(op, name[,
requirement])` (the op's feature `name`, if it meets `requirement`), rewrites
`ktdf_arch.map_to(op, attr)` and `ktdf_arch.set_feature(op, name, value)`. Constraints may
be negated (`isNegated = true`) and may return their attribute to the pattern.

xDSL's interpreter needs each `pdl.pattern` under a `builtin.module`, so each selected
pattern is cloned into a module of its own; it has no `apply_native_rewrite` and no
constraint results or negation, which `DevicePattern` adds. A pattern using PDL ops the
interpreter cannot run is reported, located on that op, when the patterns are loaded.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects import func, pdl
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr, UnitAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import InterpretationError

from dfsched.arch import intrinsics
from dfsched.compat import PDLRewriteRunner
from dfsched.diagnostics import error
from dfsched.dialects.ktdf_arch import DeviceOp, PatternsOp
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.frontend.pipeline_greedy import apply_patterns_greedily

MAPS_TO = intrinsics.MAPS_TO
FEATURES = intrinsics.FEATURES

SUPPORTED_PDL = (
    pdl.PatternOp,
    pdl.OperationOp,
    pdl.OperandOp,
    pdl.TypeOp,
    pdl.AttributeOp,
    pdl.ResultOp,
    pdl.RewriteOp,
    pdl.ReplaceOp,
    pdl.EraseOp,
    pdl.ApplyNativeConstraintOp,
    pdl.ApplyNativeRewriteOp,
)


@dataclass(frozen=True)
class KtdfarchApplyPatterns(DevicePass):
    """Apply the `pdl.pattern`s the device enables for `groups` (ungrouped ones always)."""

    name = "ktdfarch-apply-patterns"

    groups: tuple[str, ...] = ()
    """Enabled pattern groups (`groups=pre_scheduling`)."""


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Anchored on func.func; on a module, like mlir-opt's implicit nesting, the
        # functions directly inside it.
        functions = [op] if isinstance(op, func.FuncOp) else [f for f in op.ops if isinstance(f, func.FuncOp)]
        for function in functions:
            if function.body.blocks:
                apply_device_patterns(function, ctx, self.groups, self.device)


def apply_device_patterns(function: func.FuncOp, ctx: Context, groups: Sequence[str], device: str | None) -> None:
    """Run the device's enabled patterns on `function` (nothing without a device)."""
    definition = device_for(function, device)
    if definition is None:
        return
    patterns = device_patterns(definition, ctx, groups)
    apply_patterns_greedily(function, ctx, patterns)


def device_for(op: Operation, device: str | None) -> DeviceOp | None:
    """The device definition `op` runs on (its declaration resolved), or `--device`'s."""
    from dfsched.arch.loading import find_device_declaration_for, load_device, resolve_device

    declaration = find_device_declaration_for(op)
    if declaration is not None:
        return resolve_device(declaration)
    if device:
        return load_device(device).device
    return None


# ---------------------------------------------------------------------------
# Selecting and preparing the patterns
# ---------------------------------------------------------------------------

_CACHE: "weakref.WeakKeyDictionary[DeviceOp, dict[tuple[str, ...], list[DevicePattern]]]" = (
    weakref.WeakKeyDictionary()
)


def device_patterns(definition: DeviceOp, ctx: Context, groups: Sequence[str]) -> list[DevicePattern]:
    """The enabled patterns of a device, highest benefit first (cached per group set)."""
    key = tuple(sorted(set(groups)))
    per_device = _CACHE.setdefault(definition, {})
    if key not in per_device:
        selected: list[pdl.PatternOp] = []
        block = definition.block
        for block_op in block.ops if block is not None else ():
            if not isinstance(block_op, PatternsOp):
                continue
            names = block_op.group_names
            if names and not any(name in key for name in names):
                continue
            selected.extend(p for p in block_op.body.walk() if isinstance(p, pdl.PatternOp))
        prepared = [DevicePattern(p, ctx) for p in selected]
        prepared.sort(key=lambda p: -p.benefit)  # stable: device order among equals
        per_device[key] = prepared
    return per_device[key]


NativeConstraint = Callable[..., "list[Any] | None"]
NativeRewrite = Callable[..., "list[Any] | None"]


class DevicePattern(RewritePattern):
    """One device `pdl.pattern`, run by xDSL's PDL interpreter with dfsched's natives."""

    def __init__(self, pattern: pdl.PatternOp, ctx: Context):
        _check_supported(pattern)
        self.benefit = pattern.benefit.value.data
        self.module = ModuleOp([pattern.clone()])
        clone = next(op for op in self.module.ops if isinstance(op, pdl.PatternOp))
        rewrite = next((op for op in clone.body.walk() if isinstance(op, pdl.RewriteOp)), None)
        if rewrite is None or rewrite.body is None:
            raise error(pattern, "device pattern needs a 'pdl.rewrite' with a rewrite region")
        self.root = rewrite.root if rewrite.root is not None else _infer_root(clone, pattern)
        self.pattern = clone
        self.rewrite = rewrite
        self.constraints: list[pdl.ApplyNativeConstraintOp] = [
            op for op in clone.body.walk() if isinstance(op, pdl.ApplyNativeConstraintOp)
        ]
        self.source = pattern
        self.runner = PDLRewriteRunner(rewrite, ctx)
        self.runner.register(_NativeRewrites(dict(NATIVE_REWRITES), self.runner, pattern))

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        root = self.root
        assert isinstance(root.owner, pdl.OperationOp)
        matcher = self.runner.match(root, op)
        if matcher is None:
            return
        for constraint in self.constraints:
            if not _check_constraint(matcher, constraint, self.source):
                return
        # Constant attributes and types of the match section may be used by the rewrite.
        for pdl_op in self.pattern.body.block.ops:
            if isinstance(pdl_op, pdl.AttributeOp | pdl.TypeOp) and pdl_op.results[0] not in matcher.matching_context:
                try:
                    matcher.matching_context[pdl_op.results[0]] = matcher.get_constant_or_matched_value(
                        pdl_op.results[0])
                except InterpretationError:
                    pass
        assert self.rewrite.body is not None
        try:
            self.runner.run(matcher.matching_context, rewriter)
        except InterpretationError as exc:
            raise error(self.source, f"device pattern failed to rewrite '{op.name}': {exc}") from exc


def _check_constraint(matcher: Any, constraint: pdl.ApplyNativeConstraintOp, where: Operation) -> bool:
    """Run a native constraint: bind its results, honour `isNegated`."""
    name = constraint.constraint_name.data
    function = NATIVE_CONSTRAINTS.get(name)
    if function is None:
        raise error(where, f"PDL native constraint '{name}' is not registered")
    try:
        args = [matcher.get_constant_or_matched_value(v) for v in constraint.args]
    except InterpretationError:
        return False
    results = function(*args)
    succeeded = results is not None
    if constraint.is_negated.value.data:
        return not succeeded
    if not succeeded:
        return False
    for value, result in zip(constraint.res, results):
        matcher.matching_context[value] = result
    return True


def _infer_root(pattern: pdl.PatternOp, where: Operation) -> SSAValue:
    """The matched operation no other matched operation consumes (MLIR infers it likewise)."""
    operations = [op for op in pattern.body.block.ops if isinstance(op, pdl.OperationOp)]
    consumed = set()
    for op in pattern.body.block.ops:
        if isinstance(op, pdl.ResultOp):
            consumed.add(op.parent_)
    roots = [op.op for op in operations if op.op not in consumed]
    if len(roots) != 1:
        raise error(where, "device pattern has no single root operation; name it in 'pdl.rewrite %root'")
    return roots[0]


def _check_supported(pattern: pdl.PatternOp) -> None:
    for op in pattern.walk():
        if not isinstance(op, SUPPORTED_PDL):
            raise error(op, f"'{op.name}' is not supported in device patterns (xDSL's PDL interpreter cannot "
                            "run it)")
        if isinstance(op, pdl.ApplyNativeConstraintOp) and op.constraint_name.data not in NATIVE_CONSTRAINTS:
            raise error(op, f"PDL native constraint '{op.constraint_name.data}' is not registered (known: "
                            f"{', '.join(sorted(NATIVE_CONSTRAINTS))})")
        if isinstance(op, pdl.ApplyNativeRewriteOp) and op.constraint_name.data not in NATIVE_REWRITES:
            raise error(op, f"PDL native rewrite '{op.constraint_name.data}' is not registered (known: "
                            f"{', '.join(sorted(NATIVE_REWRITES))})")
        if isinstance(op, pdl.OperationOp) and op.opName is None and op.parent_op() is not pattern:
            raise error(op, "an operation created by a device pattern needs a name")


@register_impls
@dataclass
class _NativeRewrites(InterpreterFunctions):
    """`pdl.apply_native_rewrite` for xDSL's interpreter (it has no implementation)."""

    natives: dict[str, NativeRewrite]
    runner: PDLRewriteRunner
    where: Operation

    @impl(pdl.ApplyNativeRewriteOp)
    def run_apply_native_rewrite(
        self, interpreter: Interpreter, op: pdl.ApplyNativeRewriteOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        name = op.constraint_name.data
        function = self.natives.get(name)
        if function is None:
            raise error(self.where, f"PDL native rewrite '{name}' is not registered")
        results = function(self.runner.rewriter, *args)
        return tuple(results or ())


# ---------------------------------------------------------------------------
# The native helpers (`docs/passes.md#ktdfarch-apply-patterns`)
# ---------------------------------------------------------------------------


def mapped_to(op: Any) -> list[Attribute] | None:
    """Constraint: the op's `ktdf_arch.maps_to`; fails when it has none."""
    if not isinstance(op, Operation):
        return None
    value = op.attributes.get(MAPS_TO)
    return [value] if value is not None else None


def has_feature(op: Any, name: Any, requirement: Any = None) -> list[Attribute] | None:
    """Constraint: the op's feature `name` (meeting `requirement` when one is given)."""
    if not isinstance(op, Operation) or not isinstance(name, StringAttr):
        return None
    features = op.attributes.get(FEATURES)
    provided = features.data.get(name.data) if isinstance(features, DictionaryAttr) else None
    if provided is None:
        return None
    if requirement is not None and not intrinsics.feature_satisfies(name.data, provided, requirement):
        return None
    return [provided]


def map_to(rewriter: PatternRewriter, op: Any, value: Any) -> list[Any]:
    """Rewrite: set the op's `ktdf_arch.maps_to`."""
    if isinstance(op, Operation) and isinstance(value, Attribute):
        op.attributes[MAPS_TO] = value
        rewriter.notify_op_modified(op)
    return []


def set_feature(rewriter: PatternRewriter, op: Any, name: Any, value: Any) -> list[Any]:
    """Rewrite: set entry `name` of the op's `ktdf_arch.features` dictionary."""
    if isinstance(op, Operation) and isinstance(name, StringAttr):
        features = op.attributes.get(FEATURES)
        entries = dict(features.data) if isinstance(features, DictionaryAttr) else {}
        entries[name.data] = value if isinstance(value, Attribute) else UnitAttr()
        op.attributes[FEATURES] = DictionaryAttr(entries)
        rewriter.notify_op_modified(op)
    return []


NATIVE_CONSTRAINTS: dict[str, NativeConstraint] = {
    "ktdf_arch.mapped_to": mapped_to,
    "ktdf_arch.has_feature": has_feature,
}

NATIVE_REWRITES: dict[str, NativeRewrite] = {
    "ktdf_arch.map_to": map_to,
    "ktdf_arch.set_feature": set_feature,
}


__all__ = [
    "DevicePattern",
    "KtdfarchApplyPatterns",
    "NATIVE_CONSTRAINTS",
    "NATIVE_REWRITES",
    "apply_device_patterns",
    "device_patterns",
]
