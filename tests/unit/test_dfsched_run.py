"""`dfsched-run`: reference runs, saved arrays, `--check` on every example, seeded bugs.

`--check` compiles a kernel pass by pass and runs the ScheduleIR after each pass against
the KTIR reference. Every example must check clean on the sample device and on
`quad_corelet` (three sampled tiles each; every tile with `pytest -m slow`). The seeded
bugs are passes registered for the test that corrupt the IR after `path-expansion` the way
a buggy pass would (a transfer reading the wrong place, a FIFO producer or consumer
dropped, a stage that can never start): the check must catch each one, name it, and exit 1.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from xdsl.passes import ModulePass

from dfsched import passes, pipeline
from dfsched.interp.ktir import load_module, make_inputs, run
from dfsched.interp.schedule import REDUCTION_ULPS, check_schedule, has_reduction, reduction_tolerance
from unit_helpers import run_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KERNELS = sorted(p.name for p in EXAMPLES.glob("*.mlir"))
UP_TO_PATH_EXPANSION = ",".join([
    "ensure-device-declaration", "ktir-legality-check", "compute-group-extraction",
    "construct-three-stage-pipeline", "path-expansion",
])


# ---------------------------------------------------------------------------------------
# --check on every example
# ---------------------------------------------------------------------------------------


# Three sampled tiles of each example (`--tiles 3`: the first, the last, one seeded other)
# through every pass and engine on each device, which keeps the default suite's time in bounds
# as the examples grow; every tile of every example is the opt-in `slow` test below.
TILES = ("--tiles", "3")
# Examples that gather or scatter need a unit declaring `ktdf_arch.feature.address_list`: the
# sample device and spyre have one, quad_corelet none (its refusal is checked below).
ADDRESS_LISTS = {"embedding_gather.mlir", "kv_cache_scatter.mlir", "paged_kv_copy.mlir",
                 "paged_attention_decode.mlir"}
# Examples computing positions (linalg.index, Decision 107) need i32 lanes: quad_corelet has none
# (its refusal is checked below).
I32_POSITIONS = {"causal_mask_heads.mlir"}
# Examples whose tiles exchange partials need a core per tile and core-to-core links: ring4 and
# spyre (the one-core devices' refusal is checked below).
INTER_TILE = {"ring_allreduce.mlir", "ring_allreduce_rounds.mlir"}
CHECKS = [(kernel, device) for kernel in KERNELS if kernel not in INTER_TILE for device in ("sample", "quad_corelet")
          if not (kernel in ADDRESS_LISTS | I32_POSITIONS and device == "quad_corelet")] + \
         [(kernel, "spyre") for kernel in sorted(ADDRESS_LISTS | INTER_TILE)] + \
         [(kernel, "ring4") for kernel in sorted(INTER_TILE)]
# The costliest checks off sample are opt-in: three on quad_corelet (18 s, 10 s and 10 s idle) and,
# to keep the default suite under 5 minutes, attention on quad_corelet and paged attention on spyre
# (about 5 s each). The same kernels check on sample here (matmul_kloop's K loop folds into one
# matmul in compute-group-extraction, the same on every device); quad_corelet's corelets, FIFOs and
# units check on every other example, spyre's address lists on the other three gathers and scatters.
SLOW_CHECKS = {("row_bias_tiled.mlir", "quad_corelet"), ("matmul.mlir", "quad_corelet"),
               ("matmul_kloop.mlir", "quad_corelet"), ("attention.mlir", "quad_corelet"),
               ("paged_attention_decode.mlir", "spyre")}


@pytest.mark.parametrize("kernel,device", [pytest.param(*c, marks=pytest.mark.slow) if c in SLOW_CHECKS else c
                                           for c in CHECKS])
def test_check_passes_on_every_example(capsys, kernel, device):
    _assert_clean_check(capsys, kernel, device, *TILES)


@pytest.mark.slow
@pytest.mark.parametrize("kernel", KERNELS)
def test_check_passes_on_every_tile(capsys, kernel):
    """Every tile of every example on the sample device (opt-in: `pytest -m slow`).
    `test_check_passes_on_every_example` runs the same passes and engines on three tiles of each
    (every tile runs the same program at its own offsets; the first and the last are always
    among the three)."""
    _assert_clean_check(capsys, kernel, "sample")


def _assert_clean_check(capsys, kernel, device, *extra):
    code, out, err = run_main(capsys, EXAMPLES / kernel, "--check", "--device", device, *extra)
    assert "MISMATCH" not in out and "ERROR" not in out, out
    assert "Traceback" not in out + err and "error" not in err  # (warnings may be printed)
    lines = out.splitlines()
    if extra:
        assert lines.pop(1).startswith("checking "), out  # which tiles, and why
    # f16 accumulation (Decision 112): passes not equal to the reference are held to it summed in the schedule's order
    in_order = lines[1].startswith("f16 accumulation: ") and "the schedule's order" in lines.pop(1)
    assert lines[1].split() == ["#", "pass", "status", "max", "error"]
    rows = [line for line in lines[3:] if line.strip() and not line.startswith(("OK", "FAILED", "after pass", "simulated cycles"))]
    rows = rows[: next((i + 1 for i, r in enumerate(rows) if "PASS FAILED" in r), len(rows))]
    # one row for the input, then one per pass of -ktir-to-dfir, in order
    assert rows[0].split()[:3] == ["-", "(input)", "exact"]
    expected = [re.sub(r"^.*\(|\)+$", "", p).split("{")[0] for p in pipeline.NAMED_PIPELINES["ktir-to-dfir"]]
    names = [row.split()[1].split("{")[0] for row in rows[1:]]
    assert names == expected[: len(names)]
    # every point before the DataflowIR ones runs and matches the reference exactly; folding an
    # accumulation loop (compute-group-extraction, Decision 44) re-associates its sums, so from
    # there on such a kernel matches within the reduction tolerance; so does a reduction stepped
    # lane-wide (Decision 65: per-lane partial sums, then a tree) from reduction-loop-exposure on
    statuses = [row.split()[2] for row in rows]
    first_skip = statuses.index("skipped") if "skipped" in statuses else len(statuses)
    text = (EXAMPLES / kernel).read_text()
    folded = names.index("compute-group-extraction") + 1 if "iter_args" in text else \
        names.index("reduction-loop-exposure") + 1 if "reduction" in text or "linalg.reduce" in text else first_skip
    assert all(s == "exact" for s in statuses[:min(folded, first_skip)]), out
    assert all(s in ("exact", "ok") for s in statuses[folded:first_skip]), out
    if in_order:  # every pass that is not the reference's exactly is the schedule's order exactly
        assert all("exact in the schedule's f16 order" in row for row in rows if row.split()[2] == "ok"), out
    assert code == 0, out
    assert lines[-2].startswith("OK: ")
    assert re.fullmatch(r"simulated cycles: \d+ \(wrap-program-dfir, DataflowIR simulator\)", lines[-1]), lines[-1]


@pytest.mark.parametrize("kernel", sorted(INTER_TILE))
@pytest.mark.parametrize("device", ["sample", "quad_corelet"])
def test_check_refuses_inter_tile_ops_on_one_core(capsys, kernel, device):
    code, out, _ = run_main(capsys, EXAMPLES / kernel, "--check", "--device", device)
    assert code == 1
    assert re.search(r"ring_allreduce\w*.mlir:\d+:\d+: error: 'ktdp.inter_tile_produce' needs the kernel's 4 compute "
                     r"tiles on as many cores at once .* has \d+ core\(s\)", out), out


@pytest.mark.parametrize("kernel", sorted(ADDRESS_LISTS))
def test_check_refuses_gathers_without_an_address_list_unit(capsys, kernel):
    code, out, _ = run_main(capsys, EXAMPLES / kernel, "--check", "--device", "quad_corelet")
    assert code == 1
    assert "error: device 'quad_corelet' has no exec_unit with 'ktdf_arch.feature.address_list'" in out, out


ROW_MAXNUM = """\
module {
  func.func @row_max(%out_ptr: index, %in_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %in = ktdp.construct_memory_view %in_ptr, sizes: [2, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<2x1024xf16>
    %out = ktdp.construct_memory_view %out_ptr, sizes: [2], strides: [1] {
        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %t = ktdp.construct_access_tile %in[%c0, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x1024xf16> -> !ktdp.access_tile<2x1024xindex>
    %x = ktdp.load %t : !ktdp.access_tile<2x1024xindex> -> tensor<2x1024xf16>
    %neg_inf = arith.constant 0xFC00 : f16
    %init = tensor.splat %neg_inf : tensor<2xf16>
    %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<2x1024xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
    %o = ktdp.construct_access_tile %out[%c0] {
        access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>,
        access_tile_order = affine_map<(d0) -> (d0)>} : memref<2xf16> -> !ktdp.access_tile<2xindex>
    ktdp.store %m, %o : tensor<2xf16>, !ktdp.access_tile<2xindex>
    return
  }
}
"""


def test_lane_wide_maxnum_keeps_its_nan_rule(capsys, tmp_path):
    """Decision 111: a maxnum row maximum steps lane-wide on spyre (two rows of 1024: 32 lanes
    each); a lane that sees only NaNs, and a row of NaNs but one number, still give the maximum
    of the numbers, as the reference's fmax does. The only execution of a maxnum lane fold."""
    kernel = tmp_path / "row_max.mlir"
    kernel.write_text(ROW_MAXNUM)
    rows = np.random.default_rng(0).uniform(-1, 1, (2, 1024)).astype(np.float16)
    rows[0, 5::32] = np.nan  # every element lane 5 of row 0 combines
    rows[1, :] = np.nan
    rows[1, 300] = -0.5
    np.savez(tmp_path / "rows.npz", **{"in/in_ptr": rows})
    code, out, _ = run_main(capsys, kernel, "--check", "--device", "spyre", "--inputs", tmp_path / "rows.npz",
                            "--save", tmp_path / "out.npz")
    assert code == 0, out
    maxima = np.load(tmp_path / "out.npz")["out/out_ptr"]
    assert maxima.tolist() == [float(np.nanmax(rows[0])), -0.5]


def test_check_refuses_positions_without_i32_lanes(capsys):
    code, out, _ = run_main(capsys, EXAMPLES / "causal_mask_heads.mlir", "--check", "--device", "quad_corelet")
    assert code == 1
    assert re.search(r"causal_mask_heads.mlir:\d+:\d+: error: exec_unit 'VPU' declares no SIMD lanes for element "
                     r"type i32", out), out


def test_check_reports_an_index_outside_the_gathered_view(capsys, tmp_path):
    ids = np.arange(32, dtype=np.int32)
    ids[5] = 200  # the table has 128 rows
    np.savez(tmp_path / "ids.npz", **{"in/@16384": ids})
    code, out, _ = run_main(capsys, EXAMPLES / "embedding_gather.mlir", "--check", "--device", "sample",
                            "--inputs", tmp_path / "ids.npz")
    assert code == 1
    assert ("embedding_gather.mlir:37:17: error: 'ktdf.data_transfer' op grid tile 0: the indirect access at point "
            "(5, 0) reaches address 25600 (address list entry (5,) holds 25600), outside the view of sizes [128, 64] "
            "at [0, 16383]") in out, out


@pytest.mark.parametrize("kernel", ["add.mlir", "row_sum.mlir"])
def test_check_in_reverse_stage_order(capsys, kernel):
    """The passes' tokens order every dependency: the other legal order gives the same outputs."""
    code, out, _ = run_main(capsys, EXAMPLES / kernel, "--check", "--device", "quad_corelet", "--stage-order", "reverse")
    assert code == 0, out
    assert "MISMATCH" not in out and "ERROR" not in out


def test_check_runs_dataflow_ir_on_the_simulator_and_skips_mixed_ir(capsys):
    passes_ = UP_TO_PATH_EXPANSION + ",address-assignment,ktdf-to-ktdflowering,ktdflowering-to-dfir"
    code, out, _ = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--passes", passes_)
    assert code == 0, out
    rows = {line.split()[1]: line for line in out.splitlines() if line[:1].isdigit()}
    assert "skipped (ScheduleIR mixed with ktdf_lowering: no engine runs it)" in rows["ktdf-to-ktdflowering"]
    assert rows["ktdflowering-to-dfir"].split()[2:6] == ["exact", "(DataflowIR", "simulator)", "0"]
    assert out.splitlines()[-2] == "OK: 8 of 9 point(s) (the input and 8 pass(es)) match the reference, 1 skipped"
    assert out.splitlines()[-1] == "simulated cycles: 18 (ktdflowering-to-dfir, DataflowIR simulator)"
    code, out, _ = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--passes", passes_, "--no-dataflow-sim")
    assert code == 0
    assert "skipped (DataflowIR: not simulated)" in out
    assert out.splitlines()[-2].endswith("2 skipped")
    assert out.splitlines()[-1].startswith("simulated cycles: none")


def test_check_reserve_size_placeholders(capsys):
    """quad_corelet tiles the add: its placeholders run with 'auto' or any given size."""
    tiled = UP_TO_PATH_EXPANSION + ",normalize-scf-for-loops,canonicalize,tile-scf-for-loops"
    code, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--device", "quad_corelet", "--passes", tiled)
    assert code == 0, out
    assert re.search(r"tile-scf-for-loops\s+exact", out)
    code, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--device", "quad_corelet", "--passes", tiled,
                            "--reserve-size", "3")
    assert code == 0, out


def test_check_reuses_the_verdict_of_a_pass_that_changes_nothing(capsys):
    """A pass leaving the IR as it was is not run again: its row says so."""
    passes_ = "ensure-device-declaration,ktir-legality-check,compute-group-extraction"
    code, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--passes", passes_)
    assert code == 0, out
    rows = {line.split()[1]: line for line in out.splitlines() if line[:1].isdigit()}
    assert re.search(r"ktir-legality-check\s+exact \(IR unchanged\)\s+0$", rows["ktir-legality-check"])
    assert "unchanged" not in rows["ensure-device-declaration"] + rows["compute-group-extraction"]


def test_check_verbose_prints_execution_statistics(capsys):
    code, out, _ = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--passes", UP_TO_PATH_EXPANSION, "-v")
    assert code == 0
    assert re.search(r"#5 path-expansion: ops \d+, pipelines 2, stages 10, transfers 12, fifo_elements 384, buffers 6", out)


def test_check_follows_address_arguments_into_the_programs(capsys, tmp_path):
    kernel = tmp_path / "args.mlir"
    kernel.write_text(ARGS_KERNEL.replace("ktdp.store %x, %tb", """%e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.add ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %y, %tb"""))
    code, out, _ = run_main(capsys, kernel, "--check", "--passes", UP_TO_PATH_EXPANSION + ",normalize-scf-for-loops,"
                            "canonicalize,stage-coarsening,address-assignment")
    assert code == 0, out
    assert out.splitlines()[-2].startswith("OK: 10 of 10 point(s)")


# ---------------------------------------------------------------------------------------
# reference runs and --save
# ---------------------------------------------------------------------------------------


def test_reference_run_prints_shapes_and_checksums(capsys):
    code, out, err = run_main(capsys, EXAMPLES / "row_sum.mlir")
    assert code == 0 and "error" not in err and "warning: 'linalg.reduce' reduces into tensor.empty()" in err
    lines = out.splitlines()
    assert lines[0].endswith("KTIR reference interpreter, seed 0")
    assert re.fullmatch(r"@0: shape \[96, 64\] float16 sum \S+ crc32 0x[0-9a-f]{8}", lines[1])
    assert re.fullmatch(r"@12288: shape \[96\] float16 sum \S+ crc32 0x[0-9a-f]{8}", lines[2])
    # deterministic; another seed gives other inputs
    assert run_main(capsys, EXAMPLES / "row_sum.mlir")[1] == out
    assert run_main(capsys, EXAMPLES / "row_sum.mlir", "--seed", "7")[1] != out


def test_scheduled_file_runs_on_the_schedule_interpreter_with_the_same_checksums(capsys, tmp_path):
    from dfsched.tools.opt import main as opt_main

    scheduled = tmp_path / "add.sched.mlir"
    assert opt_main(["--device=sample", "-p", UP_TO_PATH_EXPANSION, str(EXAMPLES / "add.mlir"),
                     "-o", str(scheduled)]) == 0
    capsys.readouterr()
    _, reference, _ = run_main(capsys, EXAMPLES / "add.mlir")
    code, out, _ = run_main(capsys, scheduled)
    assert code == 0
    assert out.splitlines()[0].endswith("ScheduleIR interpreter, seed 0")
    assert out.splitlines()[1:] == reference.splitlines()[1:]


def test_save_writes_inputs_and_outputs_by_key(capsys, tmp_path):
    target = tmp_path / "add.npz"
    code, _, _ = run_main(capsys, EXAMPLES / "add.mlir", "--save", target)
    assert code == 0
    with np.load(target) as data:
        assert sorted(data.files) == ["in/@0", "in/@12288", "in/@24576", "out/@0", "out/@12288", "out/@24576"]
        np.testing.assert_array_equal(data["out/@24576"], data["in/@0"] + data["in/@12288"])
        np.testing.assert_array_equal(data["out/@0"], data["in/@0"])
        assert data["in/@0"].dtype == np.float16 and data["in/@0"].shape == (96, 64)


def test_save_with_check_writes_the_reference(capsys, tmp_path):
    target = tmp_path / "sum.npz"
    code, _, _ = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--passes", UP_TO_PATH_EXPANSION,
                          "--save", target)
    assert code == 0
    with np.load(target) as data:
        np.testing.assert_array_equal(data["out/@8192"], data["in/@0"] + data["in/@4096"])


ARGS_KERNEL = """
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @copy(%src: index, %dst: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a = ktdp.construct_memory_view %src, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %b = ktdp.construct_memory_view %dst, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %x, %tb : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
"""


def test_save_keys_argument_buffers_by_name(capsys, tmp_path):
    kernel = tmp_path / "args.mlir"
    kernel.write_text(ARGS_KERNEL)
    target = tmp_path / "args.npz"
    code, out, _ = run_main(capsys, kernel, "--save", target)
    assert code == 0, out
    with np.load(target) as data:
        assert sorted(data.files) == ["in/dst", "in/src", "out/dst", "out/src"]
        np.testing.assert_array_equal(data["out/dst"], data["in/src"])


# ---------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------


def test_missing_file(capsys, tmp_path):
    code, out, err = run_main(capsys, tmp_path / "nope.mlir")
    assert code == 1 and not out
    assert err.startswith("dfsched-run: error: could not open input file") and "Traceback" not in err


def test_parse_error_is_a_located_diagnostic(capsys, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("module {\n  func.func @k() {\n    %x = arith.constant : index\n  }\n}\n")
    for extra in ([], ["--check"]):
        code, out, err = run_main(capsys, bad, *extra)
        assert code == 1
        assert err.startswith(f"{bad}:3:") and ": error: " in err and "Traceback" not in err


def test_kernel_error_is_a_located_diagnostic(capsys, tmp_path):
    bad = tmp_path / "oob.mlir"
    text = (EXAMPLES / "add_2tile.mlir").read_text().replace("%tc = ktdp.construct_access_tile %c[%row, %c0]",
                                                             "%tc = ktdp.construct_access_tile %c[%row, %row]")
    bad.write_text(text)
    code, out, err = run_main(capsys, bad, "--strict-bounds")  # (masked by default)
    assert code == 1
    assert re.match(rf"{re.escape(str(bad))}:\d+:\d+: error: 'ktdp.store' op coordinate \(1, 64\) is outside", err)


def test_bad_reserve_size(capsys):
    code, _, err = run_main(capsys, EXAMPLES / "add.mlir", "--reserve-size", "zero")
    assert code == 1 and "--reserve-size must be an integer or 'auto'" in err


def test_bad_pass_pipeline_and_unknown_device(capsys):
    code, out, err = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--passes", "no-such-pass")
    assert code == 1 and not out
    assert err.strip() == "dfsched-run: error: 'no-such-pass' does not refer to a registered pass or pass pipeline"
    code, out, err = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--device", "no-such-device")
    assert code == 1
    row = next(line for line in out.splitlines() if "PASS FAILED" in line)
    assert row.split()[1] == "ensure-device-declaration"
    assert "Traceback" not in out + err


def test_a_failing_pass_stops_the_check(capsys, tmp_path):
    copy = tmp_path / "copy.mlir"
    # B is loaded but never used: compute-group-extraction rejects the kernel
    copy.write_text((EXAMPLES / "add_2tile.mlir").read_text().replace(
        "ktdp.store %s, %tc", "ktdp.store %x, %tc"))
    code, out, err = run_main(capsys, copy, "--check", "--passes", UP_TO_PATH_EXPANSION)
    assert code == 1
    row = next(line for line in out.splitlines() if "PASS FAILED" in line)
    assert row.split()[:2] == ["3", "compute-group-extraction"]
    assert f"after pass #3 compute-group-extraction: the pass failed:\n{copy}:" in out
    assert out.splitlines()[-2].startswith("FAILED:")


# ---------------------------------------------------------------------------------------
# seeded bugs
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeededBug(ModulePass):
    """Rewrites the printed IR once (PATTERN -> REPLACEMENT) and swaps the module's contents."""

    name: ClassVar[str] = "seeded-bug"
    PATTERN: ClassVar[str] = ""
    REPLACEMENT: ClassVar[str] = ""

    def apply(self, ctx, op) -> None:
        from dfsched.compat import LocatingParser
        from dfsched.printing import print_module

        stream = io.StringIO()
        print_module(op, stream)
        text, count = re.subn(self.PATTERN, self.REPLACEMENT, stream.getvalue(), count=1)
        assert count == 1, f"{type(self).__name__}: pattern not found"
        fresh = LocatingParser(ctx, text, "<seeded bug>").parse_module()
        block = op.body.block
        for old in list(block.ops):
            old.detach()
        for new in list(fresh.body.block.ops):
            new.detach()
            block.add_op(new)


def _bug(class_name: str, doc: str, name: str, pattern: str, replacement: str) -> type[SeededBug]:
    """A SeededBug pass `name` (registered by `class_name`, the module attribute it is bound to)."""
    attrs = {"__doc__": doc, "name": name, "PATTERN": pattern, "REPLACEMENT": replacement}
    return dataclass(frozen=True)(type(class_name, (SeededBug,), attrs))


WrongOffset = _bug("WrongOffset", "The MNILU transfer of A reads one element to the right.", "seed-wrong-offset",
                   r"(ktdf\.data_transfer from %reinterpret_cast\[%arg0, %arg1)\]", r"\1 + 1]")
DropProducer = _bug("DropProducer", "The L1LU stage no longer feeds B's FIFO slot.", "seed-drop-producer",
                    r"ktdf\.data_transfer from %\d+#1\[0, 0\] size \[1, 64\] to %\d+#3 size \[64\][^\n]*\n", "")
DropConsumer = _bug("DropConsumer", "The L1SU stage no longer drains the compute stage's FIFO slot.",
                    "seed-drop-consumer", r"ktdf\.data_transfer from %\d+#4 size \[64\] to [^\n]*\n", "")
NeverRuns = _bug("NeverRuns", "The L1LU stage no longer signals the token the compute stage waits for.",
                 "seed-never-runs", r"depends_in\((%\d+#6)\) depends_out\(%\d+#7\)",
                 r"depends_in(\1) depends_out(none)")
SharedRow = _bug("SharedRow", "After parallelization, every iteration of the L1SU stage writes row 0 of the L1 buffer.",
                 "seed-shared-row", r"(ktdf\.data_transfer from %\d+#2 size \[64\] to %\d+#2\[)%\w+(, 0, 0\])",
                 r"\g<1>0\2")
ForgottenToken = _bug("ForgottenToken", "The MNISU stage no longer waits for the L1SU stage that fills its buffer.",
                      "seed-forgotten-token", r"depends_in\(%\d+#9\) depends_out\(none\)",
                      "depends_in(none) depends_out(none)")


def _seed(monkeypatch, bug: type[SeededBug]) -> str:
    monkeypatch.setitem(passes.PASSES, bug.name, (__name__, bug.__name__))
    return UP_TO_PATH_EXPANSION + "," + bug.name


@pytest.mark.parametrize(
    ("bug", "status", "message"),
    [
        (WrongOffset, "MISMATCH", r"outputs differ from the reference:\n@24576: \d+ of 6144 elements differ, "
                                  r"first at \[0, 0\]: expected"),
        (DropProducer, "ERROR", r"'ktdf\.read_from_fifo' op reads 64 element\(s\) from FIFO slot #1 "
                                r"\(!ktdf\.fifo\.slot<\"L1LU\" -> \"SFU\", 64xf16>\) but only 0 are queued"),
        (DropConsumer, "ERROR", r"'ktdf\.fifo\.allocate' op: when its pipeline finished, FIFO slot #0 "
                                r"\(!ktdf\.fifo\.slot<\"SFU\" -> \"L1SU\", 64xf16>\) still held 64 of the 64 element"),
        (NeverRuns, "ERROR", r"'ktdf\.stage' op \(stage #2 \{SFU\}\) waits for token #0 of its depends_in, which no "
                             r"stage of this pipeline lists in depends_out: the stage would never run"),
    ],
)
def test_check_catches_seeded_bugs(capsys, monkeypatch, bug, status, message):
    code, out, err = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--passes", _seed(monkeypatch, bug))
    assert code == 1, out + err
    row = next(line for line in out.splitlines() if bug.name in line)
    assert row.split()[2] == status
    assert re.search(r"path-expansion\s+exact", out)  # the IR before the bug was fine
    assert re.search(rf"after pass #6 {bug.name}: {'the ScheduleIR cannot run as written' if status == 'ERROR' else ''}",
                     out)
    assert re.search(message, out), out
    assert out.splitlines()[-2].startswith("FAILED:") and out.splitlines()[-2].endswith("1 failed")
    assert "Traceback" not in out + err


def test_check_catches_instances_racing_after_parallelization(capsys, monkeypatch):
    monkeypatch.setitem(passes.PASSES, SharedRow.name, (__name__, SharedRow.__name__))
    parallel = UP_TO_PATH_EXPANSION + ",normalize-scf-for-loops,canonicalize,stage-coarsening," \
                                      "parallelize-loops-across-instances," + SharedRow.name
    code, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--passes", parallel)
    assert code == 1, out
    assert re.search(r"parallelize-loops-across-instances\s+exact", out)
    row = next(line for line in out.splitlines() if SharedRow.name in line)
    assert row.split()[2] == "ERROR"
    assert re.search(r"<seeded bug>:\d+:\d+: error: 'ktdf\.parallel' op: instances 0 and 1 race on element 0 \(row-major\) of "
                     r"buffer %\S+ \(memref<3x1x64xf16, \"L1\">\): instance 0 writes it and instance 1 writes it", out)
    assert "note: instance 0 writes it here" in out and "note: instance 1 writes it here" in out


def test_reverse_stage_order_catches_a_forgotten_token(capsys, monkeypatch):
    pipeline_ = _seed(monkeypatch, ForgottenToken)
    code, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--passes", pipeline_)
    assert code == 0  # in sibling order the stage still runs after its producer
    code, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--passes", pipeline_, "--stage-order", "reverse")
    assert code == 1
    row = next(line for line in out.splitlines() if ForgottenToken.name in line)
    assert row.split()[2] == "MISMATCH"
    assert re.search(r"@24576: 6144 of 6144 elements differ, first at \[0, 0\]: expected np\.float16\(\S+\), got "
                     r"np\.float16\(nan\)", out)  # the store ran on a never-written buffer


def test_located_errors_point_into_the_ir(capsys, monkeypatch):
    _, out, _ = run_main(capsys, EXAMPLES / "add.mlir", "--check", "--passes", _seed(monkeypatch, DropProducer))
    assert re.search(r"<seeded bug>:\d+:\d+: error: 'ktdf\.read_from_fifo' op", out)


# ---------------------------------------------------------------------------------------
# tolerance
# ---------------------------------------------------------------------------------------


def _perturbed(reference, key: str, delta: float):
    outputs = dict(reference.outputs)
    outputs[key] = (outputs[key].astype(np.float32) + delta).astype(outputs[key].dtype)
    return type(reference)(outputs, reference.layout, reference.global_memory, reference.scratchpads,
                           reference.returns, reference.ops_run)


def test_reduction_outputs_match_within_the_documented_f16_tolerance():
    kernel = load_module(EXAMPLES / "row_sum.mlir")
    assert has_reduction(kernel) and not has_reduction(load_module(EXAMPLES / "add.mlir"))
    inputs = make_inputs(kernel, 0)
    reference = run(kernel, inputs)
    sums = reference.outputs["@12288"]
    tol = reduction_tolerance(sums)
    scale = float(np.abs(sums.astype(np.float32)).max())
    assert tol == REDUCTION_ULPS * float(np.spacing(np.float16(scale)))
    # a few roundings off: accepted for a reduction, not for an elementwise kernel
    near = _perturbed(reference, "@12288", tol / 4)
    assert check_schedule(kernel, inputs, near, reductions=True).status == "tolerance"
    assert check_schedule(kernel, inputs, near, reductions=False).status == "mismatch"
    # a lost or doubled term is a whole input off
    far = _perturbed(reference, "@12288", 0.5)
    verdict = check_schedule(kernel, inputs, far, reductions=True)
    assert verdict.status == "mismatch" and verdict.max_error >= 0.4
    assert verdict.problems[0].startswith("@12288: ")
    assert check_schedule(kernel, inputs, reference, reductions=True).status == "exact"
