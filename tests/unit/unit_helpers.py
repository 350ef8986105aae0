"""Helpers the unit tests share (fixtures shared by several files are in conftest.py)."""

from __future__ import annotations

import numpy as np


def run_main(capsys, *argv) -> tuple[int, str, str]:
    """`dfsched-run ARGV...` in-process: its exit status, stdout and stderr."""
    from dfsched.tools.run import main

    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_contains(text: str, *fragments: str) -> None:
    """Each fragment stands in `text` (a printed module); the missing ones are named."""
    missing = [f for f in fragments if f not in text]
    assert not missing, f"not in the printed text: {missing}\n{text}"


def index_constants(*values: int, indent: str = "    ") -> str:
    """`%cN = arith.constant N : index` lines, one per value (a test kernel's preamble)."""
    return "\n".join(f"{indent}%c{v} = arith.constant {v} : index" for v in values)


def box(*extents: int) -> str:
    """`affine_set` of the box [0, e0) x [0, e1) x ..."""
    dims = ", ".join(f"d{i}" for i in range(len(extents)))
    cons = ", ".join(f"d{i} >= 0, -d{i} + {e - 1} >= 0" for i, e in enumerate(extents))
    return f"affine_set<({dims}) : ({cons})>"


# KTIR kernels written as text (the interpreter tests)

GLOBAL = "#ktdp.memory_space<global>"


def ident(rank: int) -> str:
    """The identity `affine_map` of `rank` dimensions."""
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def view(name: str, base: str, sizes, strides, elt: str = "f16", space: str = GLOBAL, cset: str | None = None) -> str:
    shape = "x".join(str(s) for s in sizes)
    cset = cset or box(*sizes)
    return (
        f"%{name} = ktdp.construct_memory_view %{base}, sizes: {list(sizes)}, strides: {list(strides)} "
        f"{{coordinate_set = {cset}, memory_space = {space}}} : memref<{shape}x{elt}>"
    )


def tile(name: str, v: str, vshape, idx, tshape, elt: str = "f16", tset: str | None = None, order: str | None = None) -> str:
    vs = "x".join(str(s) for s in vshape)
    ts = "x".join(str(s) for s in tshape)
    tset = tset or box(*tshape)
    order = order or ident(len(tshape))
    return (
        f"%{name} = ktdp.construct_access_tile %{v}[{', '.join(idx)}] "
        f"{{access_tile_order = {order}, access_tile_set = {tset}}} : memref<{vs}x{elt}> -> !ktdp.access_tile<{ts}xindex>"
    )


def kernel(args: str, body: str, grid=(1,), name: str = "k") -> str:
    g = ", ".join(str(d) for d in grid)
    return f"func.func @{name}({args}) attributes {{grid = [{g}]}} {{\n{body}\n  return\n}}\n"


def kernel_with_inputs(args: str, body: str, seed: int, grid=(1,)):
    """The parsed kernel `kernel(args, body, grid)` and its seeded inputs (`make_inputs`)."""
    from dfsched.interp.ktir import make_inputs, parse_module

    module = parse_module(kernel(args, body, grid=grid))
    return module, make_inputs(module, seed=seed)


def f16_seq_sum(x: np.ndarray, axis: int, init=0.0) -> np.ndarray:
    """Sum along `axis` one element at a time, rounding to f16 after every addition."""
    x = np.moveaxis(np.asarray(x, np.float16), axis, -1)
    acc = np.full(x.shape[:-1], init, dtype=np.float16)
    for k in range(x.shape[-1]):
        acc = (acc.astype(np.float32) + x[..., k].astype(np.float32)).astype(np.float16)
    return acc
