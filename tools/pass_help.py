"""The pass list of `dfsched-opt --help`, in pipeline order, from the pass classes themselves.

Each pass shows its flag, the first line of its class docstring and its options (the pass
dataclass's fields, with their types and defaults), as `mlir-opt --help` lists its passes.
Passes outside `-ktir-to-dfir` follow, alphabetically. Each pass's rules and options are
described in docs/passes.md. Computed only when help is asked for:
it imports every pass module.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import textwrap

from dfsched import passes, pipeline
from dfsched.tools.pipeline_syntax import parse_pipeline

# xDSL's own passes carry no docstring of their own
_EXTERNAL_SUMMARIES = {
    "cse": "Common subexpression elimination (xDSL's pass).",
    "dce": "Remove ops whose results are unused and that have no side effects (xDSL's pass).",
    "licm": "Hoist side-effect-free, loop-invariant ops out of loops (xDSL's pass).",
}


def pass_class(name: str) -> type:
    module, attr = passes.PASSES[name]
    return getattr(importlib.import_module(module), attr)


def pipeline_passes() -> list[str]:
    """The passes of `-ktir-to-dfir`, first occurrence order."""
    ordered: list[str] = []
    for request in parse_pipeline(",".join(pipeline.KTIR_TO_DFIR)):
        if request.name not in ordered:
            ordered.append(request.name)
    return ordered


def pipeline_order() -> list[str]:
    """Every registered pass: those of `-ktir-to-dfir` in pipeline order, then the rest sorted."""
    ordered = pipeline_passes()
    return ordered + sorted(set(passes.PASSES) - set(ordered))


def summary(name: str) -> str:
    """The first sentence-line of the pass class's own docstring (not dataclass's generated one)."""
    if name in _EXTERNAL_SUMMARIES:
        return _EXTERNAL_SUMMARIES[name]
    cls = pass_class(name)
    doc = cls.__dict__.get("__doc__") or ""
    if doc.startswith(cls.__name__ + "("):  # dataclass's generated signature
        doc = ""
    doc = inspect.cleandoc(doc)
    return doc.splitlines()[0] if doc else ""


@dataclasses.dataclass(frozen=True)
class PassOption:
    name: str  # command-line spelling, `tile-single-loops`
    type: str
    default: object
    help: str = ""  # the first line of the field's docstring


def options(name: str) -> list[PassOption]:
    """The options a pass takes on the command line (its dataclass fields, dashed)."""
    cls = pass_class(name)
    if not dataclasses.is_dataclass(cls):
        return []
    docs = _field_docs(cls)
    return [PassOption(f.name.replace("_", "-"), _type_text(f.type), _default(f), docs.get(f.name, ""))
            for f in dataclasses.fields(cls)]


def _field_docs(cls: type) -> dict[str, str]:
    """Field name -> first line of the string literal written right below the field (in the
    class or the base that declares it: `passes/device_pass.py`'s `device`)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if dataclasses.is_dataclass(klass):
            docs.update(_own_field_docs(klass))
    return docs


def _own_field_docs(cls: type) -> dict[str, str]:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for field, after in zip(body, body[1:]):
        if (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[field.target.id] = inspect.cleandoc(after.value.value).split("\n\n")[0].replace("\n", " ")
    return docs


def _type_text(annotation) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return {"str | None": "string", "str": "string", "bool": "bool", "int": "int",
            "tuple[int, ...]": "list of int", "tuple[str, ...]": "list of string"}.get(text, text)


def _default(f: dataclasses.Field) -> object:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return f.default_factory()  # type: ignore[misc]
    return None


def _default_text(value: object) -> str:
    if value is None or value == "" or value == ():
        return ""
    if isinstance(value, bool):
        return f" (default {'true' if value else 'false'})"
    if isinstance(value, tuple):
        return f" (default {','.join(map(str, value))})"
    return f" (default {value})"


def help_text() -> str:
    """The 'Passes' section of `--help`."""
    in_pipeline = pipeline_passes()
    lines = ["Passes of -ktir-to-dfir, in pipeline order (each pass is also a flag of its own):"]
    for name in pipeline_order():
        if name == next((n for n in pipeline_order() if n not in in_pipeline), None):
            lines += ["", "Other passes:"]
        head = f"  --{name}"
        text = summary(name)
        lines.append(head.ljust(40) + text if len(head) < 39 else head + "\n" + " " * 40 + text)
        for opt in options(name):
            meaning = _first_sentence(opt.help)
            head = f"{opt.name}=<{opt.type}>{_default_text(opt.default)}"
            lines += textwrap.wrap(f"{head} - {meaning}" if meaning else head, 100,
                                   initial_indent=" " * 6, subsequent_indent=" " * 10, break_on_hyphens=False)
    lines += ["", "Each pass's rules, options and diagnostics: docs/passes.md."]
    return "\n".join(lines) + "\n"


def _first_sentence(text: str) -> str:
    end = text.find(". ")
    return text[: end + 1] if end >= 0 else text
