"""MLIR's greedy pattern driver (`applyPatternsGreedily`), the engine of `canonicalize`.

xDSL's `PatternRewriteWalker` differs from MLIR's driver in ways a FileCheck line notices (it
never uniques or hoists constants, and it erases dead ops it merely walks past). This driver
follows `GreedyPatternRewriteDriver.cpp` / `FoldUtils.cpp`:

* Each iteration starts by collecting every op nested in the region (pre-order for the
  canonicalizer's default `top-down`, post-order otherwise). Constants are uniqued on the way
  (`OperationFolder::insertKnownConstant`): per insertion region (the entry block of the
  nearest isolated-from-above ancestor), a repeated constant is replaced by the first one,
  and a constant not already at the front of that block (or right after another uniqued
  constant) is moved to its front.
* Then the worklist is drained from its back: a trivially dead op is erased; otherwise the op
  is folded (attribute results are materialized as `arith.constant` right before it, to be
  hoisted by the next iteration's collection); otherwise the first pattern that applies
  rewrites it. Inserted, modified and moved ops (and their ancestors) join the worklist; when
  an op is erased, the producers of its operands that are left with at most one use do too.
* After the worklist, region simplification erases whatever the liveness-based region DCE
  finds dead.
* The whole repeats until an iteration changes nothing, for at most `max_iterations`.

`apply_patterns_greedily(root, patterns_for, fold_for)` runs it on every region of `root` and
returns whether it converged.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, UnregisteredOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener, RewritePattern
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike, IsolatedFromAbove

from dfsched.compat import replace_all_uses_in_bulk
from dfsched.dialects.constants import constant_attr
from dfsched.dialects.dataflow import GetUnitOp
from dfsched.passes.cleanup.effects import is_trivially_dead, would_be_trivially_dead

PatternsFor = Callable[[Operation], Sequence[RewritePattern]]
# A folder returns None (no fold), IN_PLACE (the op was updated in place) or one value per result
# (an existing SSA value or an attribute to materialize as a constant).
IN_PLACE = "in-place"
FoldFor = Callable[[Operation], "Sequence[SSAValue | Attribute] | str | None"]


@dataclass(frozen=True)
class GreedyConfig:
    top_down: bool = True
    max_iterations: int = 10
    fold: bool = True
    region_simplify: bool = True


class _Worklist:
    """A LIFO list with set semantics; removal leaves a hole."""

    def __init__(self):
        self.items: list[Operation | None] = []
        self.pos: dict[Operation, int] = {}

    def __bool__(self) -> bool:
        return bool(self.pos)

    def push(self, op: Operation) -> None:
        if op in self.pos:
            return
        self.pos[op] = len(self.items)
        self.items.append(op)

    def pop(self) -> Operation | None:
        while self.items:
            op = self.items.pop()
            if op is not None:
                del self.pos[op]
                return op
        return None

    def remove(self, op: Operation) -> None:
        index = self.pos.pop(op, None)
        if index is not None:
            self.items[index] = None

    def reverse(self) -> None:
        self.items.reverse()
        self.pos = {op: i for i, op in enumerate(self.items) if op is not None}

    def clear(self) -> None:
        self.items.clear()
        self.pos.clear()


_CONSTANT_LIKE: dict[type[Operation], bool] = {}  # op class -> has the ConstantLike trait


def is_constant_op(op: Operation) -> bool:
    if isinstance(op, arith.ConstantOp):
        return True
    constant_like = _CONSTANT_LIKE.get(type(op))
    if constant_like is None:
        constant_like = op.has_trait(ConstantLike, value_if_unregistered=False)
        if not isinstance(op, UnregisteredOp):
            _CONSTANT_LIKE[type(op)] = constant_like
    return constant_like and len(op.results) == 1 and constant_attr(op.results[0]) is not None


def insertion_region(block: Block) -> Region:
    """Where a constant used in `block` is uniqued (FoldUtils' `getInsertionRegion`)."""
    while True:
        region = block.parent
        assert region is not None
        parent = region.parent_op()
        if parent is None or parent.parent_block() is None or isinstance(parent, UnregisteredOp) or \
                parent.has_trait(IsolatedFromAbove):
            return region
        block = parent.parent_block()


class _ConstantFolder:
    """The constant-uniquing half of MLIR's `OperationFolder` (one per iteration)."""

    def __init__(self, driver: "GreedyDriver"):
        self.driver = driver
        self.scopes: dict[int, dict[tuple, Operation]] = {}  # id(region) -> constant key -> kept op
        self.owned: set[int] = set()  # ids (an op's hash is a Python call; a grid has thousands)
        self.duplicates: list[tuple[Operation, Operation]] = []
        self.regions: dict[int, Region] = {}  # id(block) -> its insertion region (blocks stay put)

    def insert_known_constant(self, op: Operation) -> bool:
        """False when `op` duplicated a known constant (it is detached, and erased by `erase_duplicates`)."""
        block = op.parent_block()
        assert block is not None
        owned = self.owned
        if id(op) in owned:
            if block.first_op is not op and id(op.prev_op) not in owned:
                _move_to_front(op, block)
            return True
        result = op.results[0]
        value = constant_attr(result)
        region = self.regions.get(id(block))
        if region is None:
            region = self.regions[id(block)] = insertion_region(block)
        scope = self.scopes.setdefault(id(region), {})
        key = _constant_key(op.dialect_name(), value, result.type)
        existing = scope.get(key)
        if existing is not None:
            op.detach()  # out of the block now (the moves below see the same neighbours) ...
            self.duplicates.append((op, existing))
            return False
        insert_block = region.blocks[0]
        if block is not insert_block or (insert_block.first_op is not op and id(op.prev_op) not in owned):
            _move_to_front(op, insert_block)
        scope[key] = op
        owned.add(id(op))
        return True

    def erase_duplicates(self) -> None:
        """... its uses replaced and erased once the collection is done, all uses at once (a
        grid-wide mapping uses thousands of duplicates)."""
        replace_all_uses_in_bulk([(op.results[0], kept.results[0]) for op, kept in self.duplicates])
        for op, _ in self.duplicates:
            self.driver.erase(op)
        self.duplicates.clear()


def _constant_key(dialect: str, value: Attribute, type_: Attribute) -> tuple:
    """What makes two constants the same (FoldUtils: dialect, value, type). An integer's value
    and type stand for its attribute: hashing attributes is a Python call per parameter."""
    if type(value) is IntegerAttr:
        return dialect, value.value.data, value.type, type_
    return dialect, value, type_


def _move_to_front(op: Operation, block: Block) -> None:
    op.detach()
    first = block.first_op
    if first is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, first)


def _pre_order(region: Region):
    for block in region.blocks:
        for op in list(block.ops):
            yield op
            for inner in op.regions:
                yield from _pre_order(inner)


def _post_order(region: Region):
    for block in region.blocks:
        for op in list(block.ops):
            for inner in op.regions:
                yield from _post_order(inner)
            yield op


def materialize_constant(value: Attribute, type_: Attribute) -> Operation | None:
    """The dialects' `materializeConstant`: an `arith.constant` of an integer or float attribute."""
    if isinstance(value, IntegerAttr) and isinstance(type_, IndexType | IntegerType):
        return arith.ConstantOp(IntegerAttr(value.value.data, type_, truncate_bits=True))
    if isinstance(value, FloatAttr):
        return arith.ConstantOp(value, type_)
    return None


def _at_most_one_user(value: SSAValue, erased: Collection[Operation]) -> bool:
    """Whether at most one op outside `erased` uses `value` (stops at the second: a constant
    may have thousands of users)."""
    first = None
    for use in value.uses:
        user = use.operation
        if user in erased or user is first:
            continue
        if first is not None:
            return False
        first = user
    return True


# Classes whose ops never fold (no operands, no folder) and are not constants: with no pattern
# and a use, visiting them does nothing. A grid's per-core units are most of a big grid's ops.
INERT_OPS: frozenset[type[Operation]] = frozenset({GetUnitOp})


def _used(op: Operation) -> bool:
    for result in op.results:  # a loop, not `any(...)`: asked of every per-core unit per iteration
        if result.first_use is not None:
            return True
    return False


class GreedyDriver:
    """One `RegionPatternRewriteDriver` on one region."""

    def __init__(self, region: Region, patterns_for: PatternsFor, fold_for: FoldFor | None,
                 config: GreedyConfig = GreedyConfig()):
        self.region = region
        self.patterns_for = patterns_for
        self.fold_for = fold_for
        self.config = config
        self.worklist = _Worklist()
        self._inert_classes: dict[type[Operation], bool] = {}
        self.listener = PatternRewriterListener(
            operation_insertion_handler=[self.notify_inserted],
            operation_removal_handler=[self.notify_removed],
            operation_modification_handler=[self.notify_modified],
        )

    def _inert(self, op: Operation) -> bool:
        """No pattern of this driver applies to `op`'s class (asked once per class)."""
        kind = type(op)
        inert = self._inert_classes.get(kind)
        if inert is None:
            inert = self._inert_classes[kind] = not self.patterns_for(op)
        return inert

    # -- notifications -------------------------------------------------------
    def add_to_worklist(self, op: Operation) -> None:
        """Add `op` and its ancestors inside the driven region."""
        chain = []
        current: Operation | None = op
        while current is not None:
            chain.append(current)
            parent_region = current.parent_region()
            if parent_region is self.region:
                for item in chain:
                    self.worklist.push(item)
                return
            if parent_region is None:
                return
            current = parent_region.parent_op()

    def notify_inserted(self, op: Operation) -> None:
        self.add_to_worklist(op)

    def notify_modified(self, op: Operation) -> None:
        self.add_to_worklist(op)

    def notify_removed(self, op: Operation) -> None:
        if not op.regions:  # most erased ops (a grid's duplicate constants): no walk, no set
            if op._operands:  # noqa: SLF001 (the tuple, not a view)
                self._add_operands_to_worklist(op, (op,))
            self.worklist.remove(op)
            return
        nested = list(op.walk())
        inside = set(nested)
        for item in nested:
            self._add_operands_to_worklist(item, inside)
            self.worklist.remove(item)

    def _add_operands_to_worklist(self, op: Operation, erased: Collection[Operation]) -> None:
        for operand in op.operands:
            owner = operand.owner
            if not isinstance(owner, Operation) or owner in erased:
                continue
            if _at_most_one_user(operand, erased):
                self.add_to_worklist(owner)

    def _in_scope(self, op: Operation) -> bool:
        """Still attached under the driven region (not inside something erased)."""
        current: Operation | None = op
        while current is not None:
            region = current.parent_region()
            if region is self.region:
                return True
            if region is None:
                return False
            current = region.parent_op()
        return False

    def rewriter_for(self, op: Operation) -> PatternRewriter:
        rewriter = PatternRewriter(op)
        rewriter.extend_from_listener(self.listener)
        return rewriter

    def erase(self, op: Operation) -> None:
        self.notify_removed(op)
        Rewriter.erase_op(op, safe_erase=False)

    # -- the driver ----------------------------------------------------------
    def simplify(self) -> bool:
        """Run to a fixpoint; True when converged within the iteration limit."""
        iteration = 0
        while True:
            iteration += 1
            if iteration > self.config.max_iterations:
                return False
            self.worklist.clear()
            folder = _ConstantFolder(self)
            walk = _pre_order if self.config.top_down else _post_order
            erased: set[int] = set()  # ids: an op's hash is a Python call
            for op in list(walk(self.region)):
                if id(op) in erased or op.parent is None:
                    continue
                if type(op) in INERT_OPS and self._inert(op) and _used(op):  # not constants: asked first
                    continue  # nothing to do for it now; erasing its last user re-adds it
                constant = is_constant_op(op)
                if constant and not folder.insert_known_constant(op):
                    erased.add(id(op))
                    continue
                if constant and self._inert(op) and _used(op):
                    continue
                self.add_to_worklist(op)
            folder.erase_duplicates()
            if self.config.top_down:
                self.worklist.reverse()
            changed = self.process_worklist()
            # The last iteration's region DCE left only live ops; when this one's worklist changed
            # nothing (uniquing and hoisting constants changes no liveness) it would find none.
            if self.config.region_simplify and (changed or iteration == 1):
                changed |= region_dce(self.region, self)
            if not changed:
                return True

    def process_worklist(self) -> bool:
        changed = False
        while self.worklist:
            op = self.worklist.pop()
            if op is None or not self._in_scope(op):
                continue
            if is_trivially_dead(op):
                self.erase(op)
                changed = True
                continue
            if self.config.fold and self.fold_for is not None and not is_constant_op(op):
                if self._try_fold(op):
                    changed = True
                    continue
            for pattern in self.patterns_for(op):
                rewriter = self.rewriter_for(op)
                pattern.match_and_rewrite(op, rewriter)
                if rewriter.has_done_action:
                    changed = True
                    break
        return changed

    def _try_fold(self, op: Operation) -> bool:
        assert self.fold_for is not None
        folded = self.fold_for(op)
        if folded is None:
            return False
        if folded == IN_PLACE:
            self.notify_modified(op)
            return True
        assert len(folded) == len(op.results)
        new_ops: list[Operation] = []
        values: list[SSAValue] = []
        for value, result in zip(folded, op.results):
            if isinstance(value, SSAValue):
                values.append(value)
                continue
            constant = materialize_constant(value, result.type)
            if constant is None:
                return False
            new_ops.append(constant)
            values.append(constant.results[0])
        if not new_ops and all(v is r for v, r in zip(values, op.results)):
            return False
        rewriter = self.rewriter_for(op)
        rewriter.replace(op, new_ops, values)
        return True


# ---------------------------------------------------------------------------
# Region simplification: liveness-based DCE (RegionUtils' runRegionDCE)
# ---------------------------------------------------------------------------


def _live_ops(region: Region) -> set[int]:
    """The ids of the ops of `region` (nested ones included) that are live: not trivially dead,
    or used by a live op. The least fixpoint, found with a worklist (each op and use visited
    once; ids, as an op's hash is a Python call)."""
    live: set[int] = set()
    worklist: list[Operation] = []
    stack = [region]
    while stack:
        for block in stack.pop().blocks:
            for op in block.ops:
                stack.extend(op.regions)
                if not would_be_trivially_dead(op):
                    live.add(id(op))
                    worklist.append(op)
    while worklist:
        for operand in worklist.pop()._operands:  # noqa: SLF001 (the tuple, not a view per op)
            if type(operand) is not OpResult:  # a block argument (isinstance against the ABC is slow)
                continue
            owner = operand.op
            if id(owner) not in live:
                live.add(id(owner))
                worklist.append(owner)
    return live


def _delete_dead(region: Region, live: set[int], driver: GreedyDriver | None) -> bool:
    changed = False
    for block in reversed(region.blocks):
        for op in reversed(list(block.ops)):
            if id(op) in live:
                for inner in op.regions:
                    changed |= _delete_dead(inner, live, driver)
                continue
            if driver is not None:
                driver.notify_removed(op)
            Rewriter.erase_op(op, safe_erase=False)
            changed = True
    return changed


def region_dce(region: Region, driver: GreedyDriver | None = None) -> bool:
    """Erase every op of `region` (nested ones included) whose results only feed dead ops."""
    return _delete_dead(region, _live_ops(region), driver)


def apply_patterns_greedily(root: Operation, patterns_for: PatternsFor, fold_for: FoldFor | None = None,
                            config: GreedyConfig = GreedyConfig()) -> bool:
    """Simplify every region of `root`; True when every region converged."""
    converged = True
    for region in root.regions:
        if region.blocks:
            converged &= GreedyDriver(region, patterns_for, fold_for, config).simplify()
    return converged
