"""Import arrows point down: tools -> interp/passes -> dialects/arch -> compat (README, Layout).

Reads every module's imports with `ast` (function-level imports count too: a lazy import is
still an arrow) and fails on any import of a higher layer, naming the file and the import.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Top-level modules and packages of dfsched by layer, lowest first.
LAYERS = [
    {"compat", "diagnostics", "fileio", "__version__"},
    {"dialects", "arch"},
    {"printing", "float_text"},
    {"passes", "interp", "pipeline"},
    {"tools", "api", "cache", "__init__"},
]

# Upward imports not yet removed. Shrink this list; never grow it.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def _layer(name: str) -> int | None:
    for rank, names in enumerate(LAYERS):
        if name in names:
            return rank
    return None


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "dfsched":
                yield from (f"dfsched.{alias.name}" for alias in node.names)
            else:
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _package_files():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in {"tests", "benchmarks", "docs", "examples"} or rel.parts[0].startswith("."):
            continue
        yield rel


def test_every_top_level_module_has_a_layer():
    unplaced = {rel.parts[0].removesuffix(".py") for rel in _package_files()}
    unplaced = {name for name in unplaced if _layer(name) is None}
    assert not unplaced, f"give these a layer in LAYERS: {sorted(unplaced)}"


def test_imports_point_down():
    upward = []
    for rel in _package_files():
        source = _layer(rel.parts[0].removesuffix(".py"))
        for module in _imports(ROOT / rel):
            parts = module.split(".")
            if parts[0] != "dfsched" or len(parts) < 2:
                continue
            target = _layer(parts[1])
            if target is not None and source is not None and target > source:
                if (str(rel), module) not in KNOWN_UPWARD:
                    upward.append(f"{rel} imports {module}")
    assert not upward, "imports pointing up the layers:\n" + "\n".join(upward)


def test_known_upward_imports_still_exist():
    """An entry of KNOWN_UPWARD that was fixed must leave the list."""
    found = {(str(rel), module) for rel in _package_files() for module in _imports(ROOT / rel)}
    assert KNOWN_UPWARD <= found, f"remove from KNOWN_UPWARD: {sorted(KNOWN_UPWARD - found)}"


def test_interpreters_and_passes_are_independent():
    """interp/ and passes/ share a layer and import nothing of each other: the interpreters
    check what the passes made, so neither may lean on the other's code."""
    crossing = []
    for rel in _package_files():
        other = {"interp": "passes", "passes": "interp"}.get(rel.parts[0])
        crossing += [f"{rel} imports {m}" for m in _imports(ROOT / rel) if other and m.startswith(f"dfsched.{other}")]
    assert not crossing, "\n".join(crossing)
