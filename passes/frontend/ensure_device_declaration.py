"""`ensure-device-declaration`: make sure the kernel module names the device it runs on.

See `docs/passes.md#ensure-device-declaration`. Options: `device-filename=<path>` and `device-name=<name>`; the driver's
`--device=<file or short name>` fills `device` and is used when `device-filename` is not
given.

1. A module that already declares a device (inline, or `import("path")`) keeps it; the
   declaration is resolved once so that an unreadable import fails here, on the
   declaration. Two devices at the top level are an error.
2. Otherwise the device file is required ("no 'ktdf_arch.device' is present ...").
3. The device name is `device-name`, or the name of the only device in the file.
4. `ktdf_arch.device @<name> import("<reference>")` is inserted at the start of the
   module and imported: `dfsched:<file>` for a shipped device, `sha256:<digest>/<file>` for
   any other (`arch/device_refs.py`), never a path of the machine.
5. Decision 6: when the imported device says nothing about `mem_space_mapping`, the
   declaration gets one: `#ktdp.memory_space<global>` maps to the device-level memory the
   cores share and `#ktdp.memory_space<ct_local>` to a core's private memory (both as the
   architecture model finds them), so the kernel's memory spaces resolve with `--device`
   alone, in dfsched and in any tool that reads the printed IR.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from dfsched.diagnostics import Diagnostic, DiagnosticError, error, make_diagnostic
from dfsched.passes.device_pass import DevicePass

NO_DEVICE = ("no 'ktdf_arch.device' is present in the module and no device file name is provided "
             "to ensure-device-declaration pass")


@dataclass(frozen=True)
class EnsureDeviceDeclaration(DevicePass):
    """Insert a `ktdf_arch.device` import declaration unless the module has a device."""

    name = "ensure-device-declaration"

    device_filename: str = ""
    """The architecture file to import when the module declares no device (empty: `device`,
    which `--device` fills)."""
    device_name: str = ""
    """Which device of that file (default: its only one)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        devices = top_level_devices(op)
        if devices:
            check_single_device(devices)
            resolve_declared_device(devices[0])
            return
        spec = str(self.device_filename or self.device or "")
        if not spec:
            raise error(op, NO_DEVICE)
        path = device_path(spec, op)
        name = str(self.device_name) if self.device_name else infer_device_name(path, op)
        declare_device(op, name, path)


def top_level_devices(module: ModuleOp) -> list[Operation]:
    from dfsched.arch.loading import devices_in

    return list(devices_in(module))


def check_single_device(devices: list[Operation]) -> None:
    if len(devices) > 1:
        raise error(devices[1], f"the module declares {len(devices)} 'ktdf_arch.device' ops; "
                    "a kernel runs on exactly one device", notes=[(devices[0], "first device is here")])


def resolve_declared_device(device: Operation) -> None:
    """Import the declared device now, so an unreadable one fails on its declaration."""
    from dfsched.arch.loading import model_of

    model_of(device)


def device_path(spec: str, module: ModuleOp) -> Path:
    """The absolute path of the device file `spec` (a path, or a shipped device's short name)."""
    path = Path(spec)
    if not path.is_file():
        from dfsched.arch.loading import shipped_devices

        shipped = shipped_devices()
        if os.sep not in spec and spec in shipped:
            path = shipped[spec]
        else:
            absolute = Path(os.path.abspath(spec))
            reason = "No such file or directory" if not absolute.exists() else "not a regular file"
            known = ", ".join(sorted(shipped))
            raise error(module, f"unable to import device: cannot open input file '{absolute}': {reason}",
                        notes=[(module, f"--device also accepts a shipped device name: {known}")])
    from dfsched.arch.loading import allow_device_root

    allow_device_root(os.path.dirname(os.path.abspath(path)))  # the user chose this file
    return Path(os.path.abspath(path))


def infer_device_name(path: Path, module: ModuleOp) -> str:
    """The only device of the file; its problems are reported in that file."""
    from dfsched.arch.loading import infer_device_name as only_device_name

    try:
        return only_device_name(path)
    except DiagnosticError as exc:
        exc.diagnostic.notes.append(note(module, f"while reading the device file '{path}' for this module"))
        raise


def declare_device(module: ModuleOp, name: str, path: Path) -> None:
    """Insert `ktdf_arch.device @name import("reference")`, import it, apply Decision 6.

    The reference names the file by shipped name or content digest, never by its path
    (`arch/device_refs.py`), so the output is the same on every machine.
    """
    from dfsched.arch.device_refs import reference_for
    from dfsched.arch.loading import model_of, resolve_device
    from dfsched.arch.model import DeviceModel
    from dfsched.dialects.ktdf_arch import DeviceOp

    declaration = DeviceOp(name, import_path=reference_for(path))
    block = module.body.block
    if block.first_op is None:
        block.add_op(declaration)
    else:
        block.insert_op_before(declaration, block.first_op)
    try:
        definition = resolve_device(declaration)
        if "mem_space_mapping" not in definition.attributes:
            mapping = default_mem_space_mapping(DeviceModel.from_device(definition, str(path)))
            if mapping is not None:
                declaration.attributes["mem_space_mapping"] = mapping
                definition.attributes["mem_space_mapping"] = mapping  # as the import overlay does
        model_of(declaration)
    except DiagnosticError:
        block.erase_op(declaration)  # leave the module as it was
        raise


def default_mem_space_mapping(model) -> Attribute | None:
    """Decision 6: `global` → the memory all cores share, `ct_local` → a core's own memory."""
    from dfsched.dialects.ktdf_arch import MapAttr
    from dfsched.dialects.ktdp import MemorySpaceAttr

    entries = []
    for space, memory in (("global", model.global_memory), ("ct_local", model.core_memory)):
        if memory is not None:
            entries.append((MemorySpaceAttr(space), memory.kind_attr))
    return MapAttr(entries) if entries else None


def note(op: Operation, message: str) -> Diagnostic:
    return make_diagnostic(op, message, "note")
