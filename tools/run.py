"""`dfsched-run`: run a kernel on random inputs, and check the scheduler pass by pass.

    dfsched-run KERNEL [--device FILE] [--seed N] [--save OUT.npz] [--check [--tiles N]]
                [--timeline OUT.svg] [--trace OUT.json] [--passes PIPELINE] [--reserve-size N|auto] [--kernel NAME] [--verbose]

* Without `--check`: runs the KTIR reference interpreter on seeded random inputs (placed
  at non-overlapping addresses, `ktir.make_inputs`) and prints, per output buffer, its
  shape, element type, sum and CRC-32 of its bytes. A KERNEL that is already ScheduleIR
  (the output of `dfsched-opt`) runs on the ScheduleIR interpreter instead.
* `--save OUT.npz`: every input and output array, as `in/<key>` and `out/<key>`, where the
  key is the kernel argument's name (`A`) or the constant address of the buffer (`@12288`).
* `--check`: compiles KERNEL with `-ktir-to-dfir` (or `--passes`), running the passes one
  by one in-process with `dfsched-opt`'s machinery, runs the ScheduleIR interpreter after
  every pass and compares it with the reference. It prints one row per pass:
  `exact` (bit-identical), `ok (...)` (a kernel with a reduction, within the f16 tolerance
  of `dfsched.interp.schedule`), `MISMATCH`, `ERROR` (the IR cannot be executed as
  written: an empty FIFO read, a stage that never runs, an out-of-bounds write, a race...),
  or `skipped (reason)` (IR no engine executes: between `ktdf-to-ktdflowering` and
  `ktdflowering-to-dfir` the IR mixes `ktdf_lowering` with ScheduleIR). Pure DataflowIR runs
  on the DataflowIR simulator (`dfsched.interp.dataflow`, rows marked "(DataflowIR
  simulator)") unless `--no-dataflow-sim`. The first row, `(input)`, runs the unscheduled
  kernel through the ScheduleIR interpreter.
  Exit status 1 if any row is a mismatch or an error, or a pass fails.
* `--tiles N` (with `--check`): when the kernel's compute tiles do not communicate (no
  inter-tile op, no access to another tile's scratchpad, no global bytes written by two
  tiles in the reference run), every engine runs only N tiles: the first, the last and
  seeded random others (`--seed`), and each is compared with what those tiles wrote in the
  reference run. A line above the table says which tiles were checked, or why all were.
* `--trace OUT.json`: the simulated timeline of the compiled kernel as Chrome trace-event JSON
  (`dfsched.interp.trace`), next to `--timeline`'s chart.
* `--stage-order reverse`: among the stages of a pipeline that may run, run the last one
  first (default: the first); a schedule whose tokens forgot a dependency then fails.
* `--reserve-size`: the value of `ktdf.tiling.reserve_size` placeholders before
  `tile-size-selection` replaces them (`auto`, the default, picks what that pass would).
* Bad input (unreadable file, parse or verifier error, a pass error) is reported as a
  located diagnostic, exit status 1, no traceback (`--debug` shows one).
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import dataclasses
import functools
import gc
import hashlib
import io
import os
import sys
import traceback
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.utils.exceptions import ParseError

from dfsched import compat
from dfsched.diagnostics import DiagnosticError, SourceManager
from dfsched.fileio import DEFAULT_MAX_INPUT_MB, OutputError, check_writable, read_source, set_max_input_mb, write_bytes_atomic

PROG = "dfsched-run"


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=PROG, description="Run a KTIR kernel; with --check, validate every scheduling pass.")
    ap.add_argument("kernel", help="KTIR kernel file (or ScheduleIR from dfsched-opt)")
    ap.add_argument("--device", default=None,
                    help="architecture file or shipped device name (default for --check: sample)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    ap.add_argument("--save", metavar="OUT.npz", default=None, help="save every input and output array")
    ap.add_argument("--check", action="store_true", help="run the ScheduleIR after every pass and compare")
    ap.add_argument("--timeline", metavar="OUT.svg|OUT.png", default=None,
                    help="simulate the compiled DataflowIR and draw a Gantt chart of unit activity "
                         "(matplotlib; .svg, .png or .pdf by the extension)")
    ap.add_argument("--trace", metavar="OUT.json", default=None,
                    help="simulate the compiled DataflowIR and write its timeline as Chrome trace-event JSON "
                         "(open it in ui.perfetto.dev or chrome://tracing)")
    ap.add_argument("--passes", default=None,
                    help="pass pipeline to check instead of -ktir-to-dfir (dfsched-opt syntax)")
    ap.add_argument("--reserve-size", default="auto",
                    help="value of tiling placeholders still in the IR: an integer or 'auto' (default)")
    ap.add_argument("--kernel-name", "--kernel-func", dest="kernel_name", default=None,
                    help="the kernel function, if the module has several")
    ap.add_argument("--unit", choices=("byte", "element"), default="byte",
                    help="the unit of the kernel's memory addresses (default byte; element: converted to "
                         "bytes by the front door, address-units-to-bytes)")
    ap.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                    help="the value of a scalar kernel argument (repeatable): the reference uses it, "
                         "the compiler specialises the kernel on it")
    ap.add_argument("--inputs", metavar="FILE.npz", default=None,
                    help="input arrays (keys 'in/<buffer>' as --save writes them) instead of random ones")
    ap.add_argument("--strict-bounds", action="store_true",
                    help="an access outside a view's coordinate_set is an error (default: masked, as Triton: "
                         "loads read 0, stores are dropped)")
    ap.add_argument("--stage-order", choices=("sibling", "reverse"), default="sibling",
                    help="which ready stage runs first: the first in its pipeline (default) or the last "
                         "(exposes dependencies the tokens forgot)")
    ap.add_argument("--no-dataflow-sim", dest="simulate_dataflow", action="store_false",
                    help="skip DataflowIR points instead of running them on the DataflowIR simulator")
    ap.add_argument("--tiles", metavar="N", default=None,
                    help="with --check: check N compute tiles (the first, the last, seeded random others) "
                         "instead of all, when the tiles do not communicate")
    ap.add_argument("--verbose", "-v", action="store_true", help="print execution statistics per pass")
    ap.add_argument("--max-input-mb", type=float, default=DEFAULT_MAX_INPUT_MB, metavar="MB",
                    help=f"refuse input files larger than this (default {DEFAULT_MAX_INPUT_MB})")
    ap.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    return ap


# ---------------------------------------------------------------------------------------
# printing
# ---------------------------------------------------------------------------------------


def checksum(array: np.ndarray) -> str:
    arr = np.ascontiguousarray(np.asarray(array))
    return f"0x{zlib.crc32(arr.tobytes()) & 0xFFFFFFFF:08x}"


def describe_outputs(outputs: dict[str, np.ndarray], out) -> None:
    from dfsched.interp.memory import TouchedBuffer

    for key in outputs:
        if isinstance(outputs[key], TouchedBuffer):
            _describe_touched(key, outputs[key], out)
            continue
        arr = np.asarray(outputs[key])
        total = arr.astype(np.complex128 if np.iscomplexobj(arr) else np.float64).sum()
        total_text = f"{total.real:.6g}" if not np.iscomplexobj(arr) else f"{total:.6g}"
        print(f"{key}: shape {list(arr.shape)} {arr.dtype} sum {total_text} crc32 {checksum(arr)}", file=out)


def _describe_touched(key: str, buffer, out) -> None:
    """A buffer generated on touch: the elements the run touched, summed and checksummed."""
    values = np.concatenate([v for _, v in buffer.runs]) if buffer.runs else buffer.element.zeros((0,))
    total = values.astype(np.complex128 if np.iscomplexobj(values) else np.float64).sum()
    total_text = f"{total.real:.6g}" if not np.iscomplexobj(values) else f"{total:.6g}"
    print(f"{key}: shape {list(buffer.shape)} {buffer.dtype} generated on touch, {buffer.touched} of {buffer.size} "
          f"elements touched: sum {total_text} crc32 {checksum(values)}", file=out)


def save_arrays(path: str, inputs: dict[str, np.ndarray], outputs: dict[str, np.ndarray]) -> None:
    """Inputs and outputs; a buffer generated on touch is saved as the elements the run
    touched (`out/K/touched_index`, row-major flat indices, and `out/K/touched_values`), and
    its input not at all (the seed makes it again)."""
    from dfsched.interp.memory import GeneratedInput, TouchedBuffer

    arrays = {f"in/{k}": np.asarray(v) for k, v in inputs.items() if not isinstance(v, GeneratedInput)}
    for k, v in outputs.items():
        if isinstance(v, TouchedBuffer):
            arrays[f"out/{k}/touched_index"] = np.concatenate(
                [np.arange(first, first + part.size, dtype=np.int64) for first, part in v.runs] or [np.zeros(0, np.int64)])
            arrays[f"out/{k}/touched_values"] = np.concatenate([part for _, part in v.runs] or [v.element.zeros((0,))])
        else:
            arrays[f"out/{k}"] = np.asarray(v)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_bytes_atomic(path, buffer.getvalue())


# ---------------------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------------------


def _read(path: str) -> str:
    try:
        return read_source(path)
    except OSError as exc:
        raise UsageError(f"could not open input file '{path}': {exc.strerror}") from None


def _parse(path: str, text: str):
    from dfsched.interp.ktir import parse_module

    return parse_module(text, path)


def _is_schedule_ir(module) -> bool:
    from xdsl.dialects.builtin import ModuleOp

    for op in module.walk():
        if op.name.startswith("ktdf.") or (isinstance(op, ModuleOp) and op.sym_name is not None):
            return True
    return False


def _reserve_size(text: str) -> Any:
    if text == "auto":
        return "auto"
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"--reserve-size must be an integer or 'auto', not '{text}'") from None
    if value <= 0:
        raise UsageError(f"--reserve-size must be positive, not {value}")
    return value


def front_door(module, *, bind: Sequence[str] = (), unit: str = "byte") -> None:
    """Apply the pipeline's front door (`pipeline.FRONT_DOOR`: the `--bind` values folded in,
    element addresses turned into bytes) to a KTIR `module`, in place: the reference runs the
    kernel the compiler schedules."""
    from dfsched import pipeline

    _apply_pipeline(module, pipeline.FRONT_DOOR, [f"--bind={b}" for b in bind] + [f"--unit={unit}"])


def load_inputs(path: str, module, seed: int, kernel: str | None) -> dict[str, np.ndarray]:
    """The arrays of `path` (an .npz with `in/<key>` entries, as `--save` writes them) for the
    kernel's buffers; buffers it does not hold get seeded random contents. A key the kernel has
    no buffer for, or an array of another shape or type than its buffer, is a UsageError."""
    from dfsched.interp import ktir

    expected = ktir.make_inputs(module, seed, kernel=kernel)
    try:
        with np.load(path, allow_pickle=False) as data:
            given = {k[3:]: np.asarray(data[k]) for k in data.files if k.startswith("in/")}
            others = [k for k in data.files if not k.startswith(("in/", "out/"))]
    except (OSError, ValueError, EOFError) as exc:
        raise UsageError(f"--inputs {path}: not a readable .npz file ({exc})") from None
    if others:
        raise UsageError(f"--inputs {path}: key '{others[0]}' is not 'in/<buffer>' (as --save writes them)")
    inputs = dict(expected)
    for key, array in given.items():
        if key not in expected:
            raise UsageError(f"--inputs {path}: the kernel has no input 'in/{key}' "
                             f"(its inputs: {', '.join('in/' + k for k in expected) or 'none'})")
        want = expected[key]
        if array.dtype != want.dtype:
            raise UsageError(f"--inputs {path}: 'in/{key}' holds {array.dtype} but the kernel's buffer is {want.dtype}")
        if array.shape != want.shape:
            raise UsageError(f"--inputs {path}: 'in/{key}' has shape {list(array.shape)} but the kernel's buffer "
                             f"has shape {list(want.shape)}")
        inputs[key] = array
    return inputs


# ---------------------------------------------------------------------------------------
# --check
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class Row:
    index: int
    name: str
    verdict: Any  # schedule.Verdict | None
    failure: str | None = None  # the pass itself failed
    unchanged: bool = False  # the pass left the IR as it was: the verdict is the previous row's
    front_door: bool = False  # applied before the reference ran (`front_door`): nothing to compare

    @property
    def failed(self) -> bool:
        return self.failure is not None or (self.verdict is not None and self.verdict.failed)

    def status(self) -> str:
        if self.failure is not None:
            return "PASS FAILED"
        if self.front_door:
            return "front door (the reference runs its output)"
        v = self.verdict
        sim = " (DataflowIR simulator)" if v.engine == "dataflow" else ""
        sim += " (IR unchanged)" if self.unchanged else ""
        if v.status == "exact":
            return "exact" + sim
        if v.status == "tolerance":
            return f"ok ({v.message})" + sim
        if v.status == "skipped":
            return f"skipped ({_first_line(v.message)})"
        if v.status == "mismatch":
            return "MISMATCH"
        return "ERROR"

    def error_text(self) -> str:
        if self.verdict is None or self.verdict.max_error is None:
            return "-"
        e = self.verdict.max_error
        return "inf" if e == float("inf") else ("0" if e == 0 else f"{e:.3g}")


def _first_line(text: str) -> str:
    line = text.splitlines()[0] if text else ""
    # drop the location prefix of a rendered diagnostic: "file:1:2: error: "
    if ": error: " in line:
        line = line.split(": error: ", 1)[1]
    return line


@dataclasses.dataclass
class CheckReport:
    rows: list[Row]
    reference_outputs: dict[str, np.ndarray]
    inputs: dict[str, np.ndarray]
    tiles_note: str | None = None  # which tiles were checked, with --tiles
    order_note: str | None = None  # f16 accumulation: the reference in the schedule's order (check_order.py)

    @property
    def failed(self) -> bool:
        return any(r.failed for r in self.rows)

    def table(self) -> str:
        head = ("#", "pass", "status", "max error")
        body = [(str(r.index) if r.index else "-", r.name, r.status(), r.error_text()) for r in self.rows]
        widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
        widths[2] = min(widths[2], 76)
        body = [(a, b, c if len(c) <= widths[2] else c[: widths[2] - 3] + "...", d) for a, b, c, d in body]
        lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(),
                 "  ".join("-" * w for w in widths)]
        for b in body:
            lines.append("  ".join(c.ljust(w) for c, w in zip(b, widths)).rstrip())
        return "\n".join(lines)

    def details(self) -> str:
        out = []
        for r in self.rows:
            if r.failure is not None:
                out.append(f"after pass #{r.index} {r.name}: the pass failed:\n{r.failure}")
            elif r.verdict is not None and r.verdict.failed:
                what = "outputs differ from the reference" if r.verdict.status == "mismatch" else \
                    "the ScheduleIR cannot run as written"
                text = "\n".join(r.verdict.problems) if r.verdict.problems else r.verdict.message
                where = f"after pass #{r.index} {r.name}" if r.index else "on the input kernel"
                out.append(f"{where}: {what}:\n{text}")
        return "\n\n".join(out)


def _ir_fingerprint(module) -> list:
    """What the IR is, up to value names: each op's name, attributes, properties, result types,
    regions' blocks and operands (numbered in walk order). Equal for a module a pass left
    as it was; a tenth of the cost of comparing printed text (a third of a `--check` went on
    printing the module after every pass)."""
    numbers: dict = {}
    items = []
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                numbers.setdefault(block, len(numbers))
                for arg in block.args:
                    numbers.setdefault(arg, len(numbers))
        items.append((op.name, tuple(numbers.setdefault(v, len(numbers)) for v in op.operands),
                      tuple(numbers.setdefault(r, len(numbers)) for r in op.results),
                      tuple(r.type for r in op.results), tuple(op.attributes.items()), tuple(op.properties.items()),
                      tuple(len(region.blocks) for region in op.regions),
                      tuple(tuple(a.type for a in block.args) for region in op.regions for block in region.blocks),
                      tuple(numbers.setdefault(s, len(numbers)) for s in op.successors)))
    return items


def _pass_label(request) -> str:
    from dfsched.tools.opt import _option_spelling

    return _option_spelling(request)


def check_kernel(
    path: str,
    *,
    device: str | None = "sample",
    seed: int = 0,
    passes: str | None = None,
    reserve_size: Any = "auto",
    kernel: str | None = None,
    unit: str = "byte",
    sources: SourceManager | None = None,
    text: str | None = None,
    progress=None,
    simulate_dataflow: bool = True,
    stage_order: str = "sibling",
    bind: Sequence[str] = (),
    inputs_file: str | None = None,
    tiles: int | None = None,
    strict_bounds: bool = False,
    warnings: list | None = None,
) -> CheckReport:
    """Compile `path` pass by pass and compare the ScheduleIR after each with the reference.

    The front door (`front_door`: `bind` folded in, `unit` addresses made bytes) runs first;
    the reference runs its output, and its passes get a "front door" row in the table.
    A pass that leaves the IR as it was (`_ir_fingerprint`) gets the previous row's verdict, marked
    "(IR unchanged)": running the same IR again would compute the same outputs.
    """
    from dfsched import pipeline
    from dfsched.interp import ktir, schedule, tile_sample
    from dfsched.tools import check_order
    from dfsched.tools.opt import DfschedOptMain

    text = _read(path) if text is None else text
    sources = sources or SourceManager()
    sources.add(path, text)
    argv = ([f"--device={device}"] if device else []) + ([f"--passes={passes}"] if passes else ["-ktir-to-dfir"])
    argv += [f"--bind={b}" for b in bind] + [f"--unit={unit}", path]
    driver = DfschedOptMain(argv)
    built = driver.build_passes()
    compiled = driver.parse(path, text)
    compat.verify_module(compiled)
    front_door(compiled, bind=bind, unit=unit)
    module = compiled.clone()
    # the reference accumulates reductions as the device's compute unit declares
    semantics = {"accumulate": device_accumulation(device),
                 "out_of_bounds": "error" if strict_bounds else "mask"}
    inputs = (load_inputs(inputs_file, module, seed, kernel) if inputs_file
              else ktir.make_inputs(module, seed, kernel=kernel))
    reference = ktir.run(module, inputs, kernel=kernel, **semantics)
    if warnings is not None:
        warnings.extend(reference.warnings)
    reductions = schedule.has_reduction(module)
    run_options = {"reserve_size": reserve_size, "unit": "byte", "kernel": kernel, "stage_order": stage_order,
                   **semantics}
    dataflow_device = (device or "sample") if simulate_dataflow else None
    tiles_note = None
    chosen = None
    if tiles is not None:
        reference, chosen, tiles_note = _sample_tiles(module, kernel, reference, inputs, tiles, seed)
        run_options["tiles"] = chosen
    # the checks need the reference's outputs and layout only: its memories go now
    reference = _dropping_the_run(dataclasses.replace(reference, global_memory=None, scratchpads={}), inputs)
    # f16 accumulation: rows not equal to the reference are judged again in the schedule's order
    in_order = reductions and check_order.narrow_accumulation(semantics["accumulate"])
    lanes: dict = {}
    irs: dict[int, Any] = {}  # row index -> its IR, None if no lanes can apply (rows not exactly the reference)
    kept_outputs = SharedArrays()
    order_note = None

    rows = [Row(0, "(input)", _without_outputs(_dropping_the_run(schedule.check_schedule(
        module, inputs, reference, reductions=reductions, sources=sources, **run_options), inputs)))]
    if progress:
        progress(rows[-1])
    previous = _ir_fingerprint(compiled)
    for index, (request, instance) in enumerate(built, 1):
        label = _pass_label(request)
        if request.name in pipeline.FRONT_DOOR:
            rows.append(Row(index, label, rows[0].verdict, front_door=True))
            if progress:
                progress(rows[-1])
            continue
        try:
            driver.apply_pass(compiled, request, instance)
        except DiagnosticError as exc:
            rows.append(Row(index, label, None, exc.diagnostic.render(sources)))
            if progress:
                progress(rows[-1])
            break
        except Exception as exc:  # noqa: BLE001 - a crash inside the pass: still print the table
            rows.append(Row(index, label, None, f"internal error in the pass: {type(exc).__name__}: {exc}"))
            break
        now = _ir_fingerprint(compiled)
        if now == previous:
            rows.append(Row(index, label, rows[-1].verdict, unchanged=True))
        else:
            verdict = _dropping_the_run(schedule.check_schedule(
                compiled, inputs, reference, reductions=reductions, sources=sources,
                dataflow_device=dataflow_device, **run_options), inputs)
            if not (in_order and verdict.status in ("tolerance", "mismatch")):
                verdict = _without_outputs(verdict)  # only `_judge_in_order` compares them again
            else:
                verdict.outputs = kept_outputs.share(verdict.outputs)
            rows.append(Row(index, label, verdict))
            if in_order:
                lanes.update(check_order.lane_marks(compiled))
                if verdict.status in ("tolerance", "mismatch"):  # its IR only if it may be run again
                    irs[index] = compiled.clone() if check_order.unmarked_linalg(compiled) else None
                if check_order.matrix_steps(compiled):
                    in_order, irs = False, {}
                    order_note = ("f16 accumulation: a contraction runs on the matrix unit, whose steps accumulate "
                                  "in its own type (not modelled): reductions are compared within the tolerance")
        previous = now
        if progress:
            progress(rows[-1])
    if irs:
        def run_reference(kernel_module, **options):
            result = ktir.run(kernel_module, inputs, kernel=kernel, **{**semantics, **options})
            outputs = result.outputs if chosen is None else tile_sample.sampled_outputs(result, inputs, chosen)
            del result
            return _dropping_the_run(outputs, inputs)

        def fold(kernel_module):
            _apply_pipeline(kernel_module, ["fold-accumulation-loops"], [f"--device={device}"] if device else [])

        order = check_order.order_reference(
            module, inputs, fold=fold, run=run_reference, lanes=lanes,
            compare=lambda expected, actual: schedule.output_differences(expected, actual, True))
        order_note = order.note
        if order.outputs is not None:
            _judge_in_order(rows, irs, order.outputs, lanes, inputs, reference,
                            dict(run_options, reduction_lanes=lanes), dataflow_device, reductions, sources)
    for row in rows:  # every verdict is final: the outputs its run computed go
        if row.verdict is not None:
            _without_outputs(row.verdict)
    return CheckReport(rows, reference.outputs, inputs, tiles_note, order_note)


def _judge_in_order(rows: list[Row], irs: dict, expected: dict, lanes: dict, inputs, reference, run_options,
                    dataflow_device, reductions: bool, sources) -> None:
    """Judge the rows `irs` holds again, against the order reference `expected` (check_order.py):
    equal bit for bit, a pass; else a mismatch naming the differences. A row whose IR has a
    reduction the lanes apply to is run again with them; the others' outputs are as they were.
    A judged verdict keeps no outputs: a row run again would otherwise hold its run's to the end."""
    from dfsched.interp import ktir, schedule
    from dfsched.tools import check_order

    judged: dict[int, Any] = {}
    for row in rows:
        if row.verdict is None:
            continue
        if row.index in irs:
            old = row.verdict
            ir = irs[row.index]  # None: no lanes apply, its outputs are as they were
            if ir is not None and check_order.needs_lanes(ir, lanes):  # its distance to the reference as run in order
                old = _dropping_the_run(schedule.check_schedule(
                    ir, inputs, reference, reductions=reductions, sources=sources,
                    dataflow_device=dataflow_device, **run_options), inputs)
            if old.outputs is None:
                continue
            problems = ktir.compare_outputs(expected, old.outputs)
            if not problems:
                verdict = dataclasses.replace(old, status="tolerance", message="exact in the schedule's f16 order",
                                              problems=[], outputs=None)
            else:
                verdict = dataclasses.replace(old, status="mismatch", problems=problems, outputs=None, message="; ".join(
                    ["not equal to the reference in the schedule's f16 order"] + problems))
            judged[id(row.verdict)] = verdict
            row.verdict = verdict
        elif row.unchanged and id(row.verdict) in judged:
            row.verdict = judged[id(row.verdict)]


def _without_outputs(verdict):
    """`verdict` without the outputs its run computed: a row keeps them only while the f16
    order check may judge it again (`_judge_in_order`); each is as big as the kernel's
    outputs (with a DataflowIR simulation, every global buffer: 75 MB per pass on corpus
    `layernorm_fwd_ktir`), and the rows held them all until the end."""
    if verdict.outputs is not None:
        verdict.outputs = None
    return verdict


class SharedArrays:
    """The outputs rows keep for `_judge_in_order`, one array per distinct content.

    A run's outputs are every global buffer (inputs included), and most passes compute the same
    bytes: a copy per row grew by 75 MB per pass on corpus `layernorm_fwd_ktir` (2.5 GB at the
    end); rows whose arrays are equal bit for bit now share one."""

    def __init__(self) -> None:
        self._by_content: dict[tuple, np.ndarray] = {}

    def share(self, outputs: dict[str, Any]) -> dict[str, Any]:
        return {key: self._one(value) for key, value in outputs.items()}

    def _one(self, value: Any) -> Any:
        if not isinstance(value, np.ndarray):
            return value
        data = np.ascontiguousarray(value).view(np.uint8)
        key = (value.shape, value.dtype.str, hashlib.blake2b(data, digest_size=16).digest())
        kept = self._by_content.setdefault(key, value)
        same = kept is value or np.array_equal(np.ascontiguousarray(kept).view(np.uint8), data)
        return kept if same else value


BIG_RUN_INPUT_BYTES = 16 << 20
"""Checks whose inputs reach this size collect garbage after each run (`_dropping_the_run`)."""


def _dropping_the_run(kept, inputs):
    """`kept` (a verdict or outputs), after freeing what the run that made it left behind.

    A run's interpreter state (memories, FIFOs, the simulator's timeline) is linked in cycles,
    which only a full collection frees, and the tools collect rarely (`collect_garbage_less_often`):
    without this, `--check` held every pass's run until the end (6.6 GB on corpus
    `matmul_fwd_ktir --tiles 2`). Only the outputs the verdicts compare are kept. Small kernels
    skip the collection: their runs are small, and a full collection per pass costs more than
    the run in a big process (the test suite)."""
    if sum(getattr(value, "nbytes", 0) for value in inputs.values()) >= BIG_RUN_INPUT_BYTES:
        gc.collect()
        _return_freed_memory()
    return kept


@functools.cache
def _malloc_trim():
    """glibc's `malloc_trim`, or None (another C library)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def _return_freed_memory() -> None:
    """Give the pages malloc holds free back to the OS. After a run frees a buffer of a few
    MB, glibc raises its mmap threshold, so the next runs' buffers come from the heap, whose
    free pages it keeps: 270 MB of RSS on corpus `layernorm_fwd_ktir --tiles 2`, which held
    about 1.14 GB after each pass while its live data was under 0.9 GB."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _apply_pipeline(module, passes: Sequence[str], options: Sequence[str] = ()) -> None:
    """Run `passes` (pipeline syntax) on `module` in place, with dfsched-opt's `options`."""
    from dfsched.tools.opt import DfschedOptMain

    driver = DfschedOptMain([*options, "--pass-pipeline=" + ",".join(passes)])
    for request, instance in driver.build_passes():
        driver.apply_pass(module, request, instance)


def _sample_tiles(module, kernel, reference, inputs, wanted: int, seed: int):
    """(the reference as seen by the tiles checked, those tiles or None for all, what to say)."""
    from dfsched.interp import ktir, tile_sample

    total = int(np.prod(ktir.kernel_info(module, kernel).grid, dtype=np.int64))
    if wanted >= total:
        return reference, None, f"checking all {total} tile(s): --tiles {wanted} covers the grid"
    why = tile_sample.why_all_tiles(module, reference)
    if why is not None:
        return reference, None, f"checking all {total} tiles, not {wanted}: {why}"
    chosen = tile_sample.sampled_tiles(total, wanted, seed)
    outputs = tile_sample.sampled_outputs(reference, inputs, chosen)
    note = (f"checking {len(chosen)} of {total} tiles ({', '.join(map(str, chosen))}; seed {seed}): "
            "the tiles do not communicate")
    return dataclasses.replace(reference, outputs=outputs), chosen, note


def device_accumulation(device: str | None) -> str | None:
    """The accumulation type `device`'s compute unit declares (None: none declared, no device,
    or a device that does not load: the pipeline's first pass reports that, located)."""
    if device is None:
        return None
    from dfsched.arch.loading import load_device

    try:
        return load_device(device).accumulation_type
    except (DiagnosticError, OSError, ValueError):
        return None


def _print_warnings(warnings, err, sources: SourceManager) -> None:
    for diagnostic in warnings:
        print(diagnostic.render(sources), file=err)


# ---------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------


def _run(args, out, err, sources: SourceManager) -> int:
    from dfsched.interp import ktir, schedule

    set_max_input_mb(args.max_input_mb)
    reserve_size = _reserve_size(args.reserve_size)
    tiles = _tiles(args)
    for output in (args.save, args.timeline, args.trace):
        if output:
            check_writable(output)  # before any work
    if args.timeline:
        _check_timeline_target(args)
    _check_views(args)
    if args.check:
        device = args.device or "sample"
        warnings: list = []
        report = check_kernel(args.kernel, device=device, seed=args.seed, passes=args.passes,
                              reserve_size=reserve_size, kernel=args.kernel_name, unit=args.unit, sources=sources,
                              simulate_dataflow=args.simulate_dataflow, stage_order=args.stage_order, tiles=tiles,
                              strict_bounds=args.strict_bounds, warnings=warnings,
                              bind=args.bind, inputs_file=args.inputs)
        _print_warnings(warnings, err, sources)
        flags = " ".join([f"--bind {b}" for b in args.bind] + ([f"--unit {args.unit}"] if args.unit != "byte" else []))
        front = f", front door {flags}" if flags else ""
        print(f"{args.kernel}: {len(report.rows) - 1} pass(es) on device '{device}', seed {args.seed}{front}", file=out)
        if report.tiles_note:
            print(report.tiles_note, file=out)
        if report.order_note:
            print(report.order_note, file=out)
        print(report.table(), file=out)
        if args.verbose:
            for r in report.rows:
                if r.verdict is not None and r.verdict.stats:
                    stats = ", ".join(f"{k} {v}" for k, v in r.verdict.stats.items())
                    print(f"#{r.index} {r.name}: {stats}", file=out)
        details = report.details()
        if details:
            print("", file=out)
            print(details, file=out)
        if args.save:
            save_arrays(args.save, report.inputs, report.reference_outputs)
        ok = not report.failed
        checked = sum(1 for r in report.rows if r.verdict is not None and r.verdict.ok)
        skipped = sum(1 for r in report.rows if r.verdict is not None and r.verdict.status == "skipped")
        summary = (f"{'OK' if ok else 'FAILED'}: {checked} of {len(report.rows)} point(s) (the input and "
                   f"{len(report.rows) - 1} pass(es)) match the reference, {skipped} skipped")
        failed = [r for r in report.rows if r.failed]
        if failed:
            summary += f", {len(failed)} failed"
        print(summary, file=out)
        if args.timeline or args.trace:
            _draw_timeline(args, out)
        print(_final_cycles(report), file=out)
        return 0 if ok else 1

    text = _read(args.kernel)
    sources.add(args.kernel, text)
    module = _parse(args.kernel, text)
    if _is_schedule_ir(module):
        if args.bind or args.inputs:
            raise UsageError("--bind and --inputs apply to KTIR kernels, not to ScheduleIR")
        # the dry run finds the same buffers as the kernel's, so the inputs are the same too
        layout = schedule.schedule_layout(module, kernel=args.kernel_name, unit=args.unit, reserve_size=reserve_size)
        inputs = _random_inputs(layout, args.seed)
        outputs = schedule.run_schedule(module, inputs, layout=layout, kernel=args.kernel_name, unit=args.unit,
                                        reserve_size=reserve_size).outputs
        print(f"{args.kernel}: ScheduleIR interpreter, seed {args.seed}", file=out)
    else:
        front_door(module, bind=args.bind, unit=args.unit)
        # without --device: f32 accumulation (Options' default); with one: what it declares
        semantics = {"out_of_bounds": "error" if args.strict_bounds else "mask"}
        if args.device:
            semantics["accumulate"] = device_accumulation(args.device)
        inputs = (load_inputs(args.inputs, module, args.seed, args.kernel_name) if args.inputs
                  else ktir.make_inputs(module, args.seed, kernel=args.kernel_name))
        result = ktir.run(module, inputs, kernel=args.kernel_name, **semantics)
        _print_warnings(result.warnings, err, sources)
        outputs = result.outputs
        source = f"inputs {args.inputs}" if args.inputs else f"seed {args.seed}"
        print(f"{args.kernel}: KTIR reference interpreter, {source}", file=out)
    describe_outputs(outputs, out)
    if args.save:
        save_arrays(args.save, inputs, outputs)
    if args.timeline or args.trace:
        if _is_schedule_ir(module):
            raise UsageError("--timeline and --trace need a KTIR kernel (they compile and simulate it)")
        _draw_timeline(args, out)
    return 0


def _check_views(args) -> None:
    """Views the device cannot hold are located errors before anything runs (the check
    `ktir-legality-check` makes), not a failed allocation inside the interpreter."""
    from dfsched.passes.frontend.ktir_legality_check import check_view_fits

    module = _parse(args.kernel, _read(args.kernel))
    for op in module.walk():
        if op.name == "ktdp.construct_memory_view":
            check_view_fits(op, args.device or "")


def _tiles(args) -> int | None:
    """`--tiles N`: a positive count, with --check only."""
    if args.tiles is None:
        return None
    try:
        value = int(args.tiles)
    except ValueError:
        raise UsageError(f"--tiles must be a positive integer, not '{args.tiles}'") from None
    if value <= 0:
        raise UsageError(f"--tiles must be a positive integer, not '{args.tiles}'")
    if not args.check:
        raise UsageError("--tiles samples the tiles of --check; add --check")
    return value


def _final_cycles(report: CheckReport) -> str:
    """The last line of `--check`: the simulated cycles of the final schedule (the last
    row the DataflowIR simulator ran), or why there are none."""
    last = report.rows[-1]
    if last.verdict is not None and last.verdict.engine == "dataflow" and "cycles" in last.verdict.stats:
        return f"simulated cycles: {last.verdict.stats['cycles']} ({last.name}, DataflowIR simulator)"
    if last.failure is not None or (last.verdict is not None and last.verdict.failed):
        return "simulated cycles: none (the final schedule did not run)"
    return "simulated cycles: none (the pipeline does not end in DataflowIR the simulator ran)"


def _check_timeline_target(args) -> None:
    """Usage errors of --timeline, before any work is done."""
    from dfsched.interp.timeline import output_format

    try:
        output_format(args.timeline)
    except ValueError as exc:
        raise UsageError(f"--timeline: {exc}") from None


def _draw_timeline(args, out) -> None:
    """Compile the kernel to DataflowIR, simulate it on the reference inputs, draw the chart
    (`--timeline`) and/or write the trace (`--trace`)."""
    from dfsched.interp import ktir
    from dfsched.interp.dataflow import check_against_reference
    from dfsched.tools.dataflow_compile import CompileError, compile_to_dfir
    from dfsched.interp.timeline import write_timeline

    device = args.device or "sample"
    flags = [f"--bind={b}" for b in args.bind] + [f"--unit={args.unit}"]
    try:
        dfir = compile_to_dfir(args.kernel, device, extra_args=flags)
    except CompileError as exc:
        raise UsageError(f"cannot simulate the schedule: {exc}") from None
    module = ktir.load_module(args.kernel)
    front_door(module, bind=args.bind, unit=args.unit)
    inputs = load_inputs(args.inputs, module, args.seed, args.kernel_name) if args.inputs else None
    result, differences = check_against_reference(module, dfir, inputs, device=device, seed=args.seed)
    status = "outputs match the reference" if not differences else "outputs DIFFER from the reference"
    if args.timeline:
        write_timeline(result, args.timeline, title=f"{os.path.basename(args.kernel)} on {device}")
        print(f"timeline: {args.timeline} ({result.total_cycles} cycles; {status})", file=out)
    if args.trace:
        from dfsched.interp.trace import write_trace

        write_trace(result, args.trace)
        print(f"trace: {args.trace} ({result.total_cycles} cycles; {status})", file=out)


def _random_inputs(layout, seed: int) -> dict[str, np.ndarray]:
    """`ktir.make_inputs`' distribution, for a layout found by the ScheduleIR dry run."""
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray] = {}
    for b in layout.global_buffers():
        et = b.element
        if et.is_fused:
            data = rng.uniform(-1.0, 1.0, b.shape) + 1j * rng.uniform(-1.0, 1.0, b.shape)
        elif et.is_float:
            data = rng.uniform(-1.0, 1.0, b.shape)
        elif et.kind == "bool":
            data = rng.integers(0, 2, b.shape)
        else:
            data = rng.integers(0, 8, b.shape)
        out[b.key] = np.asarray(et.cast(data))
    for name, value in layout.scalars.items():
        out[name] = np.asarray(value)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else 2
    sources = SourceManager()
    from dfsched.tools.opt import UsageError as OptUsageError
    from dfsched.tools.pipeline_syntax import PipelineSyntaxError

    try:
        return _run(args, out, err, sources)
    except (UsageError, OptUsageError, PipelineSyntaxError) as exc:
        print(f"{PROG}: error: {exc}", file=err)
        return 1
    except DiagnosticError as exc:
        print(exc.diagnostic.render(sources), file=err)
        return 1
    except ParseError as exc:
        text = _safe_read(args.kernel)
        print(compat.parse_error_diagnostic(exc, args.kernel, text).render(sources), file=err)
        return 1
    except (ValueError, OutputError) as exc:
        print(f"{PROG}: error: {exc}", file=err)
        return 1
    except MemoryError:
        print(f"{PROG}: error: the kernel's memories do not fit in this machine's memory", file=err)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # an internal error: no traceback unless --debug
        if args.debug:
            traceback.print_exc()
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc}", file=err)
        return 1


def _safe_read(path: str) -> str:
    try:
        return Path(path).read_text()
    except (OSError, ValueError):
        return ""


if __name__ == "__main__":
    sys.exit(main())
