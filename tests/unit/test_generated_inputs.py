"""Buffers too large to hold as arrays (a paged KV pool): their input is generated page by page
on first touch, their output is what the run touched (`memory.GeneratedInput`, `TouchedBuffer`),
in the reference, the ScheduleIR interpreter and the DataflowIR simulator alike (one memory)."""

from __future__ import annotations

import numpy as np
import pytest
from unit_helpers import kernel, tile, view

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.ktir import compare_outputs, make_inputs, parse_module, run
from dfsched.interp.memory import GeneratedInput, Memory, TouchedBuffer
from dfsched.tools.run import main

# C[0:64] = 2 A[off : off + 64], A holding `n` elements
def copy_kernel(n: int, off: int = 0, count: int = 64) -> str:
    return kernel("%A: index, %C: index", "\n".join([
        "%c0 = arith.constant 0 : index",
        f"%off = arith.constant {off} : index",
        view("va", "A", (n,), (1,)),
        view("vc", "C", (count,), (1,)),
        tile("ta", "va", (n,), ["%off"], (count,)),
        tile("tc", "vc", (count,), ["%c0"], (count,)),
        f"%a = ktdp.load %ta : <{count}xindex> -> tensor<{count}xf16>",
        f"%s = arith.addf %a, %a : tensor<{count}xf16>",
        f"ktdp.store %s, %tc : tensor<{count}xf16>, <{count}xindex>",
    ]))




def test_a_buffer_over_max_elements_is_generated_on_touch():
    m = parse_module(copy_kernel(1 << 14, off=5000))
    inputs = make_inputs(m, seed=3, max_elements=4096)
    assert isinstance(inputs["A"], GeneratedInput) and inputs["A"].shape == (1 << 14,)
    assert isinstance(inputs["C"], np.ndarray)
    result = run(m, inputs, max_elements=4096)
    a = result.outputs["A"]
    assert isinstance(a, TouchedBuffer)
    assert a.touched == 2048  # one 4 KiB page of f16 around elements 5000..5063
    expected = inputs["A"].values(5000, 64) * np.float16(2)
    np.testing.assert_array_equal(result.outputs["C"], expected)
    # the run left the touched part as generated: the input, element for element
    first, values = a.runs[0]
    np.testing.assert_array_equal(values, inputs["A"].values(first, values.size))


def test_generated_values_do_not_depend_on_what_is_touched_first():
    m = parse_module(copy_kernel(1 << 14))
    source = make_inputs(m, seed=3, max_elements=4096)["A"]
    whole = source.values(0, source.count)
    assert whole.dtype == np.float16 and -1 <= whole.min() and whole.max() <= 1
    for first, count in [(0, 1), (4095, 3), (5000, 64), ((1 << 14) - 7, 7)]:
        np.testing.assert_array_equal(source.values(first, count), whole[first:first + count])
    # element and byte memories make the same elements
    for unit in ("byte", "element"):
        memory = Memory("m", unit, None)
        memory.place(128, source, source.element)
        step = memory.element_step(source.element)
        np.testing.assert_array_equal(memory.read(128 + step * np.arange(9000, 9100), source.element),
                                      whole[9000:9100])


def test_touching_more_than_max_elements_is_a_located_error():
    source = copy_kernel(1 << 14, count=1 << 14)
    m = parse_module(source, name="big.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run(m, make_inputs(m, seed=3, max_elements=4096), max_elements=4096)
    diag = exc.value.diagnostic
    assert diag.file == "big.mlir" and "ktdp.load" in source.splitlines()[diag.line - 1]
    assert "touched more than 4096 elements of buffers generated on first touch (max_elements)" in diag.message


def test_touched_buffers_compare_where_either_run_touched():
    m = parse_module(copy_kernel(1 << 14, off=5000))
    inputs = make_inputs(m, seed=3, max_elements=4096)
    one = run(m, inputs, max_elements=4096).outputs
    assert compare_outputs(one, run(m, inputs, max_elements=4096).outputs) == []
    other = parse_module(copy_kernel(1 << 14, off=9000))  # touches another page: still equal there
    assert compare_outputs({"A": one["A"]}, {"A": run(other, inputs, max_elements=4096).outputs["A"]}) == []
    changed = dict(one)
    first, values = one["A"].runs[0]
    bumped = values.copy()
    bumped[3] += 1
    changed["A"] = TouchedBuffer(one["A"].shape, one["A"].element, [(first, bumped)],
                                 lambda lo, n: bumped[lo - first: lo - first + n])
    problems = compare_outputs(one, changed)
    assert len(problems) == 1 and problems[0].startswith(f"A: 1 of 2048 elements differ, first at [{first + 3}]")


def test_dfsched_run_runs_a_buffer_too_large_to_hold(capsys, tmp_path):
    """2^27 f16 elements (256 MiB) in A, 64 of them read: the run makes one page."""
    path = tmp_path / "pool.mlir"
    path.write_text(copy_kernel(1 << 27, off=12345))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "A: shape [134217728] float16 generated on touch, 2048 of 134217728 elements touched" in out
    assert "C: shape [64] float16 sum" in out


@pytest.mark.parametrize("device", ["sample", "spyre"])
def test_check_runs_the_generated_buffer_through_every_engine(capsys, tmp_path, device):
    """The ScheduleIR interpreter and the DataflowIR simulator make the same pages as the
    reference and compare where any of them touched the buffer."""
    path = tmp_path / "pool.mlir"
    path.write_text(copy_kernel(1 << 27, off=12345))
    code = main([str(path), "--check", "--device", device])
    out = capsys.readouterr().out
    assert code == 0 and "MISMATCH" not in out, out
    assert "DataflowIR simulator" in out


def test_the_float64_evaluation_reads_a_generated_input_as_the_reference_does():
    """`benchmarks/corpus_accuracy.py` on a paged pool: its float64 run got the f16 input's pages
    read as f64 (zeros), and a `TouchedBuffer` output could not be compared (the corpus' paged
    copies failed with "input ... has 1 elements")."""
    import importlib.util
    import os
    import sys

    from dfsched.interp.dtypes import float64_evaluation

    path = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "corpus_accuracy.py")
    spec = importlib.util.spec_from_file_location("corpus_accuracy", path)
    accuracy = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("corpus_accuracy", accuracy)  # its dataclass resolves annotations there
    spec.loader.exec_module(accuracy)
    m = parse_module(copy_kernel(1 << 14, off=5000))
    inputs = make_inputs(m, seed=3, max_elements=4096, unit="element")
    reference = run(m, inputs, max_elements=4096, unit="element")
    with float64_evaluation():
        held = {k: accuracy.held_in_float64(v) if isinstance(v, GeneratedInput) else v for k, v in inputs.items()}
        exact = run(parse_module(copy_kernel(1 << 14, off=5000)), held, max_elements=4096, unit="element")
    np.testing.assert_array_equal(exact.outputs["C"], inputs["A"].values(5000, 64).astype(np.float64) * 2)
    assert accuracy.ulps(reference.outputs, exact.outputs) == 0
