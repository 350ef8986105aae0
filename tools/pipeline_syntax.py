"""Pass pipeline texts: MLIR's `builtin.module(a, b{k=v}, func.func(c))` and xDSL's `a,b{k=v}`.

Both parse to a list of `PassRequest`s: a pass name, its options as strings, and the chain
of op names it is anchored on (empty: the whole module).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # lark is imported when a pipeline text is parsed, not by runs with plain pass flags
    from lark import Lark, Token, Tree

_GRAMMAR = r"""
    start: element ("," element)*
    element: anchored | pass_
    anchored: OPNAME "(" [element ("," element)*] ")"
    pass_: PASSNAME options?
    options: "{" option* "}"
    option: KEY ("=" value)?
    value: ESCAPED_STRING | NESTED | BARE
    OPNAME.2: /[A-Za-z_][\w$]*\.[\w$.]+(?=\s*\()/
    PASSNAME: /[A-Za-z_][\w\-.]*/
    KEY: /[A-Za-z_][\w\-]*/
    NESTED: /\{[^{}]*\}/
    BARE: /[^\s{}"=][^\s{}"]*/
    %import common.ESCAPED_STRING
    %import common.WS
    %ignore WS
"""

@functools.cache
def _parser() -> Lark:
    from lark import Lark

    return Lark(_GRAMMAR, parser="lalr")


@dataclass
class PassRequest:
    name: str
    options: dict[str, str] = field(default_factory=dict)
    anchor: tuple[str, ...] = ()

    def spelling(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name}{{{opts}}}" if opts else self.name


class PipelineSyntaxError(ValueError):
    pass


def parse_pipeline(text: str) -> list[PassRequest]:
    """Parse either pipeline syntax; `builtin.module(...)` anchors are transparent."""
    text = text.strip()
    if not text:
        return []
    from lark.exceptions import LarkError

    try:
        tree = _parser().parse(text)
    except LarkError as exc:
        raise PipelineSyntaxError(f"invalid pass pipeline '{text}': {_first_line(exc)}") from None
    result: list[PassRequest] = []
    for element in tree.children:
        _collect(element, (), result, top=True)
    return result


def parse_options(text: str) -> dict[str, str]:
    """Options as written after a pass flag: `num-chunks=4 tile-sizes=32,32`."""
    return parse_pipeline(f"p{{{text}}}")[0].options if text.strip() else {}


def _collect(element: Tree, anchor: tuple[str, ...], out: list[PassRequest], top: bool = False) -> None:
    """Flatten one pipeline element; the outermost `builtin.module(...)` is the root itself."""
    node = element.children[0]
    if node.data == "anchored":
        op_name = str(node.children[0])
        inner = anchor if op_name == "builtin.module" and top else anchor + (op_name,)
        for child in node.children[1:]:
            if child is not None:
                _collect(child, inner, out)
        return
    name = str(node.children[0])
    options: dict[str, str] = {}
    if len(node.children) > 1 and node.children[1] is not None:
        for option in node.children[1].children:
            key = str(option.children[0])
            value = option.children[1] if len(option.children) > 1 else None
            options[key] = _value_text(value)
    out.append(PassRequest(name, options, anchor))


def _value_text(value: Tree | None) -> str:
    if value is None:
        return "true"
    tok: Token = value.children[0]
    text = str(tok)
    if tok.type == "ESCAPED_STRING":
        return text[1:-1]
    if tok.type == "NESTED":
        return text[1:-1]
    return text


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0]
