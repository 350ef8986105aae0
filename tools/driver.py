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

A failure exits non-zero and writes nothing: no split files (the output pass runs last and
writes only once everything is built) and no output file.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp

from dfsched import pipeline
from dfsched.diagnostics import make_diagnostic
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

    def __init__(self, args: Sequence[str]):
        argv = list(args)
        self.emit_dfir = False
        self.split_dir = ""
        self.print_final_ir = True
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

    def _print(self, module: ModuleOp) -> str:
        return super()._print(module) if self.print_final_ir else ""


_EMIT_MARKER = "dfsched-emit-dfir-pipeline"


def main(argv: Sequence[str] | None = None) -> int:
    return run_tool(DfschedMain, "dfsched", argv)


if __name__ == "__main__":
    sys.exit(main())
