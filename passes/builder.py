"""Builders that insert ops in order at one place and give them a source location, so that a
diagnostic on a new op points at the source it came from (Decision 4).

Two policies, kept apart because passes depend on them:

* `Inserter` (the scheduling-to-lowering passes): every inserted op takes the location of a
  given op, replacing whatever it had;
* `BlockInserter` (the reduction passes): like `Inserter`, called as a function, but the ops
  nested in an inserted op take the location too;
* `Builder` (the DataflowIR lowering): ops, nested ones included, that have no file location
  take the location; ops that have one keep it. With a `rewriter` the insertions notify the
  greedy driver.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects.constants import index_constant


@dataclass
class Inserter:
    """Inserts ops one after the other at a fixed place; every op gets `location`."""

    point: InsertPoint
    location: Operation | None = None

    @classmethod
    def before(cls, op: Operation, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.before(op), location or op)

    @classmethod
    def after(cls, op: Operation, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.after(op), location or op)

    @classmethod
    def at_start(cls, block: Block, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.at_start(block), location)

    @classmethod
    def at_end(cls, block: Block, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.at_end(block), location)

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        if self.location is not None:
            op.location = self.location.location
        return op


class BlockInserter:
    """Inserts ops into a block, before `before` (at the end when None), in call order; every op,
    nested ones included, takes the location attribute `location` (the reduction passes)."""

    def __init__(self, block: Block, before: Operation | None = None, location=None):
        self.block = block
        self.before = before
        self.location = location

    @classmethod
    def before_op(cls, op: Operation, location=None) -> BlockInserter:
        assert op.parent is not None
        return cls(op.parent, op, location)

    @classmethod
    def at_start(cls, block: Block, location=None) -> BlockInserter:
        return cls(block, block.first_op, location)

    @classmethod
    def at_end(cls, block: Block, location=None) -> BlockInserter:
        return cls(block, None, location)

    def __call__(self, op: Operation) -> Operation:
        if self.location is not None:
            for inner in op.walk():
                inner.location = self.location
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        return op

    def index(self, value: int) -> SSAValue:
        return self(index_constant(value)).results[0]


class Builder:
    """Inserts ops at a fixed insertion point, each after the previous one.

    With a `rewriter` (inside a rewrite pattern) the insertions notify the greedy driver. Ops
    without a source location take `location` (by default the op they are built before or
    after), so that a diagnostic on a new op points at the source it came from (Decision 4).
    """

    def __init__(self, point: InsertPoint, rewriter=None, location=None):
        self.point = point
        self.rewriter = rewriter
        self.location = location

    @classmethod
    def before(cls, op: Operation, rewriter=None) -> Builder:
        return cls(InsertPoint.before(op), rewriter, op.location)

    @classmethod
    def after(cls, op: Operation) -> Builder:
        return cls(InsertPoint.after(op), None, op.location)

    @classmethod
    def at_start(cls, block: Block) -> Builder:
        return cls(InsertPoint.at_start(block))

    @classmethod
    def at_end(cls, block: Block) -> Builder:
        return cls(InsertPoint.at_end(block))

    def insert(self, op: Operation) -> Operation:
        if self.location is not None and not isinstance(op.location, FileLineColLoc):
            for inner in op.walk():
                if not isinstance(inner.location, FileLineColLoc):
                    inner.location = self.location
        if self.rewriter is not None:
            self.rewriter.insert(op, self.point)
        else:
            Rewriter.insert_op(op, self.point)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.insert(op).results[0]

    def constant(self, value: int) -> SSAValue:
        return self.value(index_constant(value))

    def constants(self, values: list[int]) -> list[SSAValue]:
        """`[self.constant(v) for v in values]`, with one constant per distinct value
        (`constants_once`)."""
        ops, results = constants_once(values)
        for op in ops:
            self.insert(op)
        return results


def constants_once(values: list[int]) -> tuple[list[Operation], list[SSAValue]]:
    """New index constants for `values`, one per distinct value in order of first occurrence,
    and the one standing for each entry. A constant per entry gives the same IR once the greedy
    driver's constant uniquing (the next canonicalization) has kept each value's first constant
    and erased the rest; a grid-wide mapping would build, unique and erase one per core (issue 19)."""
    built: dict[int, Operation] = {}
    for value in values:
        if value not in built:
            built[value] = index_constant(value)
    return list(built.values()), [built[value].results[0] for value in values]
