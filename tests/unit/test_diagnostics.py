"""Expected-diagnostic parsing and matching (`--verify-diagnostics`)."""

from dfsched.diagnostics import Diagnostic, check_expectations, parse_expectations

SOURCE = """\
// expected-error @below {{below}}
op.a
op.b // expected-warning {{same line}}
op.c
// expected-note @above {{above}}
// expected-error @-2 {{minus two}}
// expected-error-re @+1 {{value {{[0-9]+}} too big}}
op.d
"""


def test_expectation_lines():
    got = [(e.severity, e.pattern, e.line) for e in parse_expectations(SOURCE)]
    assert got == [
        ("error", "below", 2),
        ("warning", "same line", 3),
        ("note", "above", 4),
        ("error", "minus two", 4),
        ("error", "value {{[0-9]+}} too big", 8),
    ]


def test_split_buffers_keep_absolute_lines():
    [exp] = parse_expectations("op\n// expected-error @-1 {{x}}\n", first_line=10)
    assert exp.line == 10


def test_matching_reports_missing_and_unexpected():
    expected = parse_expectations(SOURCE)
    produced = [
        Diagnostic("error", "this is below", "f.mlir", 2, 1),
        Diagnostic("warning", "same line here", "f.mlir", 3, 1),
        Diagnostic("note", "above it", "f.mlir", 4, 1),
        Diagnostic("error", "value 123 too big", "f.mlir", 8, 1),
        Diagnostic("error", "surprise", "f.mlir", 7, 1),
    ]
    problems = check_expectations(expected, produced, "f.mlir")
    assert problems == [
        "f.mlir:7:1: error: unexpected error: surprise",
        "f.mlir:6: error: expected error \"minus two\" was not produced",
    ]


def test_unknown_location_expectation():
    [exp] = parse_expectations("// expected-error@unknown {{no device}}\n")
    assert exp.line == -1
    assert check_expectations([exp], [Diagnostic("error", "no device here")], "f.mlir") == []
    [exp] = parse_expectations("// expected-error@unknown {{no device}}\n")
    located = Diagnostic("error", "no device here", "f.mlir", 3, 1)
    assert len(check_expectations([exp], [located], "f.mlir")) == 2
