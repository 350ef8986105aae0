"""Element-wise arith/math ops beyond add/mul/sub, end to end: every op dfsched accepts in a
compute body has reference semantics, the examples that use them check clean on every
shipped device, and a body type without lanes is Decision 7's located error."""

from __future__ import annotations

from pathlib import Path

import pytest

from dfsched.arch.elementwise import ELEMENTWISE_OPS
from dfsched.interp.std_impl import TABLE
from unit_helpers import run_main

ROOT = Path(__file__).resolve().parents[2]
WIDEN = ROOT / "tests" / "unit" / "kernels" / "widen_f32.mlir"


def test_every_accepted_op_has_reference_semantics():
    assert sorted(ELEMENTWISE_OPS - set(TABLE)) == []


# sample and quad_corelet: test_dfsched_run.py checks every example on both
@pytest.mark.parametrize("kernel", ["sigmoid.mlir", "elementwise_ops.mlir"])
def test_examples_check_on_spyre(capsys, kernel):
    code, out, err = run_main(capsys, ROOT / "examples" / kernel, "--check", "--device", "spyre")
    assert code == 0, out + err
    assert "OK:" in out and "DataflowIR simulator" in out


def test_widening_cast_checks_where_f32_has_lanes(capsys):
    code, out, err = run_main(capsys, WIDEN, "--check", "--device", "quad_corelet")
    assert code == 0, out + err
    assert "OK:" in out and "DataflowIR simulator" in out


@pytest.mark.parametrize("device", ["sample", "spyre"])
def test_widening_cast_without_f32_lanes_is_located(capsys, device):
    code, out, err = run_main(capsys, WIDEN, "--check", "--device", device)
    assert code == 1
    assert "widen_f32.mlir:26:14: error: exec_unit" in out + err
    assert "declares no SIMD lanes for element type f32" in out + err
