"""Every xDSL touch-point that may change between xDSL versions (pinned: xdsl==0.74.0).

Upgrading xDSL should mean editing this file and nothing else: the parser hook that records
op locations, the verifier walk, rewriter calls and the linalg base classes live here.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter  # noqa: F401  (re-export)
from xdsl.rewriter import InsertPoint, Rewriter  # noqa: F401  (re-export)
from xdsl.utils.exceptions import ParseError, VerifyException  # noqa: F401  (re-export)

from dfsched.diagnostics import Diagnostic, DiagnosticError, error


def __getattr__(name: str):
    """Lazy re-exports of heavy xDSL modules (linalg costs ~50 ms to import)."""
    if name == "ElementwiseOperation":
        from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation

        return ElementwiseOperation
    raise AttributeError(name)


def _unregistered_ops_are_not_constants() -> None:
    """Unregistered ops claim every trait in xDSL, so canonicalize hoists them out of loops as
    if they were constants; in MLIR an unknown op is never `ConstantLike`."""
    from xdsl.dialects.builtin import UnregisteredOp
    from xdsl.traits import ConstantLike

    original = UnregisteredOp.has_trait.__func__

    def has_trait(cls, trait, *, value_if_unregistered: bool = True) -> bool:
        if trait is ConstantLike or isinstance(trait, ConstantLike):
            return False
        return original(cls, trait, value_if_unregistered=value_if_unregistered)

    UnregisteredOp.has_trait = classmethod(has_trait)


_unregistered_ops_are_not_constants()


class LocatingParser(Parser):
    """An xDSL parser that stamps every op with the `file:line:col` it was parsed at."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>"):
        super().__init__(ctx, text, name)
        self._file_name = name
        self._line_starts = _line_starts(text)
        self._op_name_starts: list[int] = []

    def parse_operation(self) -> Operation:
        depth = len(self._op_name_starts)
        fallback = self._current_token.span.start
        try:
            op = super().parse_operation()
        except VerifyException as exc:
            # Declarative formats verify while parsing (e.g. a wrong operand type): report it
            # as a parse error located at the op.
            start = self._op_name_starts[depth] if len(self._op_name_starts) > depth else fallback
            del self._op_name_starts[depth:]
            self.raise_error(str(exc).strip().splitlines()[0], start, start + 1)
        start = self._op_name_starts.pop()
        if not isinstance(op.location, FileLineColLoc):
            line, col = self.line_col(start)
            op.location = FileLineColLoc(StringAttr(self._file_name), IntAttr(line), IntAttr(col))
        return op

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

    def parse_affine_map(self):
        # MLIR's rules for affine expressions (semi-affine `d0 * s0`, no distribution of `*`).
        from dfsched.dialects.affine_ext import MLIRAffineParser

        return MLIRAffineParser(self._parser_state).parse_affine_map()

    def parse_affine_set(self):
        from dfsched.dialects.affine_ext import MLIRAffineParser

        return MLIRAffineParser(self._parser_state).parse_affine_set()

    def line_col(self, offset: int) -> tuple[int, int]:
        import bisect

        idx = bisect.bisect_right(self._line_starts, offset) - 1
        return idx + 1, offset - self._line_starts[idx] + 1


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def parse_error_diagnostic(exc: ParseError, file: str, text: str) -> Diagnostic:
    """Turn xDSL's ParseError into a located diagnostic."""
    span = exc.span
    starts = _line_starts(text)
    import bisect

    idx = bisect.bisect_right(starts, span.start) - 1
    msg = exc.msg if hasattr(exc, "msg") else str(exc)
    return Diagnostic("error", str(msg).strip(), file, idx + 1, span.start - starts[idx] + 1)


def verify_module(root: Operation) -> None:
    """Verify `root` and everything nested, raising a located error on the first bad op.

    xDSL's own `verify()` reports failures without a source position; we verify op by op
    (nested ops first, as MLIR does) so the error names the innermost offending op.
    """
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                verify_module(op)
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


def _verify_dialect_attributes(op: Operation) -> None:
    """MLIR's `verifyOperationAttribute`: a dialect checks its discardable attributes on any op.

    A dialect module opts in by defining `verify_operation_attribute(op, name, value)`.
    """
    import importlib

    from dfsched.dialects import DIALECTS

    for name, value in op.attributes.items():
        dialect = name.split(".", 1)[0]
        if "." not in name or dialect not in DIALECTS:
            continue
        module = importlib.import_module(DIALECTS[dialect][0])
        hook = getattr(module, "verify_operation_attribute", None)
        if hook is not None:
            hook(op, name, value)


def new_context(allow_unregistered: bool = False) -> Context:
    return Context(allow_unregistered=allow_unregistered)


def module_of(op: Operation) -> ModuleOp:
    while not isinstance(op, ModuleOp) or op.parent_op() is not None:
        parent = op.parent_op()
        if parent is None:
            break
        op = parent
    assert isinstance(op, ModuleOp)
    return op
