"""`dfsched-opt`: an `mlir-opt`-style driver on top of xDSL's `xDSLOptMain`.

Beyond xdsl-opt it accepts MLIR's spellings (single-dash long flags, every pass as a flag of
its own, `--pass-pipeline='builtin.module(...)'`), prints `file:line:col: error:` diagnostics
instead of tracebacks, implements MLIR's `--verify-diagnostics`, and never leaves a partial
output file behind.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ParseError

from dfsched import compat, dialects, passes, pipeline
from dfsched.compat import xDSLOptMain
from dfsched.diagnostics import (
    Diagnostic,
    DiagnosticError,
    SourceManager,
    check_expectations,
    parse_expectations,
)
from dfsched.fileio import DEFAULT_MAX_INPUT_MB, OutputError, check_writable, read_source, set_max_input_mb, write_text_atomic
from dfsched.tools import tile_search
from dfsched.tools.pipeline_syntax import PassRequest, PipelineSyntaxError, parse_options, parse_pipeline

SPLIT_MARKER = "// -----"


class UsageError(Exception):
    """A bad command line: reported as `error: ...`, exit 2."""


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

# Flags whose single-dash spelling must be understood (`-split-input-file`): every long flag.
def _normalise_argv(argv: Sequence[str], long_flags: set[str]) -> list[str]:
    out = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            name = arg[1:].split("=", 1)[0]
            if name in long_flags:
                arg = "-" + arg
        out.append(arg)
    return out


def _split_pass_flags(argv: list[str]) -> tuple[list[str], list[PassRequest], bool]:
    """Take pass and named-pipeline flags out of argv, keeping their command-line order; and
    whether a named pipeline was among them."""
    rest: list[str] = []
    requests: list[PassRequest] = []
    named = False
    for arg in argv:
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            if name in pipeline.NAMED_PIPELINES:
                requests.extend(parse_pipeline(",".join(pipeline.NAMED_PIPELINES[name])))
                named = True
                continue
            if name in passes.PASSES:
                requests.append(PassRequest(name, parse_options(value)))
                continue
            if name in ("pass-pipeline", "passes"):
                requests.extend(parse_pipeline(value))
                continue
        rest.append(arg)
    return rest, requests, named


class DfschedOptMain(xDSLOptMain):
    """xDSLOptMain with dfsched's dialects, passes and flags; `run` is ours."""

    writes_grids_when_printing = True
    """When the pipeline ends with `wrap-program-dfir` and its result is only printed, the printer
    writes a uniform grid's other cores (`printing.print_module(grids=...)`) instead of the pass
    building them: the same bytes, without building hundreds of thousands of ops."""
    _grids_left_folded = False

    def __init__(self, args: Sequence[str]):
        self.source_manager = SourceManager()
        long_flags = {"p", *passes.PASSES, *(f"disable-{p}" for p in passes.PASSES),
                      *pipeline.NAMED_PIPELINES, *_LONG_FLAGS}
        argv = _normalise_argv(args, long_flags)
        # `-p X` (xDSL spelling) becomes --passes=X so it keeps its place in the order.
        argv = _join_p_flag(argv)
        argv, self.requests, self.named_pipeline = _split_pass_flags(argv)
        # xDSL's `--disable-verify` turns off attribute verification for the whole process
        # (`Attribute.__post_init__`), which outlives this tool when it runs in-process
        # (`strategy=search`, `dfsched.compile`); here it skips only the op verifier.
        attribute_post_init = Attribute.__post_init__
        try:
            super().__init__(args=argv)
        finally:
            Attribute.__post_init__ = attribute_post_init
        self.verify = compat.VerifyWhenChanged()  # after parsing and each pass (Decision 116)

    # -- registration ------------------------------------------------------
    def register_all_dialects(self):
        dialects.register_all(self.ctx)

    def register_all_passes(self):
        for name, (module, attr) in passes.PASSES.items():
            self.register_pass(name, _lazy(module, attr))

    def register_all_targets(self):
        self.available_targets = {"mlir": lambda: None}

    def register_all_arguments(self, ap: argparse.ArgumentParser):
        ap.add_argument("input_file", nargs="?", default="-", help="input file ('-' for stdin)")
        ap.add_argument("-o", "--output-file", default=None, help="output file (default: stdout)")
        ap.add_argument("--split-input-file", action="store_true",
                        help="split the input at '// -----' and process each part on its own")
        ap.add_argument("--verify-diagnostics", action="store_true",
                        help="check diagnostics against expected-error/warning/note comments")
        ap.add_argument("--print-op-generic", action="store_true", help="print ops in generic form")
        ap.add_argument("--mlir-print-op-generic", dest="print_op_generic", action="store_true",
                        help=argparse.SUPPRESS)
        ap.add_argument("--print-debuginfo", "--mlir-print-debuginfo", dest="print_debuginfo",
                        action="store_true", help="print op locations")
        ap.add_argument("--allow-unregistered-dialect", action="store_true",
                        help="accept ops of unknown dialects (generic form)")
        ap.add_argument("--print-ir-after-all", "--mlir-print-ir-after-all", dest="print_ir_after_all",
                        action="store_true", help="print the IR to stderr after every pass")
        ap.add_argument("--print-ir-before-all", "--mlir-print-ir-before-all", dest="print_ir_before_all",
                        action="store_true", help="print the IR to stderr before every pass")
        ap.add_argument("--dump-pass-pipeline", action="store_true",
                        help="print the pass pipeline to stderr before running it")
        ap.add_argument("--device", default=None,
                        help="architecture file (or a short name such as 'sample') for passes that need one")
        ap.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                        help="specialise the kernel on a scalar argument's value (repeatable; "
                             "pass bind-kernel-arguments)")
        ap.add_argument("--unit", choices=("byte", "element"), default=None,
                        help="the unit of the kernel's memory addresses (default byte; element: "
                             "address-units-to-bytes converts them)")
        ap.add_argument("--disable-verify", action="store_true", help="do not verify between passes")
        ap.add_argument("--report", action="store_true",
                        help="after the passes, print what the scheduler decided per program on stderr")
        ap.add_argument("--report-json", metavar="FILE", default=None, help="write the --report facts as JSON")
        ap.add_argument("--simulate", action="store_true",
                        help="with --report/--report-json: simulate the DataflowIR (cycles, device bound)")
        ap.add_argument("--show-dialects", action="store_true", help="list the registered dialects")
        ap.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
        ap.add_argument("--debug-only", default=None, help="accepted for mlir-opt compatibility")
        ap.add_argument("--passes", help=argparse.SUPPRESS)
        ap.add_argument("--pass-pipeline", help="MLIR pass pipeline, e.g. 'builtin.module(cse)'")
        for name in pipeline.NAMED_PIPELINES:
            ap.add_argument(f"--{name}", action="store_true", help=f"run the {name} pipeline")
        for name in passes.PASSES:  # listed by `_add_pass_list` in pipeline order
            ap.add_argument(f"--{name}", nargs="?", metavar="OPTIONS", help=argparse.SUPPRESS)
            ap.add_argument(f"--disable-{name}", action="append_const", const=name, dest="disabled",
                            help=argparse.SUPPRESS)
        ap.add_argument("-p", dest="passes", help="xDSL pass pipeline, e.g. 'cse,canonicalize'")
        ap.add_argument("--no-implicit-module", action="store_true", help="do not wrap the input in a module")
        ap.add_argument("--device-path", action="append", default=[], metavar="DIR",
                        help="a folder device imports may also read from (repeatable; besides two "
                             "levels above the kernel, the current directory and the shipped devices)")
        ap.add_argument("--max-input-mb", type=float, default=DEFAULT_MAX_INPUT_MB, metavar="MB",
                        help=f"refuse input files (kernel, device, imports) larger than this "
                             f"(default {DEFAULT_MAX_INPUT_MB})")
        ap.set_defaults(target="mlir", syntax_highlight=False)
        _add_pass_list(ap)

    def setup_pipeline(self):
        self.pipeline_requests = self.requests

    # -- running -----------------------------------------------------------
    def run(self) -> int:  # type: ignore[override]
        args = self.args
        if args.show_dialects:
            print("Available Dialects:")
            for name in sorted(dialects.DIALECTS):
                print(name)
            return 0
        if args.debug_only:
            from dfsched import diagnostics

            diagnostics.DEBUG_ONLY.update(n.strip() for n in args.debug_only.split(","))
        set_max_input_mb(args.max_input_mb)
        for folder in args.device_path:
            from dfsched.arch.loading import allow_device_root

            allow_device_root(folder)
        built = self.front_door_passes() + self.build_passes()
        if args.output_file:
            check_writable(args.output_file)  # before any work (and before split files are written)
        if args.dump_pass_pipeline:
            print(_pipeline_text(self.pipeline_requests), file=sys.stderr)
        name, text = _read_input(args.input_file)
        self.source_manager.add(name, text)
        outputs: list[str] = []
        failed = False
        self.reports: list = []
        for first_line, chunk in _chunks(text, args.split_input_file):
            ok, out = self._process_chunk(name, first_line, chunk, built)
            failed |= not ok
            if out is not None:
                outputs.append(out)
        result = (f"{SPLIT_MARKER}\n").join(outputs)
        if args.report_json and self.reports and not failed:
            from dfsched.tools.report import write_json

            write_json(self.reports, args.report_json)  # an OutputError is reported by main
        if failed:
            if args.output_file and os.path.isfile(args.output_file):
                os.remove(args.output_file)  # as mlir-opt: an earlier run's output is not this run's
            if not args.verify_diagnostics:
                sys.stdout.write(result) if outputs and not args.output_file else None
            return 1
        self.write_output(result)
        return 0

    def write_output(self, text: str) -> None:
        """The run's output: into `-o`, else on stdout."""
        if self.args.output_file:
            write_text_atomic(self.args.output_file, text)
        else:
            sys.stdout.write(text)

    # -- the API dfsched-run uses to check a pipeline pass by pass ------------
    def front_door_passes(self) -> list[tuple[PassRequest, ModulePass]]:
        """`pipeline.FRONT_DOOR` (`--bind` values folded in, `--unit element` addresses made
        bytes), run right after parsing when a named pipeline (`-ktir-to-dfir`, `-kEmitDFIR`)
        compiles the kernel or `--bind`/`--unit` is given, unless the passes name a front-door
        pass themselves. It is not part of the named pipelines, so `--dump-pass-pipeline`
        shows upstream's."""
        names = {r.name for r in self.pipeline_requests}
        if names & set(pipeline.FRONT_DOOR):
            return []
        if not (self.args.bind or self.args.unit or self.named_pipeline):
            return []
        return self.build_passes(parse_pipeline(",".join(pipeline.FRONT_DOOR)))

    def build_passes(self, requests: list[PassRequest] | None = None) -> list[tuple[PassRequest, ModulePass]]:
        """The pipeline's passes (or `requests`), configured (options, `--device`, `--bind`,
        `--unit`), minus `--disable-<pass>`."""
        built = []
        disabled = set(self.args.disabled or ())
        for request in self.pipeline_requests if requests is None else requests:
            if request.name in disabled:
                continue
            if request.name not in self.available_passes:
                raise UsageError(f"'{request.name}' does not refer to a registered pass or pass pipeline")
            cls = self.available_passes[request.name]()
            try:
                instance = compat.pass_from_options(cls, request.name, _arg_values(request.options))
            except (ValueError, TypeError) as exc:
                raise UsageError(f"invalid options for pass '{request.name}': {exc}") from None
            instance = _with_tool_flags(instance, self.args)
            instance = tile_search.attach(instance, self.args.device)
            built.append((request, instance))
        if requests is None and built and self._only_prints() and getattr(built[-1][1], "expand_grids", False):
            built[-1] = (built[-1][0], dataclasses.replace(built[-1][1], expand_grids=False))
            self._grids_left_folded = True
        return built

    def _only_prints(self) -> bool:
        """Whether the module after the passes is only printed, as the printer writes grids."""
        a = self.args
        return self.writes_grids_when_printing and not (
            a.report or a.report_json or a.simulate or a.print_ir_after_all or a.print_op_generic
            or a.print_debuginfo or a.verify_diagnostics)

    def _process_chunk(self, name: str, first_line: int, chunk: str, built) -> tuple[bool, str | None]:
        """Parse, verify, run the passes and print one buffer; report its diagnostics."""
        produced: list[Diagnostic] = []
        out: str | None = None
        padded = "\n" * (first_line - 1) + chunk  # keep line numbers absolute
        try:
            module = self.parse(name, padded)
            if not self.args.disable_verify:
                self.verify(module)
            collector = self._report_collector()
            self._run_passes(module, built, collector)
            out = self._print(module, self._folded_grids(module))
            if collector is not None:
                self._report(collector.finish(module, name, padded))
        except DiagnosticError as exc:
            produced.append(exc.diagnostic)
        except ParseError as exc:
            produced.append(compat.parse_error_diagnostic(exc, name, padded))
        except Exception as exc:  # an internal error: still no traceback unless --debug
            if self.args.debug:
                traceback.print_exc()
            produced.append(Diagnostic("error", f"internal error: {type(exc).__name__}: {exc}", name, first_line, 1))
        if self.args.verify_diagnostics:
            expected = parse_expectations(chunk, first_line)
            problems = check_expectations(expected, produced, name)
            for p in problems:
                print(p, file=sys.stderr)
            return not problems, out if not produced else None
        for diag in produced:
            print(diag.render(self.source_manager), file=sys.stderr)
        return not produced, out

    def parse(self, name: str, text: str) -> ModuleOp:
        """The module in `text` (named `name` in locations), as this tool's flags parse it."""
        if not _code_of(text).strip():
            return ModuleOp([])  # mlir-opt prints an empty module for empty input
        parser = compat.LocatingParser(self.ctx, text, name)
        return parser.parse_module(not self.args.no_implicit_module)

    def _report_collector(self):
        """A `--report` collector for one buffer, or None."""
        if not (self.args.report or self.args.report_json):
            return None
        from dfsched.tools.report import ReportCollector

        return ReportCollector(self.args.device, simulate=self.args.simulate)

    def _report(self, report) -> None:
        from dfsched.tools.report import render

        self.reports.append(report)
        if self.args.report:
            print(render(report), file=sys.stderr, end="")

    def _run_passes(self, module: ModuleOp, built, collector=None) -> None:
        for request, instance in built:
            if collector is not None:
                collector.before_pass(request.name, module)
            if self.args.print_ir_before_all:
                self._dump("Before", request, instance, module)
            self.apply_pass(module, request, instance)
            if self.args.print_ir_after_all:
                self._dump("After", request, instance, module)

    def apply_pass(self, module: ModuleOp, request: PassRequest, instance: ModulePass) -> None:
        """Run one built pass on its anchored ops of `module`, then verify (unless disabled)."""
        for target in _anchored_targets(module, request.anchor):
            instance.apply(self.ctx, target)
        if not self.args.disable_verify:
            try:
                self.verify(module)
            except DiagnosticError as exc:
                exc.diagnostic.message += f" (after pass '{request.name}')"
                raise

    def _dump(self, when: str, request: PassRequest, instance: ModulePass, module: ModuleOp) -> None:
        print(f"// -----// IR Dump {when} {type(instance).__name__} ({request.name}) //----- //",
              file=sys.stderr)
        print(self._print(module), file=sys.stderr)

    def _folded_grids(self, module: ModuleOp) -> list[object]:
        """The replications the printer writes (`writes_grids_when_printing`), checked now."""
        if not self._grids_left_folded:
            return []
        from dfsched import printing
        from dfsched.passes.lowering.uniform_grid import grids_for_the_printer

        return grids_for_the_printer(module, printing.writes_units_directly)

    def _print(self, module: ModuleOp, grids: Sequence[object] = ()) -> str:
        from dfsched import printing

        stream = StringIO()
        printing.print_module(module, stream, generic=self.args.print_op_generic,
                              debuginfo=self.args.print_debuginfo, grids=grids)
        return stream.getvalue()


def _with_tool_flags(instance: ModulePass, args) -> ModulePass:
    """`instance` with the tool-wide flags its pass takes: `--device`, `--bind`, `--unit`."""
    fields = {f.name for f in dataclasses.fields(instance)}
    changes = {}
    if args.device and "device" in fields:
        changes["device"] = args.device
    if args.bind and "bind" in fields:
        changes["bind"] = tuple(getattr(instance, "bind", ())) + tuple(args.bind)
    if args.unit and "address_unit" in fields:
        changes["address_unit"] = args.unit
    return dataclasses.replace(instance, **changes) if changes else instance


_LONG_FLAGS = {
    "output-file", "split-input-file", "verify-diagnostics", "print-op-generic", "mlir-print-op-generic",
    "print-debuginfo", "mlir-print-debuginfo", "allow-unregistered-dialect", "print-ir-after-all",
    "mlir-print-ir-after-all", "print-ir-before-all", "mlir-print-ir-before-all", "dump-pass-pipeline",
    "device", "bind", "unit", "disable-verify", "show-dialects", "debug", "debug-only", "pass-pipeline", "passes",
    "no-implicit-module", "help", "max-input-mb", "device-path", "report", "report-json", "simulate",
}


def _add_pass_list(ap: argparse.ArgumentParser) -> None:
    """`--help` ends with every pass, its summary and options (built only when help is shown)."""
    plain = ap.format_help

    def format_help() -> str:
        from dfsched.tools.pass_help import help_text

        return plain() + "\n" + help_text()

    ap.format_help = format_help  # type: ignore[method-assign]


def _join_p_flag(argv: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(argv):
        if argv[i] == "-p" and i + 1 < len(argv):
            out.append(f"--passes={argv[i + 1]}")
            i += 2
            continue
        if argv[i] == "--pass-pipeline" and i + 1 < len(argv):
            out.append(f"--pass-pipeline={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def _code_of(text: str) -> str:
    """The text without `//` comments (enough to tell an input holds no IR at all)."""
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def _lazy(module: str, attr: str):
    return lambda: getattr(importlib.import_module(module), attr)


def _arg_values(options: dict[str, str]) -> dict[str, tuple]:
    return {key: tuple(_scalar(v) for v in value.split(",")) for key, value in options.items()}


def _scalar(text: str):
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _anchored_targets(module: ModuleOp, anchor: tuple[str, ...]) -> list[Operation]:
    targets: list[Operation] = [module]
    for op_name in anchor:
        targets = [op for t in targets for op in t.walk() if op is not t and op.name == op_name]
    return targets


def _pipeline_text(requests: list[PassRequest]) -> str:
    """The pipeline as mlir-opt's `--dump-pass-pipeline` prints it, one pass per line."""
    entries: list[tuple[int, str]] = []  # (depth, text) of each line, commas added below
    open_anchor: tuple[str, ...] = ()
    for request in requests:
        common = 0
        while common < min(len(open_anchor), len(request.anchor)) and open_anchor[common] == request.anchor[common]:
            common += 1
        for depth in range(len(open_anchor), common, -1):
            entries.append((depth, ")"))
        for depth in range(common, len(request.anchor)):
            entries.append((depth + 1, f"{request.anchor[depth]}("))
        open_anchor = request.anchor
        entries.append((len(request.anchor) + 1, _option_spelling(request)))
    for depth in range(len(open_anchor), 0, -1):
        entries.append((depth, ")"))
    lines = ["builtin.module("]
    for i, (depth, text) in enumerate(entries):
        nxt = entries[i + 1][1] if i + 1 < len(entries) else ")"
        comma = "," if not text.endswith("(") and nxt != ")" else ""
        lines.append("  " * depth + text + comma)
    lines.append(")")
    return f"Pass Manager with {len(requests)} passes:\n" + "\n".join(lines)


def _option_spelling(request: PassRequest) -> str:
    """MLIR prints string-valued options inside braces: `groups={pre_scheduling}`."""
    if not request.options:
        return request.name
    opts = " ".join(
        f"{k}={v}" if isinstance(_scalar(v), (int, float, bool)) else f"{k}={{{v}}}"
        for k, v in request.options.items()
    )
    return f"{request.name}{{{opts}}}"


def _read_input(path: str) -> tuple[str, str]:
    try:
        return ("<stdin>" if path == "-" else path), read_source(path)
    except OSError as exc:
        raise UsageError(f"could not open input file '{path}': {exc.strerror}") from None


def _chunks(text: str, split: bool) -> list[tuple[int, str]]:
    """(first line number, text) of each buffer; split at lines holding only `// -----`."""
    if not split:
        return [(1, text)]
    chunks, current, start = [], [], 1
    for lineno, line in enumerate(text.splitlines(keepends=True), 1):
        if line.strip() == SPLIT_MARKER:
            chunks.append((start, "".join(current)))
            current, start = [], lineno + 1
            continue
        current.append(line)
    chunks.append((start, "".join(current)))
    return chunks


def collect_garbage_less_often() -> None:
    """The IR is many small objects linked both ways (parents, uses), and CPython's default
    collector thresholds rescan them every few hundred allocations: a quarter of the CPU of a
    4,000-tile compile. The tools collect less often; cyclic garbage is still freed."""
    gc.set_threshold(100_000, 50, 50)


def run_tool(tool: type[DfschedOptMain], prog: str, argv: Sequence[str] | None) -> int:
    """Run a dfsched-opt-like tool: exit status 2 on a usage error, 1 on a diagnostic."""
    argv = list(sys.argv[1:] if argv is None else argv)
    collect_garbage_less_often()
    compat.fast_isolated_from_above()
    compat.fast_walks()
    try:
        return tool(argv).run()
    except (UsageError, PipelineSyntaxError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except DiagnosticError as exc:
        print(exc.diagnostic.render(), file=sys.stderr)
        return 1
    except OutputError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    return run_tool(DfschedOptMain, "dfsched-opt", argv)


if __name__ == "__main__":
    sys.exit(main())
