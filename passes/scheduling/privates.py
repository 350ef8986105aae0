"""Rebuilding `ktdf.private` ops, shared by the scheduling passes (`docs/passes.md`).

* **Token re-materialization**: `TokenPlan` gives a rebuilt pipeline one fresh token per
  stage that has a successor, yielded after all resources, in stage order.
* `extend_private` (add resources and tokens to a private), `replace_private` (a new private
  with other result types and region), `cleanup_private` (drop unused results and the body ops
  only they needed), `move_ops` (a block's ops into another block).
* **Retyping**: `retype_private_results` (a wider buffer, a bigger FIFO slot: the defining
  `memref.alloc` / `ktdf.fifo.allocate` and the private are rebuilt, every use follows);
  `private_result_source` (the value a private's result yields).

Everything here keeps IR order (Decision 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue

from dfsched.dialects import ktdf


class TokenPlan:
    """Token re-materialization for a rebuilt pipeline.

    `stages` are stage keys in sibling order and `successors` maps a key to the keys that
    wait for it. Every stage with a successor gets one token, numbered in stage order;
    `depends_out` is that token, `depends_in` the predecessors' tokens in sibling order.
    """

    def __init__(self, stages: Sequence[object], successors: dict[int, list[object]] | None = None):
        self.stages = list(stages)
        if successors is None:  # a linear chain in list order
            successors = {id(s): [t] for s, t in zip(self.stages, self.stages[1:])}
        self.successors = successors
        self.producers = [s for s in self.stages if self.successors.get(id(s))]
        self._index = {id(s): i for i, s in enumerate(self.producers)}
        self.tokens: list[SSAValue] = []

    @property
    def count(self) -> int:
        return len(self.producers)

    def bind(self, tokens: Sequence[SSAValue]) -> None:
        """The token values (private results), one per producer, in order."""
        assert len(tokens) == self.count
        self.tokens = list(tokens)

    def depends_out(self, stage: object) -> list[SSAValue]:
        index = self._index.get(id(stage))
        return [] if index is None else [self.tokens[index]]

    def depends_in(self, stage: object) -> list[SSAValue]:
        out: list[SSAValue] = []
        for other in self.stages:
            if any(s is stage for s in self.successors.get(id(other), ())):
                out.append(self.tokens[self._index[id(other)]])
        return out


def extend_private(
    private: ktdf.PrivateOp, resources: Sequence[Operation], token_count: int = 0
) -> tuple[ktdf.PrivateOp, list[SSAValue], list[SSAValue]]:
    """Replace `private` by one that also yields `resources`' results, then fresh tokens.

    The resource ops (detached, or in any block) move to the end of the body, in order;
    `token_count` `ktdf.create_token` ops follow them. Uses of the old results move to the
    new ones, and uses of the resource ops' results *outside* the private move to the new
    private's matching results. Returns the new private, its resource results and its
    token results.
    """
    old_yield = private.yield_op
    assert old_yield is not None
    old_values = list(old_yield.values)
    body = private.body.block
    extra_values: list[SSAValue] = []
    for op in resources:
        if op.parent is not None:
            op.detach()
        extra_values.extend(op.results)
    tokens = [ktdf.CreateTokenOp() for _ in range(token_count)]
    types = [r.type for r in private.res] + [v.type for v in extra_values] + [ktdf.TokenType()] * token_count
    new_region = Region(Block())
    new_block = new_region.block
    move_ops(body, new_block, keep=old_yield)
    for op in resources:
        new_block.add_op(op)
    for token in tokens:
        new_block.add_op(token)
    yielded = old_values + extra_values + [t.result for t in tokens]
    new_block.add_op(ktdf.PrivateYieldOp(yielded, old_yield.attributes))
    count = len(private.res)
    new_private = replace_private(private, types, new_region, [(i, i) for i in range(count)])
    extra_results = list(new_private.res[count : count + len(extra_values)])
    for value, result in zip(extra_values, extra_results):
        value.replace_uses_with_if(result, lambda use: not new_private.is_ancestor(use.operation))
    token_results = list(new_private.res[count + len(extra_values) :])
    return new_private, extra_results, token_results


def replace_private(private: ktdf.PrivateOp, types: Sequence[Attribute], region: Region,
                    result_map: Iterable[tuple[int, int]]) -> ktdf.PrivateOp:
    """Put a new `ktdf.private` of `types` over `region` in place of `private` (its attributes
    and location kept); each (old, new) pair of `result_map` moves the old result's uses to
    the new result. The old private is erased."""
    new_private = ktdf.PrivateOp(types, region, private.attributes)
    new_private.location = private.location
    parent = private.parent
    assert parent is not None
    parent.insert_op_before(new_private, private)
    for old, new in result_map:
        private.res[old].replace_all_uses_with(new_private.res[new])
    parent.erase_op(private, safe_erase=False)
    return new_private


def move_ops(source: Block, destination: Block, keep: Operation | None = None) -> None:
    """Move the ops of `source`, in order and except `keep` (its terminator, say), to the end
    of `destination`."""
    for op in list(source.ops):
        if op is keep:
            continue
        op.detach()
        destination.add_op(op)


def cleanup_private(private: ktdf.PrivateOp) -> ktdf.PrivateOp:
    """Drop unused results and keep only the body ops the remaining yields need.

    As upstream, a private whose results are all used is left exactly as it is.
    """
    terminator = private.yield_op
    assert terminator is not None
    live = [i for i, r in enumerate(private.res) if r.uses]
    if len(live) == len(private.res):
        return private
    body = private.body.block
    needed: set[Operation] = set()
    worklist = [terminator.values[i] for i in live]
    while worklist:
        value = worklist.pop()
        if not isinstance(value, OpResult):
            continue
        owner = value.owner
        if owner.parent is not body or owner is terminator or owner in needed:
            continue
        needed.add(owner)
        worklist.extend(owner.operands)
    new_region = Region(Block())
    new_block = new_region.block
    mapping: dict[SSAValue, SSAValue] = {}
    for op in body.ops:
        if op is terminator or op not in needed:
            continue
        new_block.add_op(op.clone(mapping))
    new_block.add_op(ktdf.PrivateYieldOp([mapping.get(terminator.values[i], terminator.values[i]) for i in live],
                                         terminator.attributes))
    return replace_private(private, [private.res[i].type for i in live], new_region,
                           [(old, new) for new, old in enumerate(live)])


def retype_private_results(private: ktdf.PrivateOp, new_types: dict[int, Attribute]) -> ktdf.PrivateOp:
    """Give results of `private` new types (e.g. a wider buffer, a bigger FIFO slot).

    Each changed result must be yielded straight from a `memref.alloc` without dynamic
    sizes, or from a `ktdf.fifo.allocate` (its other slots keep their types); that op is
    rebuilt with the new type, then the private itself, and every use follows.
    Returns the new private (the old one is erased).
    """
    from xdsl.dialects import memref

    terminator = private.yield_op
    assert terminator is not None
    rebuilt: dict[Operation, Operation] = {}
    for index, new_type in new_types.items():
        value = terminator.values[index]
        assert isinstance(value, OpResult)
        owner = rebuilt.get(value.owner, value.owner)
        if isinstance(owner, memref.AllocOp):
            new_owner: Operation = memref.AllocOp([], [], new_type, owner.alignment)
        elif isinstance(owner, ktdf.FifoAllocateOp):
            types = [s.type for s in owner.slots]
            types[value.index] = new_type
            new_owner = ktdf.FifoAllocateOp(types, list(owner.dynamic_sizes), owner.attributes)
        else:
            raise ValueError(f"cannot retype a private result defined by {owner.name}")
        new_owner.location = owner.location
        block = owner.parent
        assert block is not None
        block.insert_op_before(new_owner, owner)
        for old, new in zip(owner.results, new_owner.results):
            old.replace_all_uses_with(new)
        block.erase_op(owner)
        rebuilt[value.owner] = new_owner
    types = [new_types.get(i, r.type) for i, r in enumerate(private.res)]
    region = private.detach_region(private.body)
    return replace_private(private, types, region, [(i, i) for i in range(len(types))])


def private_result_source(value: SSAValue) -> SSAValue | None:
    """For a `ktdf.private` result, the value its yield returns at that position."""
    if isinstance(value, OpResult) and isinstance(value.owner, ktdf.PrivateOp):
        terminator = value.owner.yield_op
        if terminator is not None and value.index < len(terminator.values):
            return terminator.values[value.index]
    return None
