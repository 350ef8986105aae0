"""How dfsched prints IR: as `mlir-opt` does, wherever a FileCheck line would notice.

`print_module` is the one entry point the tools use. `MLIRPrinter` is an xDSL `Printer` whose overrides
apply to every dialect's custom `print`, since those only use the Printer API. What it changes:

- SSA names are MLIR's: `%0`, `%1`, ... numbered region by region (a nested region continues after the
  values of the region holding it, sibling regions reuse numbers), `%argN` for entry-block arguments,
  `%0:2` / `%0#1` result groups, and the names ops choose (`%c0`, `%c1_i32`, `%cst`, `%true`, `%alloc`,
  ...) with `_N` suffixes on clashes. Names from the input are ignored, as `mlir-opt` ignores them.
- Op names drop the dialect an enclosing op declares as default (`return` inside `func.func`, `module`).
- Attribute dictionaries are sorted; `operandSegmentSizes` is never printed in custom form; integer and
  float attributes carry their type except where MLIR elides it (`i64`/`f64` inside arrays).
- Affine maps and sets are printed in MLIR's expression syntax and hoisted into `#map`, `#set`, ...
  aliases found by one extra, output-free print pass (MLIR's own method), ordered as MLIR orders them.
- Floats (`float_text.py`), blocks (`^bb1:  // pred: ^bb0`) and empty regions print as MLIR prints them.

Ops of other dialects can take part in naming the way MLIR's `OpAsmOpInterface` does, by defining any of:
    def get_asm_result_names(self, set_name): ...            # set_name(result_value, "name")
    def get_asm_block_argument_names(self, region, set_name): ...  # set_name(block_arg, "name")
    def get_asm_block_names(self, set_name): ...             # set_name(block, "name")
    @classmethod
    def get_default_dialect(cls) -> str: ...                 # ops in its regions drop "<dialect>."
A dialect can give attributes or types aliases (MLIR's `OpAsmDialectInterface::getAlias`) with
`register_alias_hook(fn)`, where `fn(attr)` returns an alias name or None.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import IO, Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DictionaryAttr,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    StringAttr,
    UnrankedMemRefType,
    UnregisteredOp,
    i32,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSet
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from dfsched.compat import PrinterBase, indented
from dfsched.float_text import format_float
from dfsched.dialects.affine_subscripts import format_affine_map, format_affine_set

# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def print_module(module: ModuleOp, stream: IO[str], generic: bool = False, debuginfo: bool = False,
                 grids: Sequence[Any] = ()) -> None:
    """Print `module` (or any top-level op) exactly as `mlir-opt` would, aliases included.

    `grids`: the replications of `uniform_grid.grids_for_the_printer` (Decision 121), whose
    other cores are written as they are printed: the bytes `expand_uniform_grids` then printing
    give, without building hundreds of thousands of ops and millions of operands."""
    printer = MLIRPrinter(stream=stream, print_generic_format=generic, print_debuginfo=debuginfo)
    for replication in grids:
        printer.write_other_cores(replication)
    printer.print_top_level(module)


def writes_units_directly(unit: Operation) -> bool:
    """Whether the printer can write `unit`'s copy on another core (`MLIRPrinter.write_other_cores`):
    a core-0 `dataflow.get_unit` in the form the printer writes directly."""
    text = _plain_op_text(unit)
    return text is not None and text.count("{core = 0 : i32") == 1 and text.count('name = "C0-') == 1


def module_to_string(op: Operation, generic: bool = False, debuginfo: bool = False) -> str:
    stream = StringIO()
    print_module(op, stream, generic=generic, debuginfo=debuginfo)  # type: ignore[arg-type]
    return stream.getvalue()


def op_to_string(op: Operation, generic: bool = False) -> str:
    """One op as MLIR's `op->print()` shows it: names from the whole IR, attributes inline."""
    stream = StringIO()
    MLIRPrinter(stream=stream, print_generic_format=generic).print_op(op)
    return stream.getvalue()


# ---------------------------------------------------------------------------
# SSA value and block names (MLIR's SSANameState)
# ---------------------------------------------------------------------------


def _sanitize(name: str, allowed: str = "$._-", allow_trailing_digit: bool = True) -> str:
    def clean() -> str:
        out = []
        for ch in name:
            if (ch.isascii() and ch.isalnum()) or ch in allowed:
                out.append(ch)
            elif ch == " ":
                out.append("_")
            else:
                out.extend(f"{b:X}" for b in ch.encode("utf-8"))
        return "".join(out)

    if name[:1].isdigit():
        return "_" + clean()
    if not allow_trailing_digit and name[-1:].isdigit():
        return clean() + "_"
    return clean()


def _constant_name(op: Operation, set_name) -> None:
    value = op.properties.get("value")
    if value is None:
        value = op.attributes.get("value")
    result = op.results[0]
    if isinstance(value, IntegerAttr):
        t = value.type
        if isinstance(t, IntegerType) and t.width.data == 1:
            set_name(result, "true" if value.value.data else "false")
            return
        if isinstance(t, IntegerType):
            set_name(result, f"c{_signed(value.value.data, t)}_{_int_type_text(t)}")
        else:
            set_name(result, f"c{value.value.data}")
        return
    set_name(result, "cst")


def _signed(v: int, t: IntegerType) -> int:
    """MLIR prints an APInt as signed: wrap into the type's signed range."""
    w = t.width.data
    if w <= 0:
        return v
    v &= (1 << w) - 1
    return v - (1 << w) if v >= 1 << (w - 1) else v


def _int_type_text(t: IntegerType) -> str:
    prefix = {Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}.get(t.signedness.data, "i")
    return f"{prefix}{t.width.data}"


def _named(name: str):
    return lambda op, set_name: set_name(op.results[0], name) if op.results else None


def _strided_metadata_names(op: Operation, set_name) -> None:
    res = op.results
    set_name(res[0], "base_buffer")
    set_name(res[1], "offset")
    rank = (len(res) - 2) // 2
    if rank:
        set_name(res[2], "sizes")
        set_name(res[2 + rank], "strides")


# getAsmResultNames of upstream ops (by op name, so replacements of xDSL's classes keep them).
_UPSTREAM_RESULT_NAMES: dict[str, Callable[[Operation, Any], None]] = {
    "arith.constant": _constant_name,
    "memref.alloc": _named("alloc"),
    "memref.alloca": _named("alloca"),
    "memref.cast": _named("cast"),
    "memref.dim": _named("dim"),
    "memref.extract_aligned_pointer_as_index": _named("intptr"),
    "memref.extract_strided_metadata": _strided_metadata_names,
    "memref.memory_space_cast": _named("memspacecast"),
    "memref.reinterpret_cast": _named("reinterpret_cast"),
    "memref.reshape": _named("reshape"),
    "memref.collapse_shape": _named("collapse_shape"),
    "memref.expand_shape": _named("expand_shape"),
    "memref.subview": _named("subview"),
    "memref.transpose": _named("transpose"),
    "memref.view": _named("view"),
    "memref.assume_alignment": _named("assume_align"),
    "tensor.bitcast": _named("bitcast"),
    "tensor.cast": _named("cast"),
    "tensor.collapse_shape": _named("collapsed"),
    "tensor.concat": _named("concat"),
    "tensor.dim": _named("dim"),
    "tensor.expand_shape": _named("expanded"),
    "tensor.extract": _named("extracted"),
    "tensor.extract_slice": _named("extracted_slice"),
    "tensor.from_elements": _named("from_elements"),
    "tensor.generate": _named("generated"),
    "tensor.insert": _named("inserted"),
    "tensor.insert_slice": _named("inserted_slice"),
    "tensor.pad": _named("padded"),
    "tensor.rank": _named("rank"),
    "tensor.reshape": _named("reshape"),
    "tensor.splat": _named("splat"),
    "linalg.map": _named("mapped"),
    "linalg.reduce": _named("reduced"),
    "linalg.transpose": _named("transposed"),
    "linalg.broadcast": _named("broadcasted"),
}


def _linalg_block_arg_names(init_name: str):
    def namer(op: Operation, region: Region, set_name) -> None:
        block = region.blocks.first
        if block is None:
            return
        n_in = len(getattr(op, "inputs", ()))
        for i, arg in enumerate(block.args):
            set_name(arg, "in" if i < n_in else init_name)

    return namer


_UPSTREAM_BLOCK_ARG_NAMES: dict[str, Callable[[Operation, Region, Any], None]] = {
    "linalg.generic": _linalg_block_arg_names("out"),
    "linalg.map": _linalg_block_arg_names("init"),
    "linalg.reduce": _linalg_block_arg_names("init"),
}

# getDefaultDialect of upstream ops.
_UPSTREAM_DEFAULT_DIALECT = {
    "builtin.module": "builtin",
    "func.func": "func",
    "pdl.pattern": "pdl",
    "pdl.rewrite": "pdl",
    "pdl_interp.func": "pdl_interp",
}


def default_dialect(op: Operation) -> str:
    hook = getattr(type(op), "get_default_dialect", None)
    if hook is not None:
        return hook() or ""
    return _UPSTREAM_DEFAULT_DIALECT.get(op.name, "")


class _Scope:
    """One level of MLIR's scoped table of names in use."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None):
        self.names: set[str] = set()
        self.parent = parent

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


class NameTable:
    """SSA value and block names of one printed IR tree, computed as MLIR's SSANameState does."""

    def __init__(self, root: Operation, generic: bool = False, reserve: dict[Operation, int] | None = None):
        self.generic = generic
        self._reserve = reserve or {}  # op -> how many numbers the values printed after it take
        self.names: dict[SSAValue, str] = {}
        self.groups: dict[Operation, list[int]] = {}
        self.blocks: dict[Block, tuple[int, str]] = {}
        self._next_value = self._next_arg = self._next_conflict = 0
        self._scope = _Scope(None)
        self._number(root)
        # id(value) -> (value, its text): a grid's mappings name each unit many times (ids: an
        # SSA value's hash is a Python call)
        self._texts: dict[int, tuple[SSAValue, str]] = {}

    # -- numbering ---------------------------------------------------------
    def _number(self, root: Operation) -> None:
        top = self._scope
        stack = [(region, 0, 0, 0, top) for region in reversed(root.regions)]
        self._number_op(root)
        while stack:
            region, self._next_value, self._next_arg, self._next_conflict, parent = stack.pop()
            self._scope = _Scope(parent)
            self._number_region(region)
            nested = [(r, self._next_value, self._next_arg, self._next_conflict, self._scope)
                      for op in _region_ops(region) for r in op.regions]
            stack.extend(reversed(nested))

    def _number_region(self, region: Region) -> None:
        parent = region.parent
        if parent is not None and not self.generic:
            hook = getattr(type(parent), "get_asm_block_argument_names", None)
            if hook is not None:
                hook(parent, region, self._set_arg_name)
            elif parent.name in _UPSTREAM_BLOCK_ARG_NAMES:
                _UPSTREAM_BLOCK_ARG_NAMES[parent.name](parent, region, self._set_arg_name)
        for index, block in enumerate(region.blocks):
            ordering, name = self.blocks.get(block, (index, f"bb{index}"))
            self.blocks[block] = (index, name)
            self._number_block(block, index == 0)

    def _number_block(self, block: Block, is_entry: bool) -> None:
        for arg in block.args:
            if arg in self.names:
                continue
            if is_entry:
                self._set_name(arg, f"arg{self._next_arg}")
                self._next_arg += 1
            else:
                self._set_name(arg, "")
        reserve = self._reserve
        for op in block.ops:
            self._number_op(op)
            if reserve and op in reserve:
                self._next_value += reserve[op]

    def _number_op(self, op: Operation) -> None:
        groups = [0]
        if not self.generic and not isinstance(op, UnregisteredOp):

            def set_result_name(value: SSAValue, name: str) -> None:
                if value in self.names or not isinstance(value, OpResult) or value.op is not op:
                    return
                self._set_name(value, name)
                if value.index:
                    groups.append(value.index)

            def set_block_name(block: Block, name: str) -> None:
                self.blocks[block] = (-1, _sanitize(name))

            cls = type(op)
            if hasattr(cls, "get_asm_block_names"):
                op.get_asm_block_names(set_block_name)  # type: ignore[attr-defined]
            if hasattr(cls, "get_asm_result_names"):
                op.get_asm_result_names(set_result_name)  # type: ignore[attr-defined]
            elif op.name in _UPSTREAM_RESULT_NAMES and op.results:
                _UPSTREAM_RESULT_NAMES[op.name](op, set_result_name)
        if not op.results:
            return
        first = op.results[0]
        if first not in self.names:
            self.names[first] = str(self._next_value)
            self._next_value += 1
        if len(groups) > 1:
            self.groups[op] = sorted(set(groups))

    def _set_arg_name(self, value: SSAValue, name: str) -> None:
        if value not in self.names:
            self._set_name(value, name)

    def _set_name(self, value: SSAValue, name: str) -> None:
        if not name:
            self.names[value] = str(self._next_value)
            self._next_value += 1
            return
        name = _sanitize(name)
        if name in self._scope:
            base = name + "_"
            while True:
                candidate = f"{base}{self._next_conflict}"
                self._next_conflict += 1
                if candidate not in self._scope:
                    name = candidate
                    break
        self._scope.names.add(name)
        self.names[value] = name

    # -- lookup ------------------------------------------------------------
    def value_text(self, value: SSAValue) -> str:
        known = self._texts.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        text = self._value_text(value)
        if text != "<<UNKNOWN SSA VALUE>>":
            self._texts[id(value)] = (value, text)
        return text

    def _value_text(self, value: SSAValue) -> str:
        suffix = ""
        head = value
        if isinstance(value, OpResult) and len(value.op.results) > 1:
            op, index = value.op, value.index
            groups = self.groups.get(op)
            if groups is None:
                head, suffix = op.results[0], f"#{index}"
            else:
                g = bisect.bisect_right(groups, index) - 1
                start = groups[g]
                end = groups[g + 1] if g + 1 < len(groups) else len(op.results)
                head = op.results[start]
                if end - start != 1:
                    suffix = f"#{index - start}"
        name = self.names.get(head)
        if name is None:
            return "<<UNKNOWN SSA VALUE>>"
        return f"%{name}{suffix}"

    def result_list_text(self, op: Operation) -> str:
        n = len(op.results)
        starts = self.groups.get(op, [0])
        parts = []
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else n
            name = self.names.get(op.results[start])
            text = f"%{name}" if name is not None else "<<UNKNOWN SSA VALUE>>"
            parts.append(text + (f":{end - start}" if end - start > 1 else ""))
        return ", ".join(parts)


def _region_ops(region: Region) -> Iterable[Operation]:
    for block in region.blocks:
        yield from block.ops


def _topmost(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


# ---------------------------------------------------------------------------
# Aliases (MLIR's AliasInitializer)
# ---------------------------------------------------------------------------


@dataclass
class _AliasInfo:
    order: int
    attr: Attribute
    name: str | None
    is_type: bool
    can_defer: bool
    depth: int = 0
    children: list[_AliasInfo] = field(default_factory=list)


def _builtin_alias(attr: Attribute) -> str | None:
    if isinstance(attr, AffineMapAttr):
        return "map"
    if isinstance(attr, AffineSetAttr):
        return "set"
    if isinstance(attr, LocationAttr):
        return "loc"
    return None


def _alias_name(attr: Attribute) -> str | None:
    name = _builtin_alias(attr)
    for hook in _ALIAS_HOOKS:
        try:
            proposed = hook(attr)
        except Exception:  # a dialect hook must never break printing
            proposed = None
        if proposed:
            name = proposed
    if not name:
        return None
    return _sanitize(name, "$_-", allow_trailing_digit=False)


class _Caches:
    """Per-print memo tables shared by the alias pass and the output pass."""

    def __init__(self) -> None:
        self._maps: dict[int, tuple[AffineMap, str]] = {}
        self._sets: dict[int, tuple[AffineSet, str]] = {}
        self._keys: dict[int, tuple[Attribute, Any]] = {}
        self._plain: dict[int, tuple[Operation, str | None]] = {}

    def plain_text(self, op: Operation) -> str | None:
        """`_plain_op_text(op)`, computed once for both passes."""
        return _memo(self._plain, op, _plain_op_text)

    def map_text(self, m: AffineMap) -> str:
        return _memo(self._maps, m, format_affine_map)

    def set_text(self, s: AffineSet) -> str:
        return _memo(self._sets, s, format_affine_set)

    def key(self, attr: Attribute) -> Any:
        return _memo(self._keys, attr, self._key)

    def _key(self, attr: Attribute) -> Any:
        if isinstance(attr, AffineMapAttr):
            return ("map", self.map_text(attr.data))
        if isinstance(attr, AffineSetAttr):
            return ("set", self.set_text(attr.data))
        try:
            hash(attr)
            return attr
        except TypeError:
            return (type(attr), _plain_text(attr))


def _memo(table: dict[int, tuple[Any, Any]], obj: Any, compute: Callable[[Any], Any]) -> Any:
    """`compute(obj)`, once per object: `table` is keyed by `id`, checked against reuse of the id."""
    hit = table.get(id(obj))
    if hit is None or hit[0] is not obj:
        hit = table[id(obj)] = (obj, compute(obj))
    return hit[1]


_KINDS: dict[type, str] = {}
_KIND_CLASSES: tuple[tuple[type, str], ...] = (
    (AffineMapAttr, "map"), (AffineSetAttr, "set"), (IntegerAttr, "int"), (FloatAttr, "float"),
    (ArrayAttr, "array"), (DictionaryAttr, "dict"), (MemRefType, "memref"), (UnrankedMemRefType, "unranked_memref"),
)
_I64 = IntegerType(64)


def _attr_kind(cls: type) -> str:
    """Which of the printer's own cases handles attributes of class `cls` ("" for xDSL's printing)."""
    kind = _KINDS.get(cls)
    if kind is None:
        kind = next((k for base, k in _KIND_CLASSES if issubclass(cls, base)), "")
        _KINDS[cls] = kind
    return kind


_SEGMENT_SIZES = ("operandSegmentSizes", "resultSegmentSizes")


# ---------------------------------------------------------------------------
# The printer
# ---------------------------------------------------------------------------


@dataclass(eq=False, repr=False)
class MLIRPrinter(PrinterBase):
    """xDSL's Printer, printing as `mlir-opt` does (see the module docstring)."""

    names: NameTable | None = field(default=None)
    aliases: dict[Any, str] = field(default_factory=dict)
    collecting: bool = field(default=False)

    caches: _Caches = field(default_factory=lambda: _Caches())

    _dialect_stack: list[str] = field(default_factory=lambda: ["builtin"], init=False)
    _aliased_types: set[type] = field(default_factory=set, init=False)
    _visited: dict[Any, _AliasInfo] = field(default_factory=dict, init=False)
    _visited_ids: dict[int, _AliasInfo] = field(default_factory=dict, init=False)
    _children: list[_AliasInfo] | None = field(default=None, init=False)
    _can_defer: bool = field(default=False, init=False)
    # A grid's other cores, written as printed (`write_other_cores`): the last unit of each run ->
    # (its first unit, cores lowered, grid); each mapping or program unit naming them -> its
    # operands in chunks (`uniform_grid.Replication.users`) and the grid.
    _grid_runs: dict[Operation, tuple[Operation, int, int]] = field(default_factory=dict, init=False)
    _grid_users: dict[Operation, tuple[list[Any], int]] = field(default_factory=dict, init=False)
    _current_op: Operation | None = field(default=None, init=False)

    def write_other_cores(self, replication: Any) -> None:
        """Print `replication`'s function (`uniform_grid.Replication`, checked) with every core."""
        for run in replication.runs:
            self._grid_runs[run[-1]] = (run[0], replication.cores, replication.grid)
        for op, chunks in replication.users.items():
            self._grid_users[op] = (chunks, replication.grid)

    # -- top level -----------------------------------------------------------
    def print_top_level(self, op: Operation) -> None:
        """Aliases, the op, a newline, then the deferred (location) aliases: MLIR's file layout."""
        reserve = {last: grid - cores for last, (_, cores, grid) in self._grid_runs.items()}
        self.names = NameTable(op, self.print_generic_format, reserve)
        collector = _AliasCollector(
            stream=None, print_generic_format=self.print_generic_format, print_debuginfo=self.print_debuginfo,
            names=self.names, collecting=True, caches=self.caches,
        )
        collector.print_op(op)
        ordered = collector._alias_order()
        self.aliases = {key: text for key, text, _, _ in ordered}
        self._aliased_types = {type(info.attr) for _, _, info, _ in ordered}
        for _, text, info, deferred in ordered:
            if not deferred:
                self._print_alias_definition(text, info)
        self.print_op(op)
        self.print_string("\n")
        for _, text, info, deferred in ordered:
            if deferred:
                self._print_alias_definition(text, info)

    def _print_alias_definition(self, text: str, info: _AliasInfo) -> None:
        self.print_string(f"{text} = ", indent=0)
        self._print_attribute_impl(info.attr)
        self.print_string("\n", indent=0)

    def _alias_order(self) -> list[tuple[Any, str, _AliasInfo, bool]]:
        infos = sorted(self._visited.items(), key=lambda kv: (kv[1].depth, not kv[1].is_type, kv[1].name or ""))
        counts: dict[str, int] = {}
        out = []
        for key, info in infos:
            assert info.name is not None
            index = counts.get(info.name, 0)
            counts[info.name] = index + 1
            text = ("!" if info.is_type else "#") + info.name + (str(index) if index else "")
            out.append((key, text, info, info.can_defer))
        return out

    # -- SSA values and blocks -----------------------------------------------
    def _ensure_names(self, op: Operation) -> NameTable:
        if self.names is None:
            self.names = NameTable(_topmost(op), self.print_generic_format)
        return self.names

    def value_text(self, value: SSAValue) -> str:
        if self.names is None:
            owner = value.op if isinstance(value, OpResult) else value.block.parent_op()
            if owner is None:
                return "<<UNKNOWN SSA VALUE>>"
            self._ensure_names(owner)
        assert self.names is not None
        return self.names.value_text(value)

    def pairs_text(self, first: Sequence[SSAValue], second: Sequence[SSAValue], separator: str) -> str:
        """`[%a -> %b], [%c -> %d]` as one string (a grid-wide mapping has a pair per core)."""
        if not first:
            return ""
        self.value_text(first[0])  # names the values of the op being printed, if not yet done
        assert self.names is not None
        grid = self._grid_users.get(self._current_op) if self._grid_users else None
        if grid is not None:  # a mapping of a grid written as printed: keys' chunks, then values'
            chunks, size = grid
            half = len(chunks) // 2
            return ", ".join([f"[{a}{separator}{b}]" for a, b in zip(self._grid_texts(chunks[:half], size),
                                                                      self._grid_texts(chunks[half:], size))])
        text = self.names.value_text
        return ", ".join([f"[{text(a)}{separator}{text(b)}]" for a, b in zip(first, second)])

    def operands_text(self, values: Sequence[SSAValue]) -> str:
        """`%a, %b, ...` as one string (a grid-wide program unit names a unit per core)."""
        grid = self._grid_users.get(self._current_op) if self._grid_users else None
        if grid is not None:
            return ", ".join(self._grid_texts(*grid))
        return ", ".join([self.value_text(v) for v in values])

    def _grid_texts(self, chunks: list[Any], grid: int) -> list[str]:
        """The names of every core's operands for chunks of `uniform_grid.Replication.users`: a
        run's units are numbered consecutively, core 0's first (`NameTable` reserves the others)."""
        assert self.names is not None
        out: list[str] = []
        for template, _, shared in chunks:
            if template is None:
                out.extend([self.value_text(shared)] * grid)
            else:
                base = int(self.names.names[template.results[0]])
                out.extend([f"%{base + core}" for core in range(grid)])
        return out

    def _print_other_cores(self, last: Operation) -> None:
        """After the last unit of a run, the units of the cores it was not lowered on."""
        template, cores, grid = self._grid_runs[last]
        assert self.names is not None
        base = int(self.names.names[template.results[0]])
        head, rest = self.caches.plain_text(template).split("{core = 0 : i32", 1)
        middle, tail = rest.split('name = "C0-', 1)
        name = self._op_name(template)
        for core in range(cores, grid):
            self.print_new_line()
            self.print_string(f'%{base + core} = {name}{head}{{core = {core} : i32{middle}name = "C{core}-{tail}')

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)  # xDSL's `print(..., file=)` costs a call per piece of a line

    def print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        """xDSL's line break (newline, pending messages, indentation), written directly."""
        indent = self._indent if indent is None else indent
        self.stream.write("\n")
        self._current_line += 1
        if print_message:
            for callback in self._next_line_callback:
                callback()
            self._next_line_callback = []
        spaces = indent * self.indent_num_spaces
        self.stream.write(" " * spaces)
        self._current_column = spaces

    def print_ssa_value(self, value: SSAValue) -> str:
        text = self.value_text(value)
        self.print_string(text)
        return text[1:]

    def print_operand(self, operand: SSAValue) -> None:
        self.print_ssa_value(operand)

    def shadow_region_args(self, region: Region, values: Sequence[SSAValue | None]) -> None:
        """MLIR's `shadowRegionArgs`: the entry block's arguments print as `values` print.

        For ops whose custom syntax never shows their region arguments (they stand for operands).
        """
        block, table = region.blocks.first, self.names
        if block is None or table is None:  # names exist whenever an op is being printed
            return
        for arg, value in zip(block.args, values):
            if value is not None:
                text = table.value_text(value)
                if not text.startswith("<<"):
                    table.names[arg] = text[1:]

    def print_op_results(self, op: Operation) -> None:
        if not op.results:
            return
        self.print_string(self._ensure_names(op).result_list_text(op) + " = ")

    def block_name(self, block: Block) -> str:
        if self.names is not None and block in self.names.blocks:
            return self.names.blocks[block][1]
        return super().block_name(block)

    def print_block_name(self, block: Block) -> str:
        name = self.block_name(block)
        self.print_string(f"^{name}")
        return name

    def enter_scope(self) -> None:  # MLIR numbers by region, not by isolated op
        pass

    def exit_scope(self) -> None:
        pass

    # -- operations ----------------------------------------------------------
    def _op_name(self, op: Operation) -> str:
        name = op.name
        dd = self._dialect_stack[-1]
        if dd and name.startswith(dd + ".") and name.count(".") == 1:
            return name[len(dd) + 1:]
        return name

    def print_op(self, op: Operation) -> None:
        self._ensure_names(op)
        self._current_op = op
        plain = None if self.print_generic_format or self.print_debuginfo else self.caches.plain_text(op)
        if self.collecting:
            if plain is None:
                self._collect_op(op)
            return
        if plain is not None and op not in self.diagnostic.op_messages:
            self.print_op_results(op)
            self.print_string(self._op_name(op) + plain)
            return
        begin = self.current_column
        self.print_op_results(op)
        custom = not self.print_generic_format and not isinstance(op, UnregisteredOp) and (
            type(op).print is not Operation.print
        )
        if custom:
            self.print_string(self._op_name(op))
        else:
            name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
            self.print_string_literal(name)
        end = self.current_column
        for message in self.diagnostic.op_messages.get(op, ()):
            self.add_message_on_next_line(message, begin, end)
        if custom:
            _print_custom(self, op)
        else:
            self.print_generic_op(op)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_location(op.location, allow_alias=True)

    def print_generic_op(self, op: Operation) -> None:
        """`"name"(%a)[^bb1] <{props}> ({...}) {attrs} : (types) -> types`."""
        self.print_string("(")
        self.print_list(op.operands, self.print_operand)
        self.print_string(")")
        if op.successors:
            self.print_string("[")
            self.print_list(op.successors, self.print_block_name)
            self.print_string("]")
        if op.properties:
            self.print_string(" <")
            self.print_attr_dict(op.properties)
            self.print_string(">")
        if op.regions:
            self.print_string(" (")
            self.print_list(op.regions, lambda r: self.print_region(r, True, True, True))
            self.print_string(")")
        attrs = {k: v for k, v in op.attributes.items() if not (isinstance(op, UnregisteredOp) and k == "op_name__")}
        if attrs:
            self.print_string(" ")
            self.print_attr_dict(attrs)
        self.print_string(" : ")
        self.print_function_type(op.operand_types, op.result_types)

    def print_op_with_default_format(self, op: Operation) -> None:
        self.print_generic_op(op)

    def print_operation_type(self, op: Operation) -> None:
        self.print_function_type(op.operand_types, op.result_types)

    def print_op_attributes(
        self,
        attributes: Mapping[str, Attribute],
        *,
        reserved_attr_names: Iterable[str] = (),
        print_keyword: bool = False,
    ) -> bool:
        reserved = set(reserved_attr_names) | set(_SEGMENT_SIZES)
        attrs = {k: v for k, v in attributes.items() if k not in reserved}
        if not attrs:
            return False
        if print_keyword:
            self.print_string(" attributes")
        self.print_string(" ")
        self.print_attr_dict(attrs)
        return True

    def print_op_properties(self, properties: dict[str, Attribute]) -> None:
        if properties:
            self.print_string(" <")
            self.print_attr_dict(properties)
            self.print_string(">")

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        self.print_string("{")
        self.print_list(sorted(attr_dict.items(), key=lambda kv: kv[0]), self.print_attr_entry)
        self.print_string("}")

    # -- regions and blocks ----------------------------------------------------
    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = False,
        print_block_terminators: bool = True,
    ) -> None:
        """MLIR's printRegion (note: an empty entry block prints no label unless asked)."""
        self.print_string("{")
        entry = region.blocks.first
        if entry is not None:
            parent = region.parent
            self._dialect_stack.append(default_dialect(parent) if parent is not None else "")
            try:
                header = (print_empty_block and not entry.ops) or (print_entry_block_args and bool(entry.args))
                self.print_block(entry, header, print_block_terminators)
                for block in list(region.blocks)[1:]:
                    self.print_block(block)
            finally:
                self._dialect_stack.pop()
        self.print_new_line()
        self.print_string("}")

    def print_block(self, block: Block, print_block_args: bool = True, print_block_terminator: bool = True) -> None:
        if print_block_args:
            self.print_new_line()
            self.print_block_name(block)
            if block.args:
                self.print_string("(")
                self.print_list(block.args, self.print_block_argument)
                self.print_string(")")
            self.print_string(":")
            if not self.collecting:
                self._print_predecessors(block)
        last = block.last_op
        skip = last if (not print_block_terminator and last is not None
                        and last.has_trait(IsTerminator, value_if_unregistered=False)) else None
        with indented(self):
            for op in block.ops:
                if op is skip:
                    continue
                self.print_new_line()
                self.print_op(op)
                if self._grid_runs and op in self._grid_runs and not self.collecting:
                    self._print_other_cores(op)

    def _print_predecessors(self, block: Block) -> None:
        if block.parent is None:
            self.print_string("  // block is not in a region!")
            return
        preds = list(block.predecessors())
        if not preds:
            if block.parent.blocks.first is not block:
                self.print_string("  // no predecessors")
            return
        if len(preds) == 1:
            self.print_string("  // pred: ")
            self.print_block_name(preds[0])
            return
        info = [self.names.blocks.get(p, (-1, "INVALIDBLOCK")) if self.names else (-1, "?") for p in preds]
        info.sort(key=lambda t: t[0])
        self.print_string(f"  // {len(preds)} preds: " + ", ".join("^" + n for _, n in info))

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        self.print_ssa_value(arg)
        if print_type:
            self.print_string(": ")
            self.print_attribute(arg.type)
            if self.print_debuginfo:
                self.print_string(" ")
                self.print_location(arg.location, allow_alias=False, deferrable=False)

    # -- attributes ------------------------------------------------------------
    def _key(self, attr: Attribute) -> Any:
        """Identity of an attribute for aliasing: equal attributes (MLIR uniques them) share a key."""
        return self.caches.key(attr)

    def print_attribute(self, attribute: Attribute) -> None:
        self._print_attribute(attribute, "never")

    def print_attribute_without_type(self, attribute: Attribute) -> None:
        self._print_attribute(attribute, "must")

    def _print_attribute(self, attribute: Attribute, elide: str) -> None:
        if self.collecting:
            self._visit(attribute, elide)
            return
        if type(attribute) in self._aliased_types:
            alias = self.aliases.get(self._key(attribute))
            if alias is not None:
                self.print_string(alias)
                return
        self._print_attribute_impl(attribute, elide)

    def _print_attribute_impl(self, attr: Attribute, elide: str = "never") -> None:
        """The attribute itself (never its own alias); nested attributes may print as aliases."""
        kind = _attr_kind(type(attr))
        if kind == "map":
            self.print_string(f"affine_map<{self.caches.map_text(attr.data)}>")  # type: ignore[attr-defined]
        elif kind == "set":
            self.print_string(f"affine_set<{self.caches.set_text(attr.data)}>")  # type: ignore[attr-defined]
        elif kind == "int":
            self._print_integer_attr(attr, elide)  # type: ignore[arg-type]
        elif kind == "float":
            self.print_string(format_float(attr.value.data, attr.type))  # type: ignore[attr-defined]
            if elide == "must" or (elide == "may" and isinstance(attr.type, Float64Type)):  # type: ignore[attr-defined]
                return
            self.print_string(" : ")
            self.print_attribute(attr.type)  # type: ignore[attr-defined]
        elif kind == "array":
            self.print_string("[")
            self.print_list(attr.data, lambda a: self._print_attribute(a, "may"))  # type: ignore[attr-defined]
            self.print_string("]")
        elif kind == "dict":
            self.print_attr_dict(attr.data)  # type: ignore[attr-defined]
        elif kind == "memref":
            self._print_memref_type(attr)  # type: ignore[arg-type]
        elif kind == "unranked_memref":
            self.print_string("memref<*x")
            self.print_attribute(attr.element_type)  # type: ignore[attr-defined]
            if not isinstance(attr.memory_space, NoneAttr):  # type: ignore[attr-defined]
                self.print_string(", ")
                self._print_attribute(attr.memory_space, "may")  # type: ignore[attr-defined]
            self.print_string(">")
        elif elide == "must" and hasattr(attr, "print_without_type"):
            attr.print_without_type(self)  # type: ignore[attr-defined]
        else:  # everything else (locations included) prints as xDSL prints it
            super().print_attribute(attr)

    def _print_integer_attr(self, attr: IntegerAttr, elide: str) -> None:
        t = attr.type
        v = attr.value.data
        if not isinstance(t, IntegerType | IndexType):
            super().print_attribute(attr)
            return
        if isinstance(t, IntegerType) and t.width.data == 1 and t.signedness.data == Signedness.SIGNLESS:
            self.print_string("true" if v else "false")
            return
        if isinstance(t, IntegerType) and t.signedness.data != Signedness.UNSIGNED:
            v = _signed(v, t)
        self.print_string(str(v))
        if elide == "must" or (elide == "may" and t == _I64):
            return
        self.print_string(" : ")
        self.print_attribute(t)

    def _print_memref_type(self, t: MemRefType) -> None:
        self.print_string("memref<")
        for dim in t.get_shape():
            self.print_string("?x" if dim == DYNAMIC_INDEX else f"{dim}x")
        self.print_attribute(t.element_type)
        layout = t.layout
        if not isinstance(layout, NoneAttr) and not _is_identity_layout(layout):
            self.print_string(", ")
            self._print_attribute(layout, "may")
        if not isinstance(t.memory_space, NoneAttr):
            self.print_string(", ")
            self._print_attribute(t.memory_space, "may")
        self.print_string(">")

    def print_float(self, value: float, type) -> None:
        self.print_string(format_float(value, type))

    def print_location(self, loc: Attribute, allow_alias: bool = True, deferrable: bool = True) -> None:
        """`loc(...)`; op locations may use a (deferred) `#loc` alias, as MLIR prints them."""
        if self.collecting:
            saved = self._can_defer
            self._can_defer = deferrable
            try:
                self._visit(loc, "never")
            finally:
                self._can_defer = saved
            return
        if allow_alias and type(loc) in self._aliased_types:
            alias = self.aliases.get(self._key(loc))
            if alias is not None:
                self.print_string(f"loc({alias})")
                return
        was = self.printing_location
        self.printing_location = False
        try:
            super().print_attribute(loc)
        finally:
            self.printing_location = was

    # -- alias collection (the output-free first pass) ------------------------
    def _visit(self, attr: Attribute, elide: str = "never") -> _AliasInfo:
        """MLIR's AliasInitializer::visit: record `attr` (and what it prints) on first sight."""
        info = self._visited_ids.get(id(attr))
        if info is None:
            name = _alias_name(attr)
            if name is not None:
                info = self._visited.get(self._key(attr))
            if info is None:
                info = self._new_alias_info(attr, name, elide)
            self._visited_ids[id(attr)] = info
        elif not self._can_defer:
            _mark_non_deferrable(info)
        if self._children is not None:
            self._children.append(info)
        return info

    def _new_alias_info(self, attr: Attribute, name: str | None, elide: str) -> _AliasInfo:
        info = _AliasInfo(len(self._visited), attr, name, isinstance(attr, TypeAttribute), self._can_defer)
        if name is not None:
            self._visited[self._key(attr)] = info
            info.depth = 1
        saved, self._children = self._children, []
        try:
            self._print_attribute_impl(attr, elide)
        except Exception:
            pass  # an attribute the printer cannot walk simply has no nested aliases
        children, self._children = self._children, saved
        info.children = children
        deepest = max((c.depth for c in children), default=0)
        if deepest:
            info.depth = deepest + 1
        return info

    def _collect_op(self, op: Operation) -> None:
        if self.print_debuginfo:
            self.print_location(op.location, deferrable=True)
        if not self.print_generic_format and not isinstance(op, UnregisteredOp) and (
            type(op).print is not Operation.print
        ):
            op.print(self)
            return
        # MLIR's generic alias walk: regions first, then types, then attributes.
        for region in op.regions:
            self.print_region(region, True, True, True)
        for t in (*op.operand_types, *op.result_types):
            self.print_attribute(t)
        merged = {**op.attributes, **op.properties}
        for name in sorted(merged):
            if not (isinstance(op, UnregisteredOp) and name == "op_name__"):
                self.print_attribute(merged[name])


@dataclass(eq=False, repr=False)
class _AliasCollector(MLIRPrinter):
    """The output-free first pass: prints nothing, records the attributes that would be printed."""

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        pass

    def print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        pass

    def value_text(self, value: SSAValue) -> str:
        return "%"  # nothing is printed, and SSA names hold no attribute (a grid has thousands of operands)

    def pairs_text(self, first: Sequence[SSAValue], second: Sequence[SSAValue], separator: str) -> str:
        return ""  # SSA values hold no attribute: a grid-wide mapping's pairs are not built twice

    def operands_text(self, values: Sequence[SSAValue]) -> str:
        return ""


def _mark_non_deferrable(info: _AliasInfo) -> None:
    if not info.can_defer:
        return
    info.can_defer = False
    for child in info.children:
        _mark_non_deferrable(child)


def _is_identity_layout(layout: Attribute) -> bool:
    if isinstance(layout, AffineMapAttr):
        m = layout.data
        return m.num_symbols == 0 and len(m.results) == m.num_dims and all(
            isinstance(r, AffineDimExpr) and r.position == i for i, r in enumerate(m.results)
        )
    return False


def _device_kind_alias(attr: Attribute) -> str | None:
    """The device dialect's alias rule (`ktdf_arch.kind_alias`), its module loaded only when a
    dictionary with a `kind` is printed: most runs print none and skip loading it."""
    if not isinstance(attr, DictionaryAttr) or "kind" not in attr.data:
        return None
    from dfsched.dialects.ktdf_arch import kind_alias

    return kind_alias(attr)


_ALIAS_HOOKS: list[Callable[[Attribute], str | None]] = [_device_kind_alias]


def register_alias_hook(hook: Callable[[Attribute], str | None]) -> None:
    """Give some attributes/types an alias name (`#name = ...` / `!name = ...`), like MLIR's getAlias.
    The device dialect's `{kind = "DDR", ...}` dictionaries are named from the start."""
    if hook not in _ALIAS_HOOKS:
        _ALIAS_HOOKS.append(hook)


def _plain_text(attr: Attribute) -> str:
    stream = StringIO()
    MLIRPrinter(stream=stream).print_attribute(attr)
    return stream.getvalue()


_PLAIN_STRING = re.compile(r"[A-Za-z0-9_.\-]*")


def _plain_op_text(op: Operation) -> str | None:
    """The custom form after the op name of the ops a grid repeats per core (`dataflow.get_unit`
    with its usual attributes, an index `arith.constant`), written directly; None for any other
    op, and for these with anything unusual (they take the general path). These forms hold no
    attribute that could have an alias."""
    if op.name == "arith.constant":
        value = op.properties.get("value")
        if op.attributes or len(op.properties) != 1 or not isinstance(value, IntegerAttr) \
                or not isinstance(value.type, IndexType):
            return None
        return f" {value.value.data} : index"
    if op.name == "dataflow.get_unit":
        if len(op.results) != 1 or not isinstance(op.results[0].type, IndexType) or len(op.properties) != 2:
            return None
        entries = []
        for key in sorted(op.attributes):
            value = op.attributes[key]
            if key not in ("core", "corelet") or not isinstance(value, IntegerAttr) or value.type != i32:
                return None
            entries.append(f"{key} = {value.value.data} : i32")
        for key in ("name", "type"):
            value = op.properties.get(key)
            if not isinstance(value, StringAttr) or not _PLAIN_STRING.fullmatch(value.data):
                return None
            entries.append(f'{key} = "{value.data}"')
        return " {" + ", ".join(entries) + "} : index"
    return None


def _print_custom(printer: Printer, op: Operation) -> None:
    """An op's custom form, with the few fixes xDSL's own printers need to match MLIR."""
    from xdsl.dialects import func

    if (isinstance(op, func.FuncOp) and not op.body.blocks and not op.function_type.outputs.data
            and op.arg_attrs is None):
        _print_func_declaration(printer, op)
        return
    op.print(printer)


def _print_func_declaration(printer: Printer, op: Operation) -> None:
    """`func.func private @g(index)`: MLIR leaves out `-> ()` when a declaration returns nothing."""
    if op.sym_visibility is not None:
        printer.print_string(f" {op.sym_visibility.data}")
    printer.print_string(" ")
    printer.print_symbol_name(op.sym_name.data)
    printer.print_string("(")
    printer.print_list(op.function_type.inputs.data, printer.print_attribute)
    printer.print_string(")")
    reserved = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
    printer.print_op_attributes(op.attributes, reserved_attr_names=reserved, print_keyword=True)
