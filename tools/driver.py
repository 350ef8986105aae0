"""`dfsched`: the scheduler's front door (upstream's `dataflow-scheduler` tool).

    dfsched -kEmitDFIR --device=<file> kernel.mlir [--split-dfir-output-dir=DIR] [-o out.mlir]

reads a KTIR kernel, declares the device given with `--device` when the module has none (with
Decision 6's memory-space mapping), runs the `ktir-to-dfir` pipeline followed by
`emit-split-dfir` (files `global.mlir` and one per program, in DIR or beside the input) and
prints the final IR. Without `-kEmitDFIR` it runs the passes given as flags or with
`--pass-pipeline`/`-p` (none: the module is printed back, a round trip).

Everything else is `dfsched-opt`'s machinery (`dfsched.tools.opt`): MLIR's flag spellings,
located `file:line:col` diagnostics, `--split-input-file`, `--verify-diagnostics`,
`--allow-unregistered-dialect`, `--show-dialects`, `--dump-pass-pipeline`. Upstream's own flags:

* `--print-ir-after-all[=true|false]`: print the final IR (default true; `=false` prints nothing);
* `--verify-each[=true|false]`: verify after every pass (default true);
* `--split-dfir-output-dir=DIR`: where `-kEmitDFIR` writes its files.

`-kEmitDFIR` on its own (with `--device`, `-o`, the flags above) compiles through
`dfsched.compile`, so a kernel compiled before is read from the artifact cache; `--no-cache`
compiles without it and `-v` says "cache hit KEY" or "cache miss KEY". Any other flag (more
passes, dumps, `--split-input-file`, ...) runs the pipeline directly. `dfsched cache ...` and
`dfsched build ...` are the cache's commands (`tools/cache_cli.py`, `tools/build.py`).

A failure exits non-zero and writes nothing: no split files (the output pass runs last and
writes only once everything is built) and no output file.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp

from dfsched import pipeline
from dfsched.diagnostics import DiagnosticError, make_diagnostic
from dfsched.tools.opt import DfschedOptMain, UsageError, run_tool
from dfsched.tools.pipeline_syntax import PassRequest, parse_pipeline

EMIT_DFIR = "kEmitDFIR"
OUTPUT_PASS = "emit-split-dfir"
TRUE, FALSE = ("true", "1", "on", "yes"), ("false", "0", "off", "no")


def _bool_flag(arg: str, name: str) -> bool | None:
    """The value of `--name[=bool]` if `arg` is that flag (one or two dashes), else None."""
    for prefix in (f"--{name}", f"-{name}"):
        if arg == prefix:
            return True
        if arg.startswith(prefix + "="):
            value = arg[len(prefix) + 1:].lower()
            if value in TRUE:
                return True
            if value in FALSE:
                return False
            raise UsageError(f"invalid value '{arg[len(prefix) + 1:]}' for --{name} (expected true or false)")
    return None


def _value_flag(argv: list[str], i: int, name: str) -> tuple[str, int] | None:
    """(value, args consumed) if argv[i] is `--name=value` or `--name value`."""
    arg = argv[i]
    for prefix in (f"--{name}", f"-{name}"):
        if arg.startswith(prefix + "="):
            return arg[len(prefix) + 1:], 1
        if arg == prefix:
            if i + 1 >= len(argv):
                raise UsageError(f"--{name} needs a value")
            return argv[i + 1], 2
    return None


class DfschedMain(DfschedOptMain):
    """`dfsched-opt` plus upstream `dataflow-scheduler`'s flags and parse-time device injection."""

    writes_grids_when_printing = False  # its module also feeds the cache and the split files

    def __init__(self, args: Sequence[str]):
        argv = list(args)
        self.emit_dfir = False
        self.split_dir = ""
        self.print_final_ir = True
        self.use_cache = True
        self.verbose = False
        rest: list[str] = []
        verify = True
        i = 0
        while i < len(argv):
            arg = argv[i]
            if arg in (f"-{EMIT_DFIR}", f"--{EMIT_DFIR}"):
                self.emit_dfir = True
                rest.append(f"--{EMIT_DFIR}")  # placeholder: keeps its place among pass flags
                i += 1
                continue
            found = _value_flag(argv, i, "split-dfir-output-dir")
            if found is not None:
                self.split_dir, used = found
                i += used
                continue
            flag = _bool_flag(arg, "print-ir-after-all")
            if flag is not None:
                self.print_final_ir = flag
                i += 1
                continue
            if arg in ("--no-cache", "-no-cache"):
                self.use_cache = False
                i += 1
                continue
            if arg in ("-v", "--verbose"):
                self.verbose = True
                i += 1
                continue
            flag = _bool_flag(arg, "verify-each")
            if flag is not None:
                verify = flag
                i += 1
                continue
            rest.append(arg)
            i += 1
        if not verify:
            rest.append("--disable-verify")
        # `--kEmitDFIR` stands for the pipeline; it is expanded where it was written.
        self._placeholder_index = rest.index(f"--{EMIT_DFIR}") if self.emit_dfir else None
        if self.emit_dfir:
            rest[self._placeholder_index] = "--pass-pipeline=" + _EMIT_MARKER
        super().__init__(rest)
        self._only_emit_dfir = [r.name for r in self.requests] == [_EMIT_MARKER]
        if self.emit_dfir:
            self.requests = self.pipeline_requests = self._expand_marker(self.requests)
            self.named_pipeline = True

    def _expand_marker(self, requests: list[PassRequest]) -> list[PassRequest]:
        out: list[PassRequest] = []
        for request in requests:
            if request.name != _EMIT_MARKER:
                out.append(request)
                continue
            out.extend(parse_pipeline(",".join(pipeline.NAMED_PIPELINES["ktir-to-dfir"])))
            options = {"output-dir": self.split_dir} if self.split_dir else {}
            out.append(PassRequest(OUTPUT_PASS, options))
        return out

    # -- -kEmitDFIR through the artifact cache ------------------------------
    def run(self) -> int:  # type: ignore[override]
        if self._compiles_through_cache():
            return self._run_compile()
        return super().run()

    def _compiles_through_cache(self) -> bool:
        """Whether the command line asks for nothing but `-kEmitDFIR` (and `-o`, `--device`, ...).

        Every flag set to anything but its default, beyond those `dfsched.compile` honours,
        sends the run down the direct path: a new flag can never be ignored by a cache hit.
        """
        if not (self.emit_dfir and self._only_emit_dfir):
            return False
        if self.args.input_file == "-" and not self.split_dir:
            return False  # no folder to write into: the pass reports it
        defaults = argparse.ArgumentParser(add_help=False)
        self.register_all_arguments(defaults)
        default = vars(defaults.parse_args([]))
        honoured = {"input_file", "output_file", "device", "dump_pass_pipeline", "disable_verify", "report",
                    "report_json"}  # the artifact keeps its report; --simulate runs directly
        return all(value == default.get(name) for name, value in vars(self.args).items() if name not in honoured)

    def _run_compile(self) -> int:
        from dfsched import api
        from dfsched.fileio import check_writable, set_max_input_mb
        from dfsched.passes.lowering.emit_split_dfir import write_split_files
        from dfsched.tools.opt import _pipeline_text, _read_input

        args = self.args
        set_max_input_mb(args.max_input_mb)
        if args.output_file:
            check_writable(args.output_file)  # before any work, as the direct path does
        if args.dump_pass_pipeline:
            print(_pipeline_text(self.pipeline_requests), file=sys.stderr)
        name, text = _read_input(args.input_file)  # size limit, located non-UTF-8 bytes
        try:
            artifact = api.compile(text, args.device, cache=self.use_cache, name=name)
        except api.CompileError as exc:
            print(exc, file=sys.stderr)
            if args.output_file and os.path.exists(args.output_file):
                os.remove(args.output_file)
            return 1
        if self.verbose:
            outcome = "hit" if artifact.hit else "miss" if self.use_cache else "bypassed"
            print(f"cache {outcome} {artifact.key}", file=sys.stderr)
        directory = self.split_dir or os.path.dirname(os.path.abspath(args.input_file))
        try:
            write_split_files(dict(artifact.files), directory)
        except DiagnosticError as exc:  # located on the module, as the pass locates it
            diagnostic = exc.diagnostic
            where = _module_keyword(text)
            if where is not None:
                diagnostic.file, (diagnostic.line, diagnostic.col) = name, where
                self.source_manager.add(name, text)
            print(diagnostic.render(self.source_manager), file=sys.stderr)
            return 1
        self._report_cached(artifact)
        self.write_output(artifact.final_ir if self.print_final_ir else "")
        return 0

    def _report_cached(self, artifact) -> None:
        """`--report` / `--report-json` from the artifact's stored report (hit or miss alike)."""
        if not (self.args.report or self.args.report_json) or artifact.report is None:
            return
        from dfsched.tools.report import Report

        self.reports = []
        self._report(Report.from_json(dict(artifact.report)))
        if self.args.report_json:
            from dfsched.tools.report import write_json

            write_json(self.reports, self.args.report_json)

    # -- parse-time device injection (upstream `injectDevice`) -------------
    def parse(self, name: str, text: str) -> ModuleOp:
        module = super().parse(name, text)
        self._inject_device(module)
        return module

    def _inject_device(self, module: ModuleOp) -> None:
        from dfsched.passes.frontend.ensure_device_declaration import (
            declare_device,
            device_path,
            infer_device_name,
            top_level_devices,
        )

        devices = top_level_devices(module)
        spec = self.args.device
        if devices:
            if spec:
                warning = make_diagnostic(devices[0], "a 'ktdf_arch.device' is present in the module, ignoring "
                                                      "--device option", "warning")
                print(warning.render(self.source_manager), file=sys.stderr)
            return
        if not spec:
            warning = make_diagnostic(module, "no 'ktdf_arch.device' is present in the module", "warning")
            warning.notes.append(make_diagnostic(module, "consider using --device to specify a path to a device",
                                                 "note"))
            print(warning.render(self.source_manager), file=sys.stderr)
            return
        path = device_path(spec, module)
        declare_device(module, infer_device_name(path, module), path)

    def _print(self, module: ModuleOp, grids=()) -> str:
        return super()._print(module, grids) if self.print_final_ir else ""


_EMIT_MARKER = "dfsched-emit-dfir-pipeline"
_MODULE_KEYWORD = re.compile(r"^([ \t]*)module\b", re.MULTILINE)


def _module_keyword(text: str) -> tuple[int, int] | None:
    """Line and column of the kernel's `module` keyword: where errors on the whole module are
    located (Decision 16); None when the file leaves its module implicit."""
    match = _MODULE_KEYWORD.search(text)
    if match is None:
        return None
    return text.count("\n", 0, match.start()) + 1, len(match.group(1)) + 1


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "cache":
        from dfsched.tools.cache_cli import main as cache_main

        return cache_main(argv[1:])
    if argv and argv[0] == "build":
        from dfsched.tools.build import main as build_main

        return build_main(argv[1:])
    return run_tool(DfschedMain, "dfsched", argv)


if __name__ == "__main__":
    sys.exit(main())
