"""Located diagnostics: `file:line:col: error: ...`, and MLIR's `--verify-diagnostics`.

Every op the parser builds carries a `FileLineColLoc` (see `compat.LocatingParser`), so any
verifier or pass can report an error on the op it is looking at. Passes raise
`DiagnosticError` through `error(op, message)`; the driver formats it with the source line
and a caret, or matches it against `expected-*` comments.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation


# Pass names given to `--debug-only`: passes print their debug lines to stderr when named here.
DEBUG_ONLY: set[str] = set()


def debug_enabled(name: str) -> bool:
    """Whether `--debug-only` names `name` (`DEBUG_ONLY`; when it is empty, the environment
    variable `DFSCHED_DEBUG_ONLY`, comma separated names, does the same)."""
    names = DEBUG_ONLY or os.environ.get("DFSCHED_DEBUG_ONLY", "")
    if isinstance(names, str):
        names = names.split(",")
    return name in {str(n).strip() for n in names}


def debug_line(name: str, message: str, depth: int = 1) -> None:
    """One of upstream's `LDBG` lines on stderr, `[name file.py:line 1] message`, printed when
    `debug_enabled(name)`. `file.py:line` is where the code `depth` calls up stands (1: the caller)."""
    if debug_enabled(name):
        frame = sys._getframe(depth)
        print(f"[{name} {os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno} 1] {message}", file=sys.stderr)


@dataclass
class Diagnostic:
    severity: str  # "error" | "warning" | "note" | "remark"
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    notes: list["Diagnostic"] = field(default_factory=list)
    show_source: bool = True  # False: never quote the line (a file that is not MLIR)

    def render(self, sources: "SourceManager | None" = None) -> str:
        where = f"{self.file}:{self.line}:{self.col}: " if self.line is not None else ""
        text = f"{where}{self.severity}: {self.message}"
        if sources is not None and self.line is not None and self.show_source:
            src = sources.line(self.file, self.line)
            if src is not None:
                text += f"\n{src}\n{' ' * max(0, (self.col or 1) - 1)}^"
        for note in self.notes:
            text += "\n" + note.render(sources)
        return text


class DiagnosticError(Exception):
    """An error located on an op (or a source position); the driver reports it."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def location_of(op: Operation | None) -> tuple[str | None, int | None, int | None]:
    """The innermost file:line:col known for `op`, walking up to its parents."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return loc.filename.data, loc.line.data, loc.column.data
        op = op.parent_op()
    return None, None, None


def loc_text(op: Operation) -> str:
    """`op`'s location as MLIR prints it in debug output: `loc("file":line:col)` or `loc(unknown)`."""
    file, line, col = location_of(op)
    return f'loc("{file}":{line}:{col})' if line is not None else "loc(unknown)"


def make_diagnostic(op: Operation | None, message: str, severity: str = "error") -> Diagnostic:
    file, line, col = location_of(op)
    return Diagnostic(severity, message, file, line, col)


def error(op: Operation | None, message: str, notes: list[tuple[Operation | None, str]] = ()) -> DiagnosticError:
    """Build a located error; use as `raise error(op, "...")`."""
    diag = make_diagnostic(op, message)
    diag.notes = [make_diagnostic(o, m, "note") for o, m in notes]
    return DiagnosticError(diag)


class SourceManager:
    """Remembers input texts so diagnostics can show the offending line."""

    def __init__(self):
        self._files: dict[str, list[str]] = {}

    def add(self, name: str, text: str) -> None:
        self._files[name] = text.splitlines()

    def line(self, name: str | None, line: int) -> str | None:
        lines = self._files.get(name or "")
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]


# ---------------------------------------------------------------------------
# --verify-diagnostics
# ---------------------------------------------------------------------------

_EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)(-re)?\s*(@(?:above|below|unknown|[+-]\d+|\d+))?\s*(\*)?\s*\{\{(.*)\}\}"
)


@dataclass
class Expectation:
    severity: str
    pattern: str
    is_regex: bool
    line: int  # absolute line the diagnostic must be reported at (0: any line, -1: no location)
    comment_line: int
    seen: bool = False

    def matches(self, diag: Diagnostic) -> bool:
        if diag.severity != self.severity:
            return False
        if self.line == -1 and diag.line is not None:
            return False
        if self.line > 0 and diag.line != self.line:
            return False
        if self.is_regex:
            return _mlir_regex(self.pattern).search(diag.message) is not None
        return self.pattern in diag.message


def _mlir_regex(pattern: str) -> re.Pattern[str]:
    """MLIR's `-re` syntax: literal text with `{{regex}}` pieces."""
    out, pos = [], 0
    for m in re.finditer(r"\{\{(.*?)\}\}", pattern):
        out.append(re.escape(pattern[pos : m.start()]))
        out.append(m.group(1))
        pos = m.end()
    out.append(re.escape(pattern[pos:]))
    return re.compile("".join(out))


def parse_expectations(text: str, first_line: int = 1) -> list[Expectation]:
    """Collect `// expected-error @below {{...}}` style comments of one buffer."""
    lines = text.splitlines()
    result: list[Expectation] = []
    pending_below: list[Expectation] = []
    for idx, src in enumerate(lines):
        lineno = first_line + idx
        code = src.split("//", 1)[0].strip()
        if code and pending_below:
            for exp in pending_below:
                exp.line = lineno
            pending_below = []
        for m in _EXPECTED.finditer(src):
            severity, regex, where, _, msg = m.groups()
            exp = Expectation(severity, msg, bool(regex), lineno, lineno)
            if where == "@above":
                exp.line = _previous_code_line(lines, idx, first_line)
            elif where == "@unknown":
                exp.line = -1
            elif where == "@below":
                pending_below.append(exp)
            elif where and where[1] in "+-":
                exp.line = lineno + int(where[1:])
            elif where:
                exp.line = int(where[1:])
            elif where is None and m.group(4):
                exp.line = 0
            result.append(exp)
    return result


def _previous_code_line(lines: list[str], idx: int, first_line: int) -> int:
    for j in range(idx - 1, -1, -1):
        if lines[j].split("//", 1)[0].strip():
            return first_line + j
    return first_line + idx


def check_expectations(expected: list[Expectation], produced: list[Diagnostic], file: str) -> list[str]:
    """Match produced diagnostics against expectations; return MLIR-style failure lines."""
    problems: list[str] = []
    for diag in produced:
        for item in [diag, *diag.notes]:
            match = next((e for e in expected if not e.seen and e.matches(item)), None)
            if match is None:
                where = f"{file}:{item.line}:{item.col}" if item.line else file
                problems.append(f"{where}: error: unexpected {item.severity}: {item.message}")
            else:
                match.seen = True
    for exp in expected:
        if not exp.seen:
            problems.append(
                f"{file}:{exp.comment_line}: error: expected {exp.severity} "
                f"\"{exp.pattern}\" was not produced"
            )
    return problems
