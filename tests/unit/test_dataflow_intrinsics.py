"""Spyre intrinsics in DataflowIR: `examples/intrinsic.mlir` (a `spyreop.sigmoid` in a
`linalg.generic`) and variants compiled with -ktir-to-dfir and simulated against the KTIR
reference interpreter.

vectorchain has no op that carries an intrinsic, so ktdflowering-to-dfir keeps each element-wise
intrinsic as itself in a one-op `linalg.generic` over the vector (`dfir_compute.island`); the
simulator runs that generic as one vector op with the numpy semantics of `interp/intrinsics.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dfsched.interp.dataflow import check_against_reference
from dfsched.tools.dataflow_compile import compile_to_dfir
from dfsched.interp.ktir import load_module

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "intrinsic.mlir"
SIGMOID = "%g = spyreop.sigmoid %gate : f16"


def _simulate(path: Path):
    dfir = compile_to_dfir(path, "sample")
    result, differences = check_against_reference(load_module(path), dfir, device="sample")
    assert differences == []
    return dfir, result


def _intrinsics_in_program_units(dfir) -> list[str]:
    return [op.name for op in dfir.walk() if op.name.startswith("spyreop.")]


@pytest.fixture
def no_interpreter_generics(monkeypatch):
    """The intrinsic generics run on the simulator's own vector path, not the KTIR
    interpreter's element-wise one."""
    from dfsched.interp import dataflow_ops

    fallback = dataflow_ops.Runner._fallback  # noqa: SLF001

    def guarded(self, op, operands):
        assert op.name != "linalg.generic", "intrinsic generic left to the KTIR interpreter"
        return fallback(self, op, operands)

    monkeypatch.setattr(dataflow_ops.Runner, "_fallback", guarded)


def test_sigmoid_example_matches_reference(no_interpreter_generics):
    dfir, result = _simulate(EXAMPLE)
    assert _intrinsics_in_program_units(dfir) == ["spyreop.sigmoid"]
    assert not [op for op in dfir.walk() if op.name.startswith(("ktdf.", "ktdf_lowering."))]
    # per SFU: the sigmoid (one vector op for the 64 lanes) and the vectorchain multiply; the
    # generic's tensor.empty destination costs nothing
    sfu = result.stats["C0-sfu"]
    assert (sfu.vector_ops, sfu.compute_cycles) == (2, 2)
    assert 0 < result.bound().cycles <= result.total_cycles


@pytest.mark.parametrize("body, names", [
    ("%e = spyreop.exp %gate : f16\n      %g = spyreop.sqrt %e : f16",
     ["spyreop.exp", "spyreop.sqrt"]),
    ("%g = spyreop.realdiv %gate, %value : f16", ["spyreop.realdiv"]),
])
def test_other_intrinsics_match_reference(tmp_path, no_interpreter_generics, body, names):
    text = EXAMPLE.read_text()
    assert SIGMOID in text
    kernel = tmp_path / "variant.mlir"
    kernel.write_text(text.replace(SIGMOID, body))
    dfir, result = _simulate(kernel)
    assert _intrinsics_in_program_units(dfir) == names
    assert result.stats["C0-sfu"].vector_ops == len(names) + 1
