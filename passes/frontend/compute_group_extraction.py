"""`compute-group-extraction`: split a KTIR kernel into programs and an orchestrator.

See `docs/passes.md#compute-group-extraction`. A *compute group* is what one `ktdp.store` needs: walking back
from the store through its compute reaches the `ktdp.load`s it depends on, and every store
that shares a load with it joins the same group. In each block the group covers the ops
from its first load to its last store; groups never span control flow.

Each group becomes a program, `module @local_schedule_N { func.func @local_schedule_N }`,
holding a copy of everything the group needs (memory views, constants, the compute tile
id, address arithmetic) plus the kernel's `grid`. The kernel itself moves into an unnamed
orchestrator module that keeps the control flow and calls the programs where the groups
were (`func.call @local_schedule_N(ivs...)`, declared `private` in the orchestrator);
block arguments the group reads (loop induction variables, kernel arguments) become the
program's parameters. Devices stay at the top level. An accumulation loop (`scf.for` with
`iter_args` summing reductions of loaded chunks) is first folded into one reduction over its
range (`fold-accumulation-loops`, README Decision 44), so its loads and the store after it
form one group. A host loop whose bounds read the tile id (`for %row = %tile to %n step
%grid_size`) then counts iterations, the tile id moving into the program
(`tile-invariant-loop-bounds`, Decision 50), and a load read inside a nested loop is repeated
there when no store may write what it reads (`sink_loads.py`, Decision 51). A paged copy (a
load stored unchanged through an indirect tile whose subscripts split a variable by
`floordiv`/`mod` K) becomes a loop over its pages (`copy_programs.split_paged_copies`,
Decision 57), so each page is a program the orchestrator's loop calls. Blocks are visited
nested-first, so
programs inside loops are numbered before the groups around them.

Where upstream only asserts (a load feeding a store from another block, interleaved
groups, a store of data computed from no load, a value used both by a store and by more
compute), this pass reports a located error and leaves the IR untouched. Two places
differ from upstream on purpose, both where upstream would assert or miscompile: a
linalg op's payload region is not control flow (upstream ends a group at any op with a
region, so a compute op between two stores of a group broke it), and the program keeps
the order of the group's memory effects (a load never moves above an earlier store).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import Pure

from dfsched.compat import InsertPoint, Rewriter
from dfsched.diagnostics import error
from dfsched.passes.frontend.copy_programs import split_paged_copies
from dfsched.passes.frontend.paged_gathers import split_paged_gathers
from dfsched.passes.frontend.fold_accumulation_loops import fold_accumulation_loops
from dfsched.passes.frontend.lower_inter_tile_ops import lower_inter_tile_ops
from dfsched.passes.frontend.sink_loads import sink_loads_into_nested_blocks
from dfsched.passes.frontend.tile_invariant_loop_bounds import tile_invariant_loop_bounds
from dfsched.passes.walk import ancestors, each_once
from dfsched.passes.frontend.utils import (
    blocks_post_order,
    dialect_of,
    enclosing_op,
    erase_dead_ops,
    op_name,
    values_used_by,
)

PROGRAM_PREFIX = "local_schedule"
LOAD = "ktdp.load"
STORE = "ktdp.store"
DEVICE = "ktdf_arch.device"
COMPUTE_DIALECTS = frozenset({"linalg", "math", "arith"})


@dataclass(frozen=True)
class ComputeGroupExtraction(ModulePass):
    """Extract every load→compute→store group into its own program module."""

    name = "compute-group-extraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_inter_tile_ops(op)  # an all-reduce between tiles: stores, ktdf.tile_reduce, loads (Decision 63)
        fold_accumulation_loops(op)  # a group never crosses control flow: K loops become one reduction
        tile_invariant_loop_bounds(op)  # host loops over rows of the tile: the host cannot know the tile
        sink_loads_into_nested_blocks(op)  # a tile loaded outside the loop that reads it: load it there
        split_paged_copies(op)  # floordiv/mod subscripts: one linear copy per page, in a loop
        split_paged_gathers(op)  # the same feeding compute: the page becomes a dimension of its own
        recompute_stored_intermediates(op)  # a stored value later compute reads: the store gets a copy
        groups = find_compute_groups(op)
        if not groups:
            return
        for group in groups:
            check_extractable(group)
        orchestrator = move_kernel_into_orchestrator(op)
        for group in groups:
            extract_program(op, orchestrator, group)
        erase_dead_ops(op)


@dataclass
class ComputeGroup:
    """The ops of one block from `first_load` through `last_store`."""

    first_load: Operation
    last_store: Operation
    ops: list[Operation] = field(default_factory=list)

    def __post_init__(self):
        block = self.first_load.parent_block()
        assert block is not None
        collecting = False
        for op in block.ops:
            collecting = collecting or op is self.first_load
            if collecting:
                self.ops.append(op)
            if op is self.last_store:
                break


# ---------------------------------------------------------------------------
# 1. Access-tile classes: a store and the loads its data comes from
# ---------------------------------------------------------------------------


class TileClasses:
    """Union-find over access-tile values."""

    def __init__(self):
        self._parent: dict[SSAValue, SSAValue] = {}

    def __bool__(self) -> bool:
        return bool(self._parent)

    def __contains__(self, value: SSAValue) -> bool:
        return value in self._parent

    def add(self, value: SSAValue) -> None:
        self._parent.setdefault(value, value)

    def leader(self, value: SSAValue) -> SSAValue:
        root = value
        while self._parent[root] is not root:
            root = self._parent[root]
        while self._parent[value] is not root:  # path compression
            self._parent[value], value = root, self._parent[value]
        return root

    def union(self, a: SSAValue, b: SSAValue) -> None:
        self.add(a)
        self.add(b)
        ra, rb = self.leader(a), self.leader(b)
        if ra is not rb:
            self._parent[rb] = ra


def access_tile_classes(block: Block) -> TileClasses:
    classes = TileClasses()
    for op in block.ops:
        if op_name(op) == STORE:
            classes.add(access_tile(op))
            union_loads_feeding(op, classes)
        elif dialect_of(op) in COMPUTE_DIALECTS:
            check_compute_uses(op)
    return classes


def union_loads_feeding(store: Operation, classes: TileClasses) -> None:
    """Walk back from `store` through operand definitions; union every load reached."""
    block = store.parent_block()
    for op, worklist in each_once(store):
        if op_name(op) == LOAD:
            if op.parent_block() is not block:
                raise error(store, "the data of this ktdp.store comes from a ktdp.load in another block; "
                            "a compute group cannot span control flow", notes=[(op, "the load is here")])
            classes.union(access_tile(store), access_tile(op))
            continue
        for value in values_used_by(op):
            if isinstance(value.owner, Operation):
                worklist.append(value.owner)


def recompute_stored_intermediates(module: ModuleOp) -> None:
    """A compute op whose result is stored and also computed on (LayerNorm stores the mean it
    normalises with) gets a copy that feeds the stores: the stored value is then final, the
    copy costs one op of the group (README Decision 61)."""
    for op in list(module.walk()):
        if dialect_of(op) not in COMPUTE_DIALECTS or len(op.results) != 1 or not op.has_trait(Pure) \
                and op_name(op).split(".", 1)[0] != "linalg":
            continue
        uses = list(op.results[0].uses)
        stores = [u for u in uses if op_name(u.operation) == STORE]
        if not stores or not any(dialect_of(u.operation) in COMPUTE_DIALECTS for u in uses):
            continue
        copy = op.clone()
        Rewriter.insert_op(copy, InsertPoint.after(op))
        for use in stores:
            use.operation.operands[use.index] = copy.results[0]


def check_compute_uses(op: Operation) -> None:
    stored = [u.operation for r in op.results for u in r.uses if op_name(u.operation) == STORE]
    computed = [u.operation for r in op.results for u in r.uses if dialect_of(u.operation) in COMPUTE_DIALECTS]
    if stored and computed:
        raise error(op, "this result is both stored and used by further compute; V1 compute groups "
                    "need a stored value to be final", notes=[(stored[0], "stored here"),
                                                              (computed[0], "used here")])


# ---------------------------------------------------------------------------
# 2. Group discovery, block by block (nested blocks first)
# ---------------------------------------------------------------------------


def find_compute_groups(module: ModuleOp) -> list[ComputeGroup]:
    groups: list[ComputeGroup] = []
    for block in blocks_post_order(module):
        classes = access_tile_classes(block)
        if classes:
            groups.extend(groups_in_block(block, classes))
    return groups


def groups_in_block(block: Block, classes: TileClasses) -> list[ComputeGroup]:
    """Scan the block in order; a change of class, or control flow (a loop, ...) after a
    complete group, closes the current group."""
    groups: list[ComputeGroup] = []
    closed: dict[SSAValue, Operation] = {}  # class leader -> first load of its group
    current: SSAValue | None = None
    first_load: Operation | None = None
    last_store: Operation | None = None
    last_was_load = False

    def close() -> None:
        if first_load is not None and last_store is not None:
            groups.append(ComputeGroup(first_load, last_store))

    for op in block.ops:
        if is_control_flow(op):
            if current is not None and first_load is not None and last_store is not None:
                close()
                closed[current] = first_load
                current, first_load, last_store, last_was_load = None, None, None, False
            continue
        name = op_name(op)
        if name == LOAD:
            tile = access_tile(op)
            if tile not in classes:
                raise error(op, "this ktdp.load feeds no ktdp.store in its block; V1 needs every load "
                            "of a block that stores to belong to a compute group")
            leader = classes.leader(tile)
            if leader in closed:
                raise error(op, "this ktdp.load belongs to a compute group that already ended earlier "
                            "in the block; a compute group must be contiguous (groups are told apart by "
                            "their access-tile values: give each group its own access tiles)",
                            notes=[(closed[leader], "the group started here")])
            if current is not None and leader is not current:
                if last_was_load:
                    raise error(op, "the loads of two compute groups are interleaved; V1 needs each "
                                "group's loads, compute and stores to be contiguous",
                                notes=[(first_load, "the other group starts here")])
                close()
                closed[current] = first_load
                current, first_load, last_store = leader, None, None
            elif current is None:
                current = leader
            if first_load is None:
                first_load = op
            last_was_load = True
        elif name == STORE:
            leader = classes.leader(access_tile(op))
            if current is None:
                raise error(op, "this ktdp.store writes data computed from no ktdp.load; "
                            "V1 compute groups start with a load")
            if leader is not current:
                raise error(op, "this ktdp.store belongs to a different compute group than the loads "
                            "before it; V1 needs each group to be contiguous",
                            notes=[(first_load, "the current group starts here")])
            last_store = op
            last_was_load = False
    close()
    return groups


def is_control_flow(op: Operation) -> bool:
    """An op with regions other than a compute op's payload (`linalg.add`'s hidden body).

    Upstream closes a group at *any* op with regions, linalg compute included, and then
    asserts when the group's next store arrives; dfsched lets compute ops inside a group.
    """
    return bool(op.regions) and dialect_of(op) not in COMPUTE_DIALECTS | {"spyreop"}


def check_extractable(group: ComputeGroup) -> None:
    """What upstream assumes of a group before moving it: check all before changing anything."""
    if enclosing_op(group.first_load, "func.func") is None:
        raise error(group.first_load, "compute group is not inside a func.func")
    inside = set(group.ops)
    for op in group.ops:
        if is_control_flow(op) and any(
            op_name(n) in (LOAD, STORE, "func.call") for n in op.walk() if n is not op
        ):
            raise error(op, "control flow inside a compute group: the group's loads come before "
                        "this op and its stores after it", notes=[(group.first_load, "first load"),
                                                                  (group.last_store, "last store")])
        for result in op.results:
            for use in result.uses:
                user = use.operation
                if user not in inside and not any(a in inside for a in ancestors(user)):
                    raise error(op, "this value is computed inside a compute group but also used "
                                "after it", notes=[(user, "used here")])


# ---------------------------------------------------------------------------
# 3. The orchestrator and the programs
# ---------------------------------------------------------------------------


def move_kernel_into_orchestrator(module: ModuleOp) -> ModuleOp:
    """Move every top-level op except devices into a new unnamed module at the start."""
    top = module.body.block
    orchestrator = ModuleOp([])
    orchestrator.location = module.location
    for op in list(top.ops):
        if op_name(op) == DEVICE:
            continue
        op.detach()
        orchestrator.body.block.add_op(op)
    if top.first_op is None:
        top.add_op(orchestrator)
    else:
        top.insert_op_before(orchestrator, top.first_op)
    return orchestrator


def extract_program(module: ModuleOp, orchestrator: ModuleOp, group: ComputeGroup) -> None:
    kernel = enclosing_op(group.first_load, "func.func")
    assert kernel is not None
    params = block_arguments_used(group.ops)
    signature = FunctionType.from_lists([p.type for p in params], [])
    name = unique_program_name(module, orchestrator)

    # The program: module @name { func.func @name(params) attributes {grid} { ... } }
    body = Block(arg_types=signature.inputs)
    program_func = func.FuncOp(name, signature, Region(body))
    # the kernel's own location: errors about the program's function (its grid) point at the
    # `func.func` the user wrote, not at a store inside it
    program_func.location = kernel.location
    if "grid" in kernel.attributes:
        program_func.attributes["grid"] = kernel.attributes["grid"]
    program = ModuleOp([program_func], sym_name=StringAttr(name))
    program.location = group.last_store.location
    module.body.block.add_op(program)

    declaration = func.FuncOp(name, signature, Region(), "private")
    declaration.location = group.last_store.location
    orchestrator.body.block.add_op(declaration)

    copy_group_into(body, group.ops, params)
    body.add_op(func.ReturnOp())

    call = func.CallOp(name, params, [])
    call.location = group.first_load.location
    Rewriter.insert_op(call, InsertPoint.before(group.ops[0]))
    for op in reversed(group.ops):
        op.parent_block().erase_op(op)


def block_arguments_used(ops: list[Operation]) -> list[BlockArgument]:
    """Block arguments reached through the def-chains of `ops`, in first-reach order."""
    found: list[BlockArgument] = []
    seen_args: set[SSAValue] = set()
    visited: set[Operation] = set()
    stack: list[SSAValue] = []
    for op in ops:
        stack.extend(reversed(values_used_by(op)))
        while stack:
            value = stack.pop()
            if isinstance(value, BlockArgument):
                if value not in seen_args:
                    seen_args.add(value)
                    found.append(value)
                continue
            owner = value.owner
            if owner in visited:
                continue
            visited.add(owner)
            stack.extend(reversed(values_used_by(owner)))
    return found


def copy_group_into(body: Block, ops: list[Operation], params: list[BlockArgument]) -> None:
    """Clone into `body` the group's dependencies and ops, each after what it needs.

    Upstream's order: for each op of the group, its operands' def-chains (operands first,
    post-order DFS; group ops reached this way are cloned early), then the group ops not
    yet cloned, in order. One addition keeps the program's meaning: memory effects keep
    their order, so a load is never cloned before a store that preceded it in the group
    (nor a store before an earlier load or store). Upstream never meets this case because
    it cannot put a compute op between two stores of a group.
    """
    copier = GroupCopier(body, ops, dict(zip(params, body.args)))
    for op in ops:
        for value in values_used_by(op):
            if isinstance(value.owner, Operation):
                copier.copy(value.owner)
    for op in ops:
        copier.copy(op)


class GroupCopier:
    """Clones ops into a program body, dependencies first, each op at most once."""

    def __init__(self, body: Block, group_ops: list[Operation], mapping: dict[SSAValue, SSAValue]):
        self.body = body
        self.mapping = mapping
        self.copied: set[Operation] = set()
        self.position = {op: i for i, op in enumerate(group_ops)}
        self.group_ops = group_ops
        self.roles = {op: memory_role(op) for op in group_ops}

    def dependencies(self, op: Operation) -> list[Operation]:
        deps = [v.owner for v in values_used_by(op) if isinstance(v.owner, Operation)]
        role = self.roles.get(op)
        if role is not None:
            earlier = self.group_ops[: self.position[op]]
            deps += [e for e in earlier if self.roles[e] == "write" or (role == "write" and self.roles[e])]
        return deps

    def copy(self, root: Operation) -> None:
        """Post-order DFS from `root` (iterative: def-chains can be long)."""
        if root in self.copied:
            return
        stack = [(root, self.dependencies(root), 0)]
        on_stack = {root}
        while stack:
            op, deps, index = stack[-1]
            if index < len(deps):
                stack[-1] = (op, deps, index + 1)
                dep = deps[index]
                if dep not in self.copied and dep not in on_stack:
                    on_stack.add(dep)
                    stack.append((dep, self.dependencies(dep), 0))
                continue
            stack.pop()
            self.body.add_op(op.clone(self.mapping))
            self.copied.add(op)


def memory_role(op: Operation) -> str | None:
    """None for ops without memory effects, "read" for loads, "write" for the rest."""
    from xdsl.traits import MemoryEffectKind, get_effects

    from dfsched.passes.frontend.utils import is_linalg_on_tensors

    if is_linalg_on_tensors(op):
        return None
    effects = get_effects(op)
    if effects is not None and not effects:
        return None
    if effects is not None and all(e.kind == MemoryEffectKind.READ for e in effects):
        return "read"
    return "write"


def unique_program_name(module: ModuleOp, orchestrator: ModuleOp) -> str:
    """`local_schedule_N` with the smallest N free at the top level and in the orchestrator."""
    taken = {symbol_name(op) for block in (module.body.block, orchestrator.body.block) for op in block.ops}
    n = 0
    while f"{PROGRAM_PREFIX}_{n}" in taken:
        n += 1
    return f"{PROGRAM_PREFIX}_{n}"


def symbol_name(op: Operation) -> str | None:
    attr = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return attr.data if isinstance(attr, StringAttr) else None


def access_tile(op: Operation) -> SSAValue:
    tile = getattr(op, "access_tile", None)
    return tile if tile is not None else op.operands[-1]
