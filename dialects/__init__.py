"""Dialect registry: every dialect dfsched parses, loaded lazily on first use.

Each entry maps a dialect name to `(module, attribute)`; the module is imported only when
the parser meets that dialect, which keeps `dfsched-opt --help` start-up near xDSL's own.
Our own dialects live in this package, one module per dialect.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect

from dfsched import compat

UPSTREAM_DIALECTS: dict[str, tuple[str, str]] = {
    # upstream MLIR dialects, as xDSL defines them (some are replaced by ours below)
    "builtin": ("xdsl.dialects.builtin", "Builtin"),
    "func": ("xdsl.dialects.func", "Func"),
    "arith": ("xdsl.dialects.arith", "Arith"),
    "math": ("xdsl.dialects.math", "Math"),
    "scf": ("xdsl.dialects.scf", "Scf"),
    "memref": ("xdsl.dialects.memref", "MemRef"),
    "tensor": ("xdsl.dialects.tensor", "Tensor"),
    "affine": ("xdsl.dialects.affine", "Affine"),
    "bufferization": ("xdsl.dialects.bufferization", "Bufferization"),
    "pdl": ("xdsl.dialects.pdl", "PDL"),
    "vector": ("xdsl.dialects.vector", "Vector"),
    "cf": ("xdsl.dialects.cf", "Cf"),
    "linalg": ("xdsl.dialects.linalg", "Linalg"),
}

DIALECTS: dict[str, tuple[str, str]] = {
    **UPSTREAM_DIALECTS,
    # ours, one module per dialect (linalg, memref, affine and scf extend xDSL's)
    "ktdp": ("dfsched.dialects.ktdp", "KTDP"),
    "spyreop": ("dfsched.dialects.spyreop", "SPYREOP"),
    "linalg": ("dfsched.dialects.linalg_ext", "LINALG"),
    "memref": ("dfsched.dialects.memref_ext", "MEMREF"),
    "affine": ("dfsched.dialects.affine_ext", "AFFINE"),
    "ktdf": ("dfsched.dialects.ktdf", "KTDF"),
    "ktdf_arch": ("dfsched.dialects.ktdf_arch", "KTDF_ARCH"),
    "ktdf_lowering": ("dfsched.dialects.ktdf_lowering", "KTDF_LOWERING"),
    "dataflow": ("dfsched.dialects.dataflow", "DATAFLOW"),
    "agen": ("dfsched.dialects.agen", "AGEN"),
    "vectorchain": ("dfsched.dialects.vectorchain", "VECTORCHAIN"),
    "uniform": ("dfsched.dialects.uniform", "UNIFORM"),
    "symbol": ("dfsched.dialects.symbol", "SYMBOL"),
    "scf": ("dfsched.dialects.scf_ext", "SCF"),
}


def _factory(module: str, attribute: str) -> Callable[[], Dialect]:
    return lambda: getattr(importlib.import_module(module), attribute)


def _affine_parser(parser):
    from dfsched.dialects.affine_ext import MLIRAffineParser

    return MLIRAffineParser.at(parser)


def _sparse_literal(parser):
    from dfsched.dialects.ktdf_arch_types import parse_sparse_literal

    return parse_sparse_literal(parser)


def _verify_attribute(op, name: str, value) -> None:
    """A dialect module opts in by defining `verify_operation_attribute(op, name, value)`."""
    dialect = name.split(".", 1)[0]
    if "." in name and dialect in DIALECTS:
        hook = getattr(importlib.import_module(DIALECTS[dialect][0]), "verify_operation_attribute", None)
        if hook is not None:
            hook(op, name, value)


# The parser's and verifier's dialect hooks (compat sits below the dialects and imports none).
compat.DIALECT_HOOKS.update(affine_parser=_affine_parser, sparse_literal=_sparse_literal,
                            verify_attribute=_verify_attribute)


def register_all(ctx: Context) -> None:
    for name, (module, attribute) in DIALECTS.items():
        ctx.register_dialect(name, _factory(module, attribute))


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    register_all(ctx)
    return ctx
