"""The tools' front door: `--bind`, `--unit`, `--inputs`, Triton grids, orchestrator loops.

The kernels are in `kernels/`: `trailing_unit_grid.mlir` (grid = [2, 1], one tile id),
`bound_scalars.mlir` (block size and buffer addresses as arguments) and
`orchestrator_loops.mlir` (two programs called inside a host loop nest). Each is checked by
execution, pass by pass, on every shipped device that runs it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from dfsched.tools.driver import main as dfsched_main
from dfsched.tools.opt import main as opt_main
from unit_helpers import run_main

KERNELS = Path(__file__).resolve().parent / "kernels"
GRID = KERNELS / "trailing_unit_grid.mlir"
SCALARS = KERNELS / "bound_scalars.mlir"
LOOPS = KERNELS / "orchestrator_loops.mlir"
BIND = ["--bind", "block=128"]


def assert_checks(code: int, out: str, err: str) -> None:
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[-2].startswith("OK: ") and "MISMATCH" not in out and "ERROR" not in out
    assert re.fullmatch(r"simulated cycles: \d+ \(wrap-program-dfir, DataflowIR simulator\)", lines[-1])


# ---------------------------------------------------------------------------------------
# kernels checked to the end
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("device", ["sample", "quad_corelet", "spyre"])
@pytest.mark.parametrize("kernel, flags", [
    (GRID, []),
    (LOOPS, []),
    (SCALARS, BIND),
    (SCALARS, BIND + ["--bind", "x_ptr=0", "--bind", "y_ptr=256", "--unit", "element"]),
])
def test_kernel_checks_to_the_end(capsys, kernel, flags, device):
    assert_checks(*run_main(capsys, kernel, "--check", "--device", device, *flags))


def test_check_runs_the_front_door_before_the_reference(capsys):
    """The front door is not a row of the table: the reference already runs its output."""
    code, out, _ = run_main(capsys, SCALARS, "--check", *BIND, "--unit", "element")
    assert code == 0
    assert out.splitlines()[0].endswith(", front door --bind block=128 --unit element")
    rows = [line.split()[1] for line in out.splitlines() if line[:1].isdigit()]
    assert rows[:2] == ["ensure-device-declaration", "ktir-legality-check"]


# ---------------------------------------------------------------------------------------
# bound scalars: interpreter and compiler
# ---------------------------------------------------------------------------------------


def test_the_reference_uses_the_bound_values(capsys, tmp_path):
    target = tmp_path / "out.npz"
    code, out, err = run_main(capsys, SCALARS, *BIND, "--save", target)
    assert code == 0, err
    with np.load(target) as data:
        assert sorted(data.files) == ["in/x_ptr", "in/y_ptr", "out/x_ptr", "out/y_ptr"]
        np.testing.assert_array_equal(data["out/y_ptr"], data["in/x_ptr"] + data["in/x_ptr"])


def test_bound_element_addresses_become_byte_addresses(capsys, tmp_path):
    """y_ptr = 256 elements of f16 is byte 512, in the reference's keys as in the compiled IR."""
    target = tmp_path / "out.npz"
    flags = BIND + ["--bind", "x_ptr=0", "--bind", "y_ptr=256", "--unit", "element"]
    code, out, err = run_main(capsys, SCALARS, *flags, "--save", target)
    assert code == 0, err
    with np.load(target) as data:
        assert sorted(data.files) == ["in/@0", "in/@512", "out/@0", "out/@512"]
    code = opt_main([str(SCALARS), *flags, "--device=sample", "-ktir-to-dfir"])
    compiled = capsys.readouterr().out
    assert code == 0
    assert "arith.constant 512 : index" in compiled and "symbol.create_id" not in compiled


def test_the_compiler_specialises_and_the_driver_takes_the_flags(capsys, tmp_path):
    code = opt_main([str(SCALARS), *BIND, "--device=sample", "-ktir-to-dfir"])
    compiled = capsys.readouterr().out
    assert code == 0
    assert "dataflow.program_unit" in compiled and "symbol.create_id" in compiled  # addresses stay inputs
    code = dfsched_main(["-kEmitDFIR", "--device=sample", *BIND, str(SCALARS),
                         f"--split-dfir-output-dir={tmp_path}", "--print-ir-after-all=false"])
    assert code == 0, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.glob("*.mlir")) == ["global.mlir", "local_schedule_0.mlir"]


# ---------------------------------------------------------------------------------------
# --inputs
# ---------------------------------------------------------------------------------------


def test_inputs_feed_the_saved_arrays_back(capsys, tmp_path):
    saved = tmp_path / "saved.npz"
    assert run_main(capsys, SCALARS, *BIND, "--seed", "3", "--save", saved)[0] == 0
    with np.load(saved) as data:
        x = data["in/x_ptr"].copy()
    x[:] = np.float16(0.25)
    given = tmp_path / "given.npz"
    np.savez(given, **{"in/x_ptr": x})
    again = tmp_path / "again.npz"
    code, out, err = run_main(capsys, SCALARS, *BIND, "--inputs", given, "--save", again)
    assert code == 0, err
    assert f"inputs {given}" in out
    with np.load(again) as data:
        np.testing.assert_array_equal(data["out/y_ptr"], np.full(256, 0.5, np.float16))
    code, out, err = run_main(capsys, SCALARS, *BIND, "--inputs", given, "--check")
    assert_checks(code, out, err)


@pytest.mark.parametrize("arrays, message", [
    ({"in/x_ptr": np.zeros(256, np.float32)}, "'in/x_ptr' holds float32 but the kernel's buffer is float16"),
    ({"in/x_ptr": np.zeros((2, 128), np.float16)}, "'in/x_ptr' has shape [2, 128] but the kernel's buffer has shape [256]"),
    ({"in/z": np.zeros(4, np.float16)}, "the kernel has no input 'in/z' (its inputs: in/x_ptr, in/y_ptr)"),
    ({"x_ptr": np.zeros(256, np.float16)}, "key 'x_ptr' is not 'in/<buffer>'"),
])
def test_inputs_of_the_wrong_kind_are_clear_errors(capsys, tmp_path, arrays, message):
    given = tmp_path / "given.npz"
    np.savez(given, **arrays)
    code, out, err = run_main(capsys, SCALARS, *BIND, "--inputs", given)
    assert code == 1
    assert err.startswith("dfsched-run: error: --inputs ") and message in err, err
    assert "Traceback" not in out + err


def test_inputs_that_are_not_an_npz_file(capsys, tmp_path):
    given = tmp_path / "given.npz"
    given.write_text("not numpy")
    code, _, err = run_main(capsys, SCALARS, *BIND, "--inputs", given)
    assert code == 1 and "not a readable .npz file" in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------
# bad --bind
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("flags, message", [
    ([], r"bound_scalars.mlir:10:3: error: kernel argument %block \(index\) is a scalar the schedule needs: "
         r"bind it with --bind block=VALUE\n.*\n.*\n.*bound_scalars.mlir:12:15: note: 'arith.muli' needs its value"),
    (BIND + ["--bind", "blok=3"], r"error: --bind blok=...: @double has no argument 'blok' "
                                  r"\(its arguments: x_ptr, y_ptr, block\)"),
    (["--bind", "block=12.5"], r"error: --bind block=12.5: 'block' is an index argument and '12.5' is not an integer"),
    (["--bind", "block"], r"error: --bind takes NAME=VALUE, got 'block'"),
])
@pytest.mark.parametrize("check", [False, True])
def test_bad_bindings_are_located_errors(capsys, flags, message, check):
    code, out, err = run_main(capsys, SCALARS, *flags, *(["--check"] if check else []))
    assert code == 1
    assert re.search(message, err), err
    assert "Traceback" not in out + err and "internal error" not in out + err


def test_bad_bindings_in_the_compiler(capsys):
    code = opt_main([str(SCALARS), "--device=sample", "-ktir-to-dfir"])
    err = capsys.readouterr().err
    assert code == 1 and "bind it with --bind block=VALUE" in err
    code = dfsched_main(["-kEmitDFIR", "--device=sample", "--bind", "nope=1", str(SCALARS)])
    err = capsys.readouterr().err
    assert code == 1 and "@double has no argument 'nope'" in err and "Traceback" not in err


def test_the_cached_compile_applies_the_binds(tmp_path):
    import dfsched

    artifact = dfsched.compile(str(SCALARS), "sample", binds={"block": 128}, cache=tmp_path)
    assert "dataflow.program_unit" in artifact.final_ir
    with pytest.raises(dfsched.CompileError, match="bind it with --bind block=VALUE"):
        dfsched.compile(str(SCALARS), "sample", cache=tmp_path)
