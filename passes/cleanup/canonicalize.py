"""`canonicalize`: MLIR's canonicalizer, as the scheduling pipeline relies on it.

It runs MLIR's greedy driver (`dfsched.passes.cleanup.greedy`, top-down, at most 10 iterations,
folding and region simplification on) over the whole module with every op's canonicalization
patterns: those xDSL and the project's dialects declare through `HasCanonicalizationPatternsTrait`
(the ktdf folders and cleanups among them) plus the ones MLIR has and xDSL lacks
(`dfsched.passes.cleanup.patterns`). What the pipeline depends on:

* single-iteration `scf.for` inlined (induction variable := lower bound), zero-trip loops erased;
* constants folded, uniqued and hoisted to the front of the entry block of their function (or of
  whichever isolated-from-above op holds them);
* ops without effects whose results are unused erased (unused `memref.alloc`,
  `ktdf.create_token` and `ktdf.fifo.allocate` included);
* `affine.apply` folded and composed, `affine.min` of constants folded;
* `memref.alloc(%c...)` made static, followed by a `memref.cast` to the old type;
* `ktdf.tiling.derive_size`, `ktdf.buffer_phase` and `ktdf.select_memref` folded.

Non-constant ops are never merged (that is `cse`), so `ktdf.create_token` and
`ktdf.tiling.reserve_size` keep their identity.

Options (as MLIR's): `top-down` (default true), `max-iterations` (default 10),
`region-simplify` (`disabled`, `normal` (default) or `aggressive`; dfsched does not merge
identical blocks, so `aggressive` is `normal`). Like MLIR's, the pass does not fail when the
rewrites have not converged within `max-iterations`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dfsched.passes.cleanup.greedy import GreedyConfig, apply_patterns_greedily
from dfsched.passes.cleanup.patterns import canonicalization_patterns, fold


REGION_SIMPLIFY_LEVELS = ("disabled", "normal", "aggressive")


def canonicalize(root, *, top_down: bool = True, max_iterations: int = 10, region_simplify: bool = True) -> bool:
    """Canonicalize everything nested in `root`; True when the rewrites converged."""
    config = GreedyConfig(top_down=top_down, max_iterations=max_iterations, region_simplify=region_simplify)
    return apply_patterns_greedily(root, canonicalization_patterns, fold, config)


def canonicalizing(rewrite: Callable[[func.FuncOp], int]) -> Callable[[ModuleOp], None]:
    """A module step: `rewrite` each function (it returns its count of rewrites), then canonicalize
    bottom-up the functions it changed."""

    def run(module: ModuleOp) -> None:
        for function in [f for f in module.walk() if isinstance(f, func.FuncOp)]:
            if rewrite(function):
                canonicalize(function, top_down=False)

    return run


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Run every op's canonicalization patterns and folders under MLIR's greedy driver."""

    name = "canonicalize"

    top_down: bool = True
    """Visit ops top-down (MLIR's default), else bottom-up."""
    max_iterations: int = 10
    """Rounds of the greedy driver before it stops (not converging is not an error)."""
    region_simplify: str = "normal"
    """`disabled`, `normal` or `aggressive` (the same as `normal`: no block merging)."""

    def __post_init__(self):
        if self.region_simplify not in REGION_SIMPLIFY_LEVELS:
            raise ValueError(f"region-simplify must be one of {', '.join(REGION_SIMPLIFY_LEVELS)}, "
                             f"got '{self.region_simplify}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        canonicalize(op, top_down=self.top_down, max_iterations=self.max_iterations,
                     region_simplify=self.region_simplify != "disabled")
