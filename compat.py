"""Every xDSL touch-point that may change between xDSL versions (pinned: xdsl==0.74.0).

Upgrading xDSL should mean editing this file and nothing else. What lives here:

- re-exports of names whose home moves between versions (linalg's `ops`/`abstract_ops`/`attrs`
  submodules, `UnresolvedOperand`, the enum helpers, `MLIRTokenKind`, `DominanceInfo`,
  `xDSLOptMain`); heavy modules are imported lazily, on first use;
- the parser: the hook that records op locations (`LocatingParser`), token peeking
  (`next_token`, `next_token_is`, `consume_token`) and `AffineParserBase`, which gives the
  private steps of xDSL's affine parser public names;
- the printer: `PrinterBase` (the same for xDSL's `Printer`), `value_names`, `indented`;
- the interpreter: `InterpreterBase` (its per-op step) and `op_implementations`; PDL rewrites
  run step by step (`PDLRewriteRunner`);
- the verifier walk (`verify_module`), pass construction from options (`pass_from_options`);
- `ImplicitBuilder` made safe for threads (`thread_safe_implicit_builder`: `dfsched.compile` applies it;
  importing this module patches nothing);
- a linear `IsolatedFromAbove` verifier with xDSL's verdicts (`fast_isolated_from_above`: the tools
  and `dfsched.compile` install it).

Nothing outside this file should name a private xDSL attribute (a leading underscore).
"""

from __future__ import annotations

import importlib
import operator
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (DenseArrayBase, FileLineColLoc, IndexType, IntAttr, IntegerAttr, ModuleOp, StringAttr,
                                   i32)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.parser import AffineParser, Parser, UnresolvedOperand  # noqa: F401  (UnresolvedOperand: re-export)
from xdsl.pattern_rewriter import PatternRewriter  # noqa: F401  (re-export)
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter  # noqa: F401  (re-export)
from xdsl.utils.exceptions import ParseError, VerifyException  # noqa: F401  (re-export)
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind  # noqa: F401  (MLIRTokenKind: re-export)
from xdsl.utils.str_enum import StrEnum  # noqa: F401  (re-export: the base EnumAttribute's enums expect)

from dfsched.diagnostics import Diagnostic, DiagnosticError, error, location_of

# Lazy re-exports: name -> (module, attribute; None for the module itself). linalg costs ~50 ms.
_LAZY: dict[str, tuple[str, str | None]] = {
    "linalg_ops": ("xdsl.dialects.linalg.ops", None),  # xDSL's linalg op classes
    "XDSL_LINALG": ("xdsl.dialects.linalg", "Linalg"),  # xDSL's linalg dialect, as registered upstream
    "ElementwiseOperation": ("xdsl.dialects.linalg.abstract_ops", "ElementwiseOperation"),
    "NamedOperation": ("xdsl.dialects.linalg.abstract_ops", "NamedOperation"),
    "LinalgStructuredOperation": ("xdsl.dialects.linalg.abstract_ops", "LinalgStructuredOperation"),
    "IteratorType": ("xdsl.dialects.linalg.attrs", "IteratorType"),
    "IteratorTypeAttr": ("xdsl.dialects.linalg.attrs", "IteratorTypeAttr"),
    "EnumAttribute": ("xdsl.dialects.utils", "EnumAttribute"),
    "DominanceInfo": ("xdsl.irdl.dominance", "DominanceInfo"),
    "xDSLOptMain": ("xdsl.xdsl_opt_main", "xDSLOptMain"),
}


def __getattr__(name: str):
    """The lazy re-exports above, and `InterpreterBase` (xDSL's interpreter is not needed to compile)."""
    if name == "InterpreterBase":
        value: Any = _interpreter_base()
    elif name in _LAZY:
        module, attr = _LAZY[name]
        value = importlib.import_module(module)
        if attr is not None:
            value = getattr(value, attr)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def next_token(parser: Any):
    """The token `parser` (any xDSL parser) is looking at, not consumed: `.kind`, `.text`, `.span`.

    xDSL 0.74 has no public peek."""
    return parser._current_token


def next_token_is(parser: Any, *kinds: MLIRTokenKind) -> bool:
    """Whether the next token of `parser` is of one of `kinds` (nothing is consumed)."""
    return parser._current_token.kind in kinds


def consume_token(parser: Any):
    """Consume and return the next token of `parser`, whatever it is."""
    return parser._consume_token()


class AffineParserBase(AffineParser):
    """xDSL's affine-expression parser, with the private steps a subclass replaces given names.

    Override `parse_primary_expr` (a primary: `(e)`, id, integer, `-primary`), `create_binary_expr`
    (what `lhs <op> rhs` builds) or `parse_constraint_expr` (one `e >= e` / `e <= e` / `e == e` of a
    set); each defaults to xDSL's own step. `parse_expr` parses a whole expression. Start one where
    another parser stands with `at(parser)`.
    """

    @classmethod
    def at(cls, parser: Any) -> AffineParserBase:
        """A parser of this class reading on from where `parser` is (they share lexer and position)."""
        return cls(parser._parser_state)

    def parse_expr(self, parse_optional_bare_id: Callable[[], Any]) -> Any:
        return self._parse_affine_expr(parse_optional_bare_id)

    def parse_primary_expr(self, parse_optional_bare_id: Callable[[], Any]) -> Any:
        return super()._parse_primary(parse_optional_bare_id)

    def create_binary_expr(self, lhs: Any, rhs: Any, binop: Any) -> Any:
        return super()._create_binop_expr(lhs, rhs, binop)

    def parse_constraint_expr(self, parse_optional_bare_id: Callable[[], Any]) -> Any:
        return super()._parse_affine_constraint(parse_optional_bare_id)

    # xDSL 0.74's names for the steps above
    def _parse_primary(self, parse_optional_bare_id):
        return self.parse_primary_expr(parse_optional_bare_id)

    def _create_binop_expr(self, lhs, rhs, binop):
        return self.create_binary_expr(lhs, rhs, binop)

    def _parse_affine_constraint(self, parse_optional_bare_id):
        return self.parse_constraint_expr(parse_optional_bare_id)


# What the parser and the verifier take from the dialects, which sit above this module: installed by
# `dfsched.dialects` when it is imported (every parsing context comes from its `make_context`), so
# compat imports no dialect. "affine_parser": parser -> an AffineParserBase at its position;
# "sparse_literal": parser -> MLIR's `sparse<...>` attribute (after the keyword);
# "verify_attribute": MLIR's verifyOperationAttribute, (op, name, value) -> None or raises.
DIALECT_HOOKS: dict[str, Callable[..., Any]] = {}


class MLIRAffineParsing:
    """Parser mix-in: `affine_map<...>`/`affine_set<...>` parse with MLIR's expression rules
    (semi-affine `d0 * s0`, no distribution of `*`: `dfsched.dialects.affine_ext.MLIRAffineParser`,
    installed as `DIALECT_HOOKS["affine_parser"]`; xDSL's parser without it).

    Use as `class MyParser(MLIRAffineParsing, Parser)`.
    """

    def parse_affine_map(self):
        hook = DIALECT_HOOKS.get("affine_parser")
        return hook(self).parse_affine_map() if hook else super().parse_affine_map()

    def parse_affine_set(self):
        hook = DIALECT_HOOKS.get("affine_parser")
        return hook(self).parse_affine_set() if hook else super().parse_affine_set()


class LinearLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal pattern that runs in linear time.

    xDSL 0.74 matches a string literal with `"(?:[^"\\...]+|\\...)*"`: a `+` inside a `*`,
    which backtracks exponentially when the closing quote is missing (one stray `"` followed
    by 30 characters took 50 s). One character per repetition matches the same strings, and
    each alternative starts with a different character, so a failure is found in one pass."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')

    def __init__(self, input: Input):
        super().__init__(input)
        self.wide_literals: list[tuple[int, int]] = []
        """(start, end) of every integer literal no 64-bit integer holds, for error messages."""

    def lex(self):
        token = super().lex()
        if token.kind == MLIRTokenKind.INTEGER_LIT and len(token.span.text) > 18:
            if abs(token.kind.get_int_value(token.span)) >= 2**63:
                self.wide_literals.append((token.span.start, token.span.end))
        return token


MAX_OP_NESTING = 64
"""Ops nested deeper than this (a module, a function and 62 loops) are a parse error: the
parser, verifier and passes recurse over regions, and Python's stack is bounded."""


class LocatingParser(MLIRAffineParsing, Parser):
    """An xDSL parser that stamps every op with the `file:line:col` it was parsed at.

    Inputs nested too deeply are parse errors located where the nesting goes too deep: ops
    beyond `MAX_OP_NESTING` levels, and any other construct (attributes, affine expressions)
    nested so deeply that parsing it would exhaust Python's stack."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>"):
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(LinearLexer(Input(text, name)))  # the linear lexer, from token 1
        self._file_name = name
        self._line_starts = _line_starts(text)
        self._op_name_starts: list[int] = []
        self._blocks_being_parsed: list[Block] = []

    def _parse_block_body(self, block: Block):
        self._blocks_being_parsed.append(block)
        try:
            super()._parse_block_body(block)
        finally:
            self._blocks_being_parsed.pop()

    def emit_before_current_op(self, op: Operation) -> None:
        """Put `op` into the block being parsed, ahead of the op whose custom parser calls this
        (for a spelling that reads as two ops: `ktdp_spellings.collapse_delivery`)."""
        if not self._blocks_being_parsed or not self._op_name_starts:
            self.raise_error("this op cannot appear outside a block")
        line, col = self.line_col(self._op_name_starts[-1])
        op.location = FileLineColLoc(StringAttr(self._file_name), IntAttr(line), IntAttr(col))
        self._blocks_being_parsed[-1].add_op(op)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except RecursionError:
            start = self._current_token.span.start
            self.raise_error("input nested too deeply to parse", start, start + 1)

    def parse_operation(self) -> Operation:
        depth = len(self._op_name_starts)
        fallback = self._current_token.span.start
        if depth >= MAX_OP_NESTING:
            self.raise_error(f"operations nested more than {MAX_OP_NESTING} levels deep (dfsched's limit)",
                             fallback, self._current_token.span.end)
        try:
            op = super().parse_operation()
        except (VerifyException, ValueError) as exc:
            # Declarative formats verify while parsing (e.g. a wrong operand type), and building
            # an attribute checks its values (a literal too large for i64): report it as a parse
            # error located on the literal to blame, or else at the op.
            start = self._op_name_starts[depth] if len(self._op_name_starts) > depth else fallback
            del self._op_name_starts[depth:]
            self._raise_on_wide_literal(start)
            self.raise_error(str(exc).strip().splitlines()[0], start, start + 1)
        except IndexError:
            # A named op's parser builds its hidden body from its operands (xDSL's linalg named
            # ops index them): too few is a wrong operand count, not an internal error.
            start = self._op_name_starts[depth] if len(self._op_name_starts) > depth else fallback
            del self._op_name_starts[depth:]
            name = self.lexer.input.content[start:].split(None, 1)[0].strip('"')
            self.raise_error(f"'{name}' has the wrong number of operands", start, start + 1)
        start = self._op_name_starts.pop()
        if not isinstance(op.location, FileLineColLoc):
            line, col = self.line_col(start)
            op.location = FileLineColLoc(StringAttr(self._file_name), IntAttr(line), IntAttr(col))
        return op

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        """MLIR's message, with a note at the prior use, when a value is used with another type."""
        prior = self.ssa_values.get(operand.operand_name)
        if prior is not None and operand.index < len(prior) and prior[operand.index].type != type:
            value = prior[operand.index]
            where = operand.span.get_location()
            diag = Diagnostic("error", f"use of value '{operand.span.text}' expects different type than prior "
                              f"uses: '{type}' vs '{value.type}'", where.file, where.line, where.col)
            owner = value.owner if not isinstance(value, BlockArgument) else value.owner.parent_op()
            note = Diagnostic("note", "prior use here", *location_of(owner))
            # An enclosing op still being parsed has no location yet: better no note than a wrong one.
            diag.notes = [note] if note.line is not None else []
            raise DiagnosticError(diag)
        return super().resolve_operand(operand, type)

    def resolve_operands(self, args, input_types, error_pos):
        # A declarative format resolves after the whole op is read: blame the operands, not
        # the token after the op, when there are more or fewer of them than types.
        if args and len(args) != len(input_types):
            error_pos = args[0].span.start
        return super().resolve_operands(args, input_types, error_pos)

    def _parse_op_result_list(self):
        # An op's location is its name, after the results, as in MLIR.
        results = super()._parse_op_result_list()
        self._op_name_starts.append(self._current_token.span.start)
        return results

    def _get_op_by_name(self, name: str):
        op_type = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
        if op_type is None:
            start = self._op_name_starts[-1]
            end = self._current_token.span.start
            self.raise_error(f"unregistered operation '{name}'", start, end)
        return op_type

    def parse_optional_attribute(self) -> Attribute | None:
        # xDSL packs float literals with `struct`, which overflows on a value its type cannot
        # hold (`1.0e65 : f16`): a located error on the literal instead of a crash.
        start = self._current_token.span.start
        try:
            return super().parse_optional_attribute()
        except OverflowError as exc:
            self.raise_error(f"value out of range for its type ({exc})", start, self._current_token.span.start)
        except (VerifyException, ValueError) as exc:
            self._raise_on_wide_literal(start)
            raise exc

    def _raise_on_wide_literal(self, start: int) -> None:
        """A parse error on the first integer literal since `start` that no 64-bit integer holds."""
        end = self._current_token.span.end
        wide = [(s, e) for s, e in self.lexer.wide_literals if start <= s <= end]
        if wide:
            self.raise_error("integer literal out of range: no 64-bit integer holds "
                             f"{self.lexer.input.content[wide[0][0]:wide[0][1]]}", *wide[0])

    def _parse_optional_builtin_parametrized_attr(self) -> Attribute | None:
        # MLIR's `sparse<indices, values> : type` literal, which xDSL 0.74 lacks: device files
        # spell switch connectivity with it, and `--print-op-generic` prints it as MLIR does.
        token = self._current_token
        sparse = DIALECT_HOOKS.get("sparse_literal")
        if sparse and token.kind == MLIRTokenKind.BARE_IDENT and token.span.text == "sparse":
            self._consume_token(MLIRTokenKind.BARE_IDENT)
            return sparse(self)
        return super()._parse_optional_builtin_parametrized_attr()

    def line_col(self, offset: int) -> tuple[int, int]:
        return _line_col(self._line_starts, offset)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def _line_col(line_starts: list[int], offset: int) -> tuple[int, int]:
    """1-based line and column of `offset`, given the offsets at which lines start."""
    import bisect

    idx = bisect.bisect_right(line_starts, offset) - 1
    return idx + 1, offset - line_starts[idx] + 1


def parse_error_diagnostic(exc: ParseError, file: str, text: str) -> Diagnostic:
    """Turn xDSL's ParseError into a located diagnostic."""
    line, col = _line_col(_line_starts(text), exc.span.start)
    msg = exc.msg if hasattr(exc, "msg") else str(exc)
    return Diagnostic("error", str(msg).strip(), file, line, col)


def verify_module(root: Operation) -> None:
    """Verify `root` and everything nested, raising a located error on the first bad op.

    xDSL's own `verify()` reports failures without a source position; we verify op by op
    (nested ops first, as MLIR does) so the error names the innermost offending op. Then
    every operand must dominate its use (`verify_dominance`), which xDSL does not check.
    """
    if _operands_in_scope(root):  # dominance and isolation hold: skip both checks' own walks
        _SCOPES_VERIFIED.on = True
        try:
            _verify_ops(root)
        finally:
            _SCOPES_VERIFIED.on = False
        return
    _verify_ops(root)  # something is out of scope: the full checks, in their order, name it
    verify_dominance(root)


class VerifyWhenChanged:
    """`verify_module` after a pass, skipped when the pass left the IR as it was last verified.

    MLIR skips the verifier after a pass that preserved all analyses, since it cannot have
    changed the IR; here the IR itself says so: `ir_fingerprint` lists every object the
    verifiers read, and a pass that leaves each of them in place (the same objects, compared by
    identity: attributes are immutable) leaves a module that verifies as it did. Half of the
    passes of a small kernel's pipeline find nothing to do (Decision 116).
    """

    def __init__(self) -> None:
        self._verified: list[object] | None = None

    def __call__(self, root: Operation) -> None:
        fingerprint = ir_fingerprint(root)
        last = self._verified
        if last is not None and len(last) == len(fingerprint) and all(map(operator.is_, last, fingerprint)):
            return
        self._verified = None
        verify_module(root)
        self._verified = fingerprint


_PROPERTIES, _ATTRIBUTES, _REGION, _BLOCK, _END = object(), object(), object(), object(), object()  # marks


def ir_fingerprint(root: Operation) -> list[object]:
    """Each op, its operand tuple, result types, properties, attributes, successors, regions,
    blocks, block argument tuples and their types, in walk order with section marks."""
    out: list[object] = []
    append = out.append
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        if op is _END or op is _BLOCK:
            append(op)
            continue
        append(op)
        append(op._operands)  # noqa: SLF001 (a new tuple whenever an operand changes)
        append(op._successors)  # noqa: SLF001
        out.extend(result.type for result in op.results)
        append(_PROPERTIES)
        for item in op.properties.items():
            out.extend(item)
        append(_ATTRIBUTES)
        for item in op.attributes.items():
            out.extend(item)
        nested: list[Operation] = []
        for region in op.regions:
            append(_REGION)
            for block in region.blocks:
                append(block)
                append(block._args)  # noqa: SLF001 (a new tuple whenever an argument comes or goes)
                out.extend(arg.type for arg in block.args)
                nested.append(_BLOCK)
                nested.extend(block.ops)
        stack.append(_END)
        stack.extend(reversed(nested))
    return out


# While `on` (in this thread: `dfsched.compile` may verify in several), the verifier of
# `fast_isolated_from_above` has nothing to check.
_SCOPES_VERIFIED = threading.local()


def _operands_in_scope(root: Operation) -> bool:
    """Whether every operand is visible where it is used without crossing blocks, and defined
    inside the nearest `IsolatedFromAbove` op around its use: then `verify_dominance` and every
    `IsolatedFromAbove` verifier pass, and one walk replaces both (a grid-wide function holds
    thousands of mapping operands, verified after every pass). False when anything needs a
    closer look (a use across blocks, an unregistered op with regions, a real violation): the
    full checks run then and give their own errors."""
    from xdsl.dialects.builtin import UnregisteredOp

    for op, visible in _ops_in_scope(root, isolate=True):
        if any(id(operand) not in visible for operand in op._operands):  # noqa: SLF001 (the tuple)
            return False
        if op.regions and isinstance(op, UnregisteredOp):
            return False
    return True


_ISOLATED_TYPES: dict[type, bool] = {}


def _is_isolated(op: Operation) -> bool:
    """`op.has_trait(IsolatedFromAbove)`, asked once per registered class."""
    from xdsl.dialects.builtin import UnregisteredOp
    from xdsl.traits import IsolatedFromAbove

    kind = type(op)
    known = _ISOLATED_TYPES.get(kind)
    if known is None:
        known = op.has_trait(IsolatedFromAbove)
        if not isinstance(op, UnregisteredOp):
            _ISOLATED_TYPES[kind] = known
    return known


def _verify_ops(root: Operation) -> None:
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                if not _valid_by_shape(op):
                    _verify_ops(op)
    try:
        _verify_dialect_attributes(root)
        root.verify(verify_nested_ops=False)
    except DiagnosticError:
        raise
    except (VerifyException, ValueError) as exc:
        message = str(exc).strip()
        if message.startswith("Operation does not verify: "):
            message = message[len("Operation does not verify: ") :]
        raise error(root, f"'{root.name}' op {message}") from exc


def _valid_by_shape(op: Operation) -> bool:
    """The ops a grid repeats per core (`dataflow.get_unit`, an index `arith.constant`) in the one
    shape their verifiers accept: checked here in a few comparisons instead of the generic
    verifier's constraint walk, which the pipeline runs after every pass on every op."""
    if op.name == "uniform.def_immutable_mapping":
        return _valid_mapping(op)
    # The tuples, not xDSL's per-call views (`operands`, `successors` build one per call).
    if op._operands or op.regions or op._successors or op._next_op is None:  # noqa: SLF001 (last: a terminator?)
        return False
    if op.name == "arith.constant":
        value = op.properties.get("value")
        return (not op.attributes and len(op.properties) == 1 and isinstance(value, IntegerAttr)
                and isinstance(value.type, IndexType) and len(op.results) == 1
                and isinstance(op.results[0].type, IndexType))
    if op.name == "dataflow.get_unit":
        return (len(op.properties) == 2 and isinstance(op.properties.get("name"), StringAttr)
                and isinstance(op.properties.get("type"), StringAttr)
                and all(key in ("core", "corelet") and isinstance(value, IntegerAttr)
                        for key, value in op.attributes.items())
                and len(op.results) >= 1 and all(isinstance(r.type, IndexType) for r in op.results))
    return False


LIVE_VALUE_CLASSES = frozenset({OpResult, BlockArgument})
"""The classes of a value that is not erased: asked before the ABC's slow `isinstance`."""


def _valid_mapping(op: Operation) -> bool:
    """A `uniform.def_immutable_mapping` (a grid-wide one has two operands per core) in the shape
    its generic verifier accepts: one `index` result, an i32 `operandSegmentSizes` property of
    two counts covering the operands, no erased operand, not last in its block, and its own
    `verify_`. Anything else takes the full verifier, which words the error."""
    sizes = op.properties.get("operandSegmentSizes")
    if (op.attributes or len(op.properties) != 1 or op.regions or op._successors or op._next_op is None  # noqa: SLF001
            or not isinstance(sizes, DenseArrayBase) or sizes.elt_type != i32
            or len(op.results) != 1 or not isinstance(op.results[0].type, IndexType)):
        return False
    counts = sizes.get_values()
    operands = op._operands  # noqa: SLF001 (the tuple)
    if len(counts) != 2 or counts[0] < 0 or counts[1] < 0 or counts[0] + counts[1] != len(operands):
        return False
    if not set(map(type, operands)) <= LIVE_VALUE_CLASSES:  # none erased
        return False
    try:
        op.verify_()
    except VerifyException:
        return False
    return True


def verify_dominance(root: Operation) -> None:
    """MLIR's dominance rule: a value is used only where its definition dominates the use.

    A block argument is visible in its block and what is nested in it; an op's result in the
    ops after it in its block (not in its own regions). Across blocks of one region, block
    dominance decides. The body of `builtin.module` is a graph region (no order). The walk is
    iterative, one pass over the IR; the error is located on the use, with a note on the
    definition."""
    for op, visible in _ops_in_scope(root, isolate=False):
        for index, operand in enumerate(op._operands):  # noqa: SLF001 (the tuple, not a view)
            if id(operand) not in visible and not _dominates_across_blocks(operand, op):
                raise _dominance_error(op, index, operand)


def _ops_in_scope(root: Operation, isolate: bool) -> Iterator[tuple[Operation, set[int]]]:
    """Every op under `root` (itself first) in order, with the ids of the values in scope
    there (ids: SSAValue's hash is a Python call, and a grid has many values): the arguments
    of the blocks around it and the results of the ops before it in them (all results in the
    graph region of `builtin.module`), not its own results. With `isolate`, the regions of an
    `IsolatedFromAbove` op start with nothing in scope. One iterative walk."""
    scopes: list[set[int]] = [set()]
    stack: list[Any] = [iter([("op", root)])]
    while stack:
        event = next(stack[-1], None)
        if event is None:
            stack.pop()
            continue
        kind, item = event
        visible = scopes[-1]
        if kind == "op":
            yield item, visible
            if not item.regions:
                visible.update(map(id, item.results))
                continue
            blocks = [("block", block) for region in item.regions for block in region.blocks]
            if isolate and _is_isolated(item):
                blocks = [("enter", None), *blocks, ("leave", None)]
            stack.append(iter([*blocks, ("results", item)]))
        elif kind == "block":
            visible.update(map(id, item.args))
            if isinstance(item.parent_op(), ModuleOp):  # a graph region: every result, in any order
                visible.update(id(r) for op in item.ops for r in op.results)
            stack.append(iter([*(("op", op) for op in item.ops), ("forget", item)]))
        elif kind == "results":
            visible.update(map(id, item.results))
        elif kind == "enter":
            scopes.append(set())
        elif kind == "leave":
            scopes.pop()
        else:  # "forget": the block is done, its values go out of scope
            visible.difference_update(map(id, item.args))
            visible.difference_update(id(r) for op in item.ops for r in op.results)


def _dominates_across_blocks(value: SSAValue, user: Operation) -> bool:
    """Whether `value`, defined in another block of a region enclosing `user`, dominates it."""
    block = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()
    region = block.parent if block is not None else None
    if region is None or len(region.blocks) < 2:
        return False
    node: Operation | None = user
    while node is not None:
        holder = node.parent_block()
        if holder is not None and holder.parent is region:
            if holder is block:
                return False  # the same block: order decides, and the walk has seen it
            if not _reachable(region, holder):
                return True  # as MLIR: uses in unreachable blocks are not checked
            info = _dominance_info(region)
            return info.dominates(block, holder) if isinstance(value, BlockArgument) \
                else info.strictly_dominates(block, holder)
        node = node.parent_op()
    return False


def _reachable(region, target: Block) -> bool:
    """Whether `target` can be reached from the region's entry block along successors."""
    seen = {region.blocks[0]}
    todo = [region.blocks[0]]
    while todo:
        block = todo.pop()
        if block is target:
            return True
        last = block.last_op
        for succ in (last.successors if last is not None else ()):
            if succ not in seen:
                seen.add(succ)
                todo.append(succ)
    return False


def _dominance_info(region):
    return __getattr__("DominanceInfo")(region)


def _dominance_error(user: Operation, index: int, value: SSAValue) -> DiagnosticError:
    definer = value.owner if isinstance(value.owner, Operation) else value.block.parent_op()
    if definer is None:
        return error(user, f"operand #{index} does not dominate this use")
    return error(user, f"operand #{index} does not dominate this use", [(definer, "operand defined here")])


def _verify_dialect_attributes(op: Operation) -> None:
    """MLIR's `verifyOperationAttribute`: a dialect checks its discardable attributes on any op."""
    hook = DIALECT_HOOKS.get("verify_attribute")
    if hook is not None:
        for name, value in op.attributes.items():
            hook(op, name, value)


def op_name(op: Operation) -> str:
    """The op's name, also for unregistered ops (which xDSL names `builtin.unregistered`)."""
    real = getattr(op, "op_name", None) if op.name == "builtin.unregistered" else None
    return real.data if real is not None else op.name


# ---------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------


class PrinterBase(Printer):
    """xDSL's Printer, with the private steps a printing subclass replaces or calls given names.

    Steps xDSL calls, each defaulting to xDSL's own: `print_new_line` (every line break, also
    those inside `print_string`), `print_op_results` (`%a, %b = ` before an op), `block_name`
    (a block's name, assigned on first use) and `print_op_properties` (` <{...}>`). Helpers:
    `current_column`, `add_message_on_next_line` (a diagnostic under the current line) and
    `print_attr_entry` (one `name = value` of a dictionary).
    """

    def print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        super()._print_new_line(indent, print_message)

    def print_op_results(self, op: Operation) -> None:
        super()._print_results(op)

    def block_name(self, block: Block) -> str:
        return super()._get_block_name(block)

    def print_op_properties(self, properties: dict[str, Attribute]) -> None:
        super()._print_op_properties(properties)

    @property
    def current_column(self) -> int:
        return self._current_column

    def add_message_on_next_line(self, message: str, begin: int, end: int) -> None:
        self._add_message_on_next_line(message, begin, end)

    def print_attr_entry(self, entry: tuple[str, Attribute]) -> None:
        self._print_attr_string(entry)

    # xDSL 0.74's names for the steps above
    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        self.print_new_line(indent, print_message)

    def _print_results(self, op: Operation) -> None:
        self.print_op_results(op)

    def _get_block_name(self, block: Block) -> str:
        return self.block_name(block)

    def _print_op_properties(self, properties: dict[str, Attribute]) -> None:
        self.print_op_properties(properties)


def value_names(printer: Printer) -> dict[SSAValue, str]:
    """The names (without `%`) a plain xDSL printer has given SSA values so far; writable."""
    return printer._ssa_values


def indented(printer: Printer, amount: int = 1) -> AbstractContextManager[None]:
    """Within the context, line breaks `printer` prints indent `amount` more levels."""
    return printer.indented(amount)


# ---------------------------------------------------------------------------
# Interpreting
# ---------------------------------------------------------------------------


def _interpreter_base():
    from xdsl.interpreter import Interpreter, InterpretationError, OpImplResult, PythonValues, ReturnedValues

    class InterpreterBase(Interpreter):
        """xDSL's Interpreter, with its per-op step given a name: `interpret_op(op, inputs)` runs
        one op (`run_op` and region execution go through it); it defaults to xDSL's own step.

        Region execution is xDSL's (the first block runs; a terminator returns values or
        branches to a successor), made cheaper for long runs:

        * values live in one flat table keyed by the SSA value's identity instead of a chain
          of scopes: in verified SSA IR a value is only read where its definition dominates,
          so dropping a region's values when it ends changes nothing. A region re-entered
          while it runs (recursion) saves and restores the values defined inside it, as a
          new scope would;
        * each block's ops, operands and results are listed once per interpreter (the IR
          must not change while an interpreter runs it).
        """

        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self._values: dict[int, Any] = {}
            self._plans: dict[int, Any] = {}  # id(block) -> (block, arg ids, steps)
            self._active: dict[int, int] = {}  # id(region) -> how many runs of it are under way

        def interpret_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
            return super()._run_op(op, inputs)

        # xDSL 0.74's name for the step above
        def _run_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
            return self.interpret_op(op, inputs)

        # -- values ---------------------------------------------------------------------

        def get_values(self, values) -> tuple[Any, ...]:
            table = self._values
            try:
                return tuple([table[id(v)] for v in values])
            except KeyError:
                for v in values:
                    if id(v) not in table:
                        raise KeyError(f"No value for key {v}") from None
                raise

        def set_values(self, pairs) -> None:
            table = self._values
            for value, python_value in pairs:
                table[id(value)] = python_value

        def push_scope(self, name: str | None = None) -> None:
            pass

        def pop_scope(self) -> None:
            pass

        def reset_values(self, pairs) -> None:
            """Forget every value, then bind `pairs` (SSA value, Python value)."""
            self._values.clear()
            self.set_values(pairs)

        # -- regions --------------------------------------------------------------------

        def _plan(self, block: Block):
            steps = tuple(
                (op, tuple(id(v) for v in op.operands), tuple(id(r) for r in op.results)) for op in block.ops
            )
            plan = (block, tuple(id(a) for a in block.args), steps)
            self._plans[id(block)] = plan
            return plan

        def _defined_in(self, region) -> list[int]:
            ids: list[int] = []
            for block in region.blocks:
                ids.extend(id(a) for a in block.args)
                for op in block.walk():
                    ids.extend(id(r) for r in op.results)
                    for inner in op.regions:
                        for b in inner.blocks:
                            ids.extend(id(a) for a in b.args)
            return ids

        def run_ssacfg_region(self, region, args: PythonValues, name: str = "unknown") -> PythonValues:
            block = region.blocks.first
            if block is None:
                return ()
            key = id(region)
            active = self._active
            depth = active.get(key, 0)
            saved = None
            table = self._values
            if depth:  # re-entered (recursion): keep the outer run's values
                saved = {}
                for k in self._defined_in(region):
                    if k in table:
                        saved[k] = table.pop(k)
            active[key] = depth + 1
            try:
                return self._run_blocks(block, args)
            finally:
                if depth:
                    active[key] = depth
                    for k in self._defined_in(region):
                        table.pop(k, None)
                    table.update(saved)
                else:
                    del active[key]

        def _run_blocks(self, block: Block, args: PythonValues) -> PythonValues:
            table = self._values
            plans = self._plans
            interpret = self.interpret_op
            while True:
                plan = plans.get(id(block))
                if plan is None or plan[0] is not block:
                    plan = self._plan(block)
                for k, v in zip(plan[1], args):
                    table[k] = v
                for op, operands, results in plan[2]:
                    try:
                        inputs = tuple([table[k] for k in operands])
                    except KeyError:
                        inputs = self.get_values(op.operands)
                    result = interpret(op, inputs)
                    values = result.values
                    if len(values) != len(results):
                        raise InterpretationError(
                            f"Incorrect number of results for op {op.name}, expected {len(results)} but got "
                            f"{len(values)}"
                        )
                    for k, v in zip(results, values):
                        table[k] = v
                    terminator = result.terminator_value
                    if terminator is not None:
                        if isinstance(terminator, ReturnedValues):
                            return terminator.values
                        block, args = terminator
                        break
                else:
                    return ()

    InterpreterBase.__qualname__ = "InterpreterBase"
    return InterpreterBase


def op_implementations(interpreter: Any) -> Mapping[type[Operation], tuple[Any, Callable[..., Any]]]:
    """An xDSL interpreter's dispatch table: op class -> (functions object, implementation), where
    `implementation(functions, interpreter, op, inputs)` returns an `OpImplResult`."""
    return interpreter._impls._impl_dict


class PDLRewriteRunner:
    """xDSL's PDL interpreter driven step by step: match a root op, then run the rewrite region.

    xDSL 0.74's `PDLRewritePattern` does both at once; between them dfsched checks native
    constraints (with results and negation) and binds constants. The `pdl.pattern` holding
    `rewrite` must sit directly in a `builtin.module`.
    """

    def __init__(self, rewrite: Operation, ctx: Context):
        from xdsl.interpreters.pdl import PDLRewritePattern

        pattern = PDLRewritePattern(rewrite, ctx)  # type: ignore[arg-type]
        self.rewrite = rewrite
        self._interpreter = pattern.interpreter
        self._functions = pattern.functions

    def register(self, functions: Any) -> None:
        """Add op implementations to the interpreter (e.g. `pdl.apply_native_rewrite`)."""
        self._interpreter.register_implementations(functions)

    @property
    def rewriter(self) -> PatternRewriter:
        """The rewriter of the rewrite being run."""
        return self._functions.rewriter

    @staticmethod
    def match(root: SSAValue, op: Operation):
        """A `PDLMatcher` holding the values bound by matching the `pdl.operation` `root` against
        `op` (`matching_context`, `get_constant_or_matched_value`), or None when it does not match."""
        from xdsl.interpreters.pdl import PDLMatcher

        matcher = PDLMatcher()
        return matcher if matcher.match_operation(root, root.owner, op) else None  # type: ignore[arg-type]

    def run(self, bindings: Mapping[SSAValue, Any], rewriter: PatternRewriter) -> None:
        """Run the rewrite region with the matched `bindings` (may raise InterpretationError)."""
        interpreter = self._interpreter
        interpreter.push_scope("rewrite")
        try:
            interpreter.set_values(bindings.items())
            self._functions.rewriter = rewriter
            interpreter.run_ssacfg_region(self.rewrite.body, ())  # type: ignore[attr-defined]
        finally:
            interpreter.pop_scope()


# ---------------------------------------------------------------------------
# Passes
# ---------------------------------------------------------------------------


def pass_from_options(pass_class: Any, name: str, options: Mapping[str, tuple]) -> Any:
    """An instance of the ModulePass class `pass_class` with `options` (option -> values), as
    `-p 'name{option=value ...}'` builds it; bad options raise ValueError or TypeError."""
    from xdsl.utils.arg_spec import ArgSpec

    return pass_class.from_spec(ArgSpec(name, dict(options)))


def thread_safe_implicit_builder() -> None:
    """Make xDSL 0.74's `ImplicitBuilder` safe when several threads build ops at once.

    Entering an implicit builder replaces `Operation.__post_init__` for the whole process and
    leaving restores what it saw on entry. Two threads that overlap restore in the wrong order
    and leave a hook installed that inserts every op twice ("Can't add to a block an operation
    already attached to a block", seen when `dfsched.compile` runs on threads). The hook only
    inserts when the calling thread has a builder, so installing it once, for good, is
    equivalent on one thread and correct on many; entering and leaving then change nothing.
    Idempotent. Called by `dfsched.compile`, which callers run on threads; not on import, so
    that importing dfsched changes nothing in xDSL for the rest of the process.
    """
    from xdsl import builder
    from xdsl.ir import Operation

    builder._override_operation_post_init()  # installs the hook (for good: nothing restores it)
    installed = Operation.__post_init__
    builder._override_operation_post_init = lambda: installed


def fast_isolated_from_above() -> None:
    """xDSL 0.74's `IsolatedFromAbove.verify` with the same verdicts, linear in the region.

    xDSL asks `op.is_ancestor(owner)` for every operand (a walk up the parents) and
    `has_trait` for every nested op; the pipeline verifies after every pass, and a grid-wide
    function holds thousands of mapping operands. Here an operand whose defining block was
    already seen inside `op` is accepted at once; anything else gets xDSL's own check.
    Idempotent; installed by the command-line tools and `dfsched.compile` (not on import).
    """
    from xdsl.traits import IsolatedFromAbove

    def verify(self, op: Operation) -> None:
        if getattr(_SCOPES_VERIFIED, "on", False):  # `verify_module` showed every operand inside
            return
        inside: set[int] = set()  # ids of the blocks of `op`'s regions walked so far
        regions = list(op.regions)
        while regions:
            region = regions.pop()
            blocks = region.blocks
            inside.update(id(block) for block in blocks)
            for block in blocks:
                for child_op in block.ops:
                    for operand in child_op._operands:  # noqa: SLF001 (the tuple, not a view)
                        owner = operand.owner
                        home = owner if isinstance(owner, Block) else owner.parent
                        if id(home) in inside:
                            continue
                        if not op.is_ancestor(owner) or owner is op:
                            raise VerifyException(
                                "Operation using value defined out of its "
                                f"IsolatedFromAbove parent: {child_op}")
                    if not _is_isolated(child_op):
                        regions += child_op.regions

    if getattr(IsolatedFromAbove.verify, "dfsched_fast", False):
        return
    verify.dfsched_fast = True  # type: ignore[attr-defined]
    IsolatedFromAbove.verify = verify


def _ops_of(block: Block) -> Iterator[Operation]:
    """`block.ops` as xDSL iterates it (the next op is read before the current one is handed
    out, so the caller may erase or move the current op), as one generator."""
    op = block._first_op  # noqa: SLF001
    while op is not None:
        following = op._next_op  # noqa: SLF001
        yield op
        op = following


def _nested_ops(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            yield from _ops_of(block)


def _walk(top: Iterator[Operation], region_first: bool, owner: Operation | None = None) -> Iterator[Operation]:
    """The ops `top` yields and everything nested in them, pre-order (`region_first`: post-order),
    lazily as xDSL's recursive walk: an op's regions are read after it is handed out (pre-order)
    or when its turn comes (post-order). One frame per nesting level on an explicit stack instead
    of three nested generators per level, which every yielded op passed through."""
    stack: list[tuple[Operation | None, Iterator[Operation]]] = [(owner, top)]
    while stack:
        parent, ops = stack[-1]
        for op in ops:
            if region_first:
                if op.regions:
                    stack.append((op, _nested_ops(op)))
                    break
                yield op
            else:
                yield op
                if op.regions:
                    stack.append((op, _nested_ops(op)))
                    break
        else:
            stack.pop()
            if region_first and parent is not None:
                yield parent


def fast_walks() -> None:
    """xDSL 0.74's forward walks (`Operation/Region/Block.walk`) and block iteration, yielding the
    same ops in the same order, in time linear in the ops walked.

    xDSL's walk nests three generators per level of IR (op, region, block), and each op walked
    passes through all of them: a grid's units sit six levels deep, and the pipeline walks them
    dozens of times (issue 19, grid scaling). Reverse walks keep xDSL's code. Idempotent;
    installed by the command-line tools and `dfsched.compile` (not on import).
    """
    from xdsl.ir.core import BlockOps

    if getattr(Operation.walk, "dfsched_fast", False):
        return
    xdsl_walks = {cls: cls.walk for cls in (Operation, Region, Block)}

    def op_walk(self, *, reverse: bool = False, region_first: bool = False):
        if reverse:
            return xdsl_walks[Operation](self, reverse=reverse, region_first=region_first)
        return _walk(iter((self,)), region_first)

    def region_walk(self, *, reverse: bool = False, region_first: bool = False):
        if reverse:
            return xdsl_walks[Region](self, reverse=reverse, region_first=region_first)
        return _walk((op for block in self.blocks for op in _ops_of(block)), region_first)

    def block_walk(self, *, reverse: bool = False, region_first: bool = False):
        if reverse:
            return xdsl_walks[Block](self, reverse=reverse, region_first=region_first)
        return _walk(_ops_of(self), region_first)

    for walk in (op_walk, region_walk, block_walk):
        walk.dfsched_fast = True  # type: ignore[attr-defined]
    Operation.walk, Region.walk, Block.walk = op_walk, region_walk, block_walk  # type: ignore[method-assign]
    BlockOps.__iter__ = lambda self: _ops_of(self.block)  # type: ignore[method-assign]
    BlockOps.__len__ = lambda self: sum(1 for _ in _ops_of(self.block))  # type: ignore[method-assign]


# ---------------------------------------------------------------------------
# Use replacement
# ---------------------------------------------------------------------------


def replace_all_uses_in_bulk(replacements: list[tuple[SSAValue, SSAValue]]) -> None:
    """`old.replace_all_uses_with(new)` for each pair, in order, with the same use lists and name
    hints as a result, but each user's operand tuple rebuilt once: xDSL rebuilds the whole tuple
    per replaced operand, quadratic for the thousands of constants a grid-wide mapping uses."""
    from xdsl.ir.core import SSAValues

    pending: dict[Operation, dict[int, SSAValue]] = {}
    for old, new in replacements:
        if old is new:
            continue
        for use in tuple(old.uses):
            old.remove_use(use)
            new.add_use(use)
            pending.setdefault(use.operation, {})[use.index] = new
        if new.name_hint is None:
            new.name_hint = old.name_hint
    for user, changes in pending.items():
        operands = list(user._operands)  # noqa: SLF001 (what OpOperands.__setitem__ rebuilds)
        for index, value in changes.items():
            operands[index] = value
        user._operands = SSAValues(operands)  # noqa: SLF001
