"""Finding, reading and attaching device descriptions.

- `device_file(spec)`: a path, or a short name of a device shipped in `arch/devices`
  (`sample` → `sample_device.mlir`, `quad_corelet`, `spyre`).
- `parse_device_file(path)`: parse and verify a file; errors are located in that file.
- `load_device(spec, name=None)`: the `DeviceModel` of a file's device.
- `resolve_device(decl)`: the definition behind `ktdf_arch.device @x import("path")`, the
  path taken relative to the file holding the declaration; the declaration's attributes
  (e.g. `mem_space_mapping`) are laid over the definition's. Imports resolve only inside the
  allowed roots (`import_roots`): the folder two levels above the declaring file, the lit test
  suite holding it, the current directory, the shipped devices, the folder of a `--device` file
  and `--device-path` folders.
- `find_device_declaration_for(op)` / `device_model_for(op, device=None)`: the device a
  kernel runs on, from its module or from `--device` (Decision 6 then supplies the
  `global`/`ct_local` mapping, see `DeviceModel.memory_for_space`).

Every failure is a `DiagnosticError` with a location when one is known.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError

from dfsched import compat
from dfsched.arch import device_refs
from dfsched.arch.device_refs import DEVICES_DIR, shipped_devices
from dfsched.arch.model import DeviceModel
from dfsched.diagnostics import Diagnostic, DiagnosticError, error, location_of
from dfsched.dialects.ktdf_arch import DeviceOp
from dfsched.fileio import read_source

STDIN_NAMES = ("-", "<stdin>", "<unknown>")


def device_file(spec: str) -> Path:
    """The file `spec` names: an existing path, else a shipped device's short name."""
    path = device_refs.device_file_for(spec)
    if path is not None:
        if Path(spec).is_file():
            allow_device_root(os.path.dirname(os.path.abspath(path)))  # the user chose this file
        return path
    known = ", ".join(sorted(shipped_devices()))
    raise DiagnosticError(Diagnostic("error", f"unable to find device file '{spec}' (shipped devices: {known})"))


def parse_device_file(path: str | os.PathLike[str]) -> ModuleOp:
    """Parse and verify an architecture file; errors point into that file."""
    from dfsched.dialects import make_context

    name = str(path)
    try:
        text = read_source(name)
    except OSError as exc:
        raise DiagnosticError(Diagnostic("error", f"unable to open device file '{name}': {exc.strerror}")) from None
    try:
        module = compat.LocatingParser(make_context(), text, name).parse_module()
    except ParseError as exc:
        diagnostic = compat.parse_error_diagnostic(exc, name, text)
        if exc.span.start <= _first_token_offset(text):
            # Not MLIR at all (e.g. a file imported by mistake): say so without quoting it.
            diagnostic = Diagnostic("error", "not an MLIR file: expected an operation or an alias at its start",
                                    name, diagnostic.line, diagnostic.col, show_source=False)
        raise DiagnosticError(diagnostic) from None
    compat.verify_module(module)
    return module


def _first_token_offset(text: str) -> int:
    """Where the first token of `text` starts (after blanks and `//` comments)."""
    offset = 0
    for line in text.splitlines(keepends=True):
        code = line.split("//", 1)[0]
        if code.strip():
            return offset + len(code) - len(code.lstrip())
        offset += len(line)
    return offset


def devices_in(module: ModuleOp) -> list[DeviceOp]:
    return [op for op in module.ops if isinstance(op, DeviceOp)]


def load_device(spec: str, name: str | None = None) -> DeviceModel:
    """The model of the device in file `spec` (a path or short name); `name` picks one."""
    path = device_file(spec)
    module = parse_device_file(path)
    device = _pick_device(module, name, str(path))
    if device.is_import:
        device = resolve_device(device)
        return DeviceModel(device, location_of(device)[0])
    return DeviceModel(device, str(path))


def infer_device_name(path: str | os.PathLike[str]) -> str:
    """The name of the only device in a file (what `ensure-device-declaration` inserts)."""
    return _pick_device(parse_device_file(path), None, str(path)).device_name


def _pick_device(module: ModuleOp, name: str | None, file: str) -> DeviceOp:
    devices = devices_in(module)
    if name is not None:
        named = [d for d in devices if d.device_name == name]
        if not named:
            raise _at_file(module, file, f"no device named '{name}'")
        return named[0]
    if not devices:
        raise _at_file(module, file, "no device in import file")
    if len(devices) > 1:
        raise _at_file(module, file, "multiple devices in import file")
    return devices[0]


def _at_file(module: ModuleOp, file: str, message: str) -> DiagnosticError:
    first = next(iter(module.ops), None)
    where = location_of(first) if first is not None else (None, None, None)
    if where[0] is None:
        return DiagnosticError(Diagnostic("error", message, file, 1, 1))
    return error(first, message)


# ---------------------------------------------------------------------------
# Import declarations
# ---------------------------------------------------------------------------

_RESOLVED: "weakref.WeakKeyDictionary[DeviceOp, DeviceOp]" = weakref.WeakKeyDictionary()
_keep_alive: "weakref.WeakKeyDictionary[DeviceOp, ModuleOp]" = weakref.WeakKeyDictionary()  # imported modules


def import_path_for(decl: DeviceOp) -> Path:
    """Where `decl`'s `import("...")` points: absolute, or next to the declaring file.

    A reference written by dfsched (`dfsched:NAME`, `sha256:DIGEST/NAME`, see `device_refs`)
    is looked up by name and digest; when no file matches, the raw text is returned (it names
    no file, and the caller reports it).
    """
    raw = decl.import_file or ""
    file = location_of(decl)[0]
    base = Path.cwd() if file is None or file in STDIN_NAMES else Path(os.path.abspath(file)).parent
    if device_refs.is_reference(raw):
        return device_refs.file_for_reference(raw, [base, Path.cwd()]) or Path(raw)
    path = Path(raw)
    if path.is_absolute():
        return path
    return Path(os.path.normpath(base / path))


_EXTRA_ROOTS: list[str] = []


def allow_device_root(folder: str | os.PathLike[str]) -> None:
    """Let imports read device files inside `folder` (`--device-path`, a `--device` file's folder)."""
    real = os.path.realpath(folder)
    if real not in _EXTRA_ROOTS:
        _EXTRA_ROOTS.append(real)


def import_roots(decl: DeviceOp) -> list[str]:
    """The folders (real paths) `decl`'s import may read from: two levels above the file
    holding it (`../devices/x.mlir` layouts), the lit test suite holding it, the current
    directory, the shipped devices and the folders given with `allow_device_root`."""
    file = location_of(decl)[0]
    roots = [os.getcwd(), str(DEVICES_DIR), *_EXTRA_ROOTS]
    if file is not None and file not in STDIN_NAMES:
        folder = os.path.dirname(os.path.abspath(file))
        roots.insert(0, os.path.dirname(os.path.dirname(folder)))
        suite = _lit_suite_root(folder)
        if suite is not None:
            roots.insert(1, suite)
    return [os.path.realpath(r) for r in roots]


def _lit_suite_root(folder: str) -> str | None:
    """The nearest folder at or above `folder` holding a `lit.cfg.py`: a test suite whose
    tests import shared devices from deeper than two levels up (upstream's
    `../../../../Dialect/KTDFArch/sample_device.mlir`)."""
    while True:
        if os.path.isfile(os.path.join(folder, "lit.cfg.py")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([path, root]) == root


def resolve_device(decl: DeviceOp) -> DeviceOp:
    """The definition `decl` stands for (itself when it has a body).

    Errors are reported on the declaration; parse errors of the imported file are
    reported in that file, with a note on the declaration.
    """
    if not decl.is_import:
        return decl
    if decl in _RESOLVED:
        return _RESOLVED[decl]
    path = import_path_for(decl)
    prefix = f"'{decl.name}' op unable to import device graph: "
    if device_refs.is_reference(str(path)):
        raise error(decl, f"{prefix}{device_refs.describe(str(path))}")
    real = os.path.realpath(path)
    written_by_dfsched = device_refs.is_reference(decl.import_file or "")  # found by name or digest
    if not written_by_dfsched and not any(_inside(real, root) for root in import_roots(decl)):
        raise error(decl, f"{prefix}'{decl.import_file}' is outside the folders devices are imported from "
                          "(two levels above this file, its lit test suite, the current directory, the shipped "
                          "devices, the --device file's folder, --device-path folders)")
    if not path.is_file():
        reason = "No such file or directory" if not path.exists() else "not a regular file"
        raise error(decl, f"{prefix}cannot open '{path}': {reason}")
    try:
        module = parse_device_file(path)
    except DiagnosticError as exc:
        exc.diagnostic.notes.append(_note(decl, f"while importing device '{decl.device_name}'"))
        raise
    named = [d for d in devices_in(module) if d.device_name == decl.device_name]
    if not named:
        raise error(decl, f"{prefix}no device named '{decl.device_name}'")
    definition = named[0]
    if definition.is_import:
        raise error(decl, f"'{decl.name}' op recursive importing is prohibited", [(definition, "imported here")])
    for key, value in decl.attributes.items():  # the declaration's attributes win
        definition.attributes[key] = value
    if "version" in decl.properties:
        definition.properties["version"] = decl.properties["version"]
    _RESOLVED[decl] = definition
    _keep_alive[definition] = module
    return definition



def _note(op: Operation, message: str) -> Diagnostic:
    from dfsched.diagnostics import make_diagnostic

    return make_diagnostic(op, message, "note")


# ---------------------------------------------------------------------------
# Which device does an op run on?
# ---------------------------------------------------------------------------


def find_device_declaration_for(op: Operation) -> DeviceOp | None:
    """The device `op` is mapped to (`docs/devices.md#the-model-in-one-page`).

    Walking up from `op`: a `ktdf_arch.maps_to = @dev` naming a device wins; otherwise a
    module holding exactly one device makes it the candidate; two candidates on the way
    (or two devices in one module) mean no answer.
    """
    candidate: DeviceOp | None = None
    node: Operation | None = op
    while node is not None:
        mapped = node.attributes.get("ktdf_arch.maps_to")
        if isinstance(mapped, SymbolRefAttr):
            target = _lookup_device(node, mapped.root_reference.data)
            if target is not None:
                return target
        if isinstance(node, ModuleOp):
            devices = devices_in(node)
            if len(devices) > 1:
                return None
            if devices:
                if candidate is not None:
                    return None
                candidate = devices[0]
        node = node.parent_op()
    return candidate


def _lookup_device(op: Operation, name: str) -> DeviceOp | None:
    node: Operation | None = op
    while node is not None:
        if isinstance(node, ModuleOp):
            for device in devices_in(node):
                if device.device_name == name:
                    return device
        node = node.parent_op()
    return None


_MODELS: "weakref.WeakKeyDictionary[DeviceOp, DeviceModel]" = weakref.WeakKeyDictionary()


def model_of(decl: DeviceOp) -> DeviceModel:
    """The (cached) model of a declared or defined device."""
    model = _MODELS.get(decl)
    if model is None:
        definition = resolve_device(decl)
        model = DeviceModel(definition, location_of(definition)[0])
        _MODELS[decl] = model
    return model


def device_model_for(op: Operation, device: str | None = None) -> DeviceModel | None:
    """The model of the device `op` runs on: its module's device, else the `--device` file.

    With both present the module's device wins (upstream warns and ignores `--device`).
    Returns None when there is neither.
    """
    decl = find_device_declaration_for(op)
    if decl is not None:
        return model_of(decl)
    if device:
        return load_device(device)
    return None


NO_DEVICE = ("Unable to import the device specification. This could happen if the device spec file is "
             "empty or contains multiple devices")


def required_device_model(op: Operation, device: str | None = None, message: str = NO_DEVICE) -> DeviceModel:
    """`device_model_for`, for a pass that cannot run without a device: a located error
    (`message`, upstream's words for that pass) on `op` when there is none."""
    model = device_model_for(op, device=device)
    if model is None:
        raise error(op, message)
    return model


def declaration_for_file(path: str | os.PathLike[str], name: str | None = None) -> DeviceOp:
    """A `ktdf_arch.device @name import("<reference>")` for a device file (no mapping)."""
    file = device_file(str(path)).resolve()
    device_name = name or infer_device_name(file)
    return DeviceOp(device_name, import_path=device_refs.reference_for(file))


__all__ = [
    "DEVICES_DIR",
    "NO_DEVICE",
    "declaration_for_file",
    "device_file",
    "device_model_for",
    "find_device_declaration_for",
    "infer_device_name",
    "load_device",
    "model_of",
    "parse_device_file",
    "required_device_model",
    "resolve_device",
    "shipped_devices",
]
