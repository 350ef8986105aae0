"""Reading inputs safely, and atomic output files.

Inputs (`read_source`): a file larger than `MAX_INPUT_BYTES` (`--max-input-mb`, default 256)
is refused before it is read whole (`/dev/zero` included), and bytes that are not UTF-8 are a
located error on the first bad byte.

Outputs: a reader (or a kill, or a full disk) never sees a partial file.

Every file a tool writes (`-o`, the split DataflowIR files, `--save`, `--timeline`, reports)
goes through here: the bytes go to a temporary file in the target folder, which is renamed
into place only once it is complete. A set of files (`write_files_atomically`) is staged in a
hidden folder first and moved in only when every file is written; its names must be plain
file names (nothing derived from IR may write outside the chosen folder). A write error is an
`OutputError` whose message is one line; tools report it and exit 1.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Mapping

from dfsched.diagnostics import Diagnostic, DiagnosticError

# Lists the files the last `write_files_atomically` into a folder wrote, so the next run can
# remove those it does not write again (a smaller kernel leaves no stale program files).
MANIFEST = ".dfsched-files"

DEFAULT_MAX_INPUT_MB = 256
MAX_INPUT_BYTES = DEFAULT_MAX_INPUT_MB * 2**20
"""The largest input file (kernel, device, import) read; tools set it from `--max-input-mb`."""

_UMASK = os.umask(0o022)
os.umask(_UMASK)


class OutputError(Exception):
    """An output could not be written (one line, the file named); nothing partial was left."""


def _describe(exc: OSError) -> str:
    return exc.strerror or str(exc)


def set_max_input_mb(megabytes: float) -> None:
    """Set `MAX_INPUT_BYTES` (the tools' `--max-input-mb`)."""
    global MAX_INPUT_BYTES
    MAX_INPUT_BYTES = int(megabytes * 2**20)


def read_source(path: str) -> str:
    """The text of the input file `path` (`-`: stdin), at most `MAX_INPUT_BYTES` long.

    Raises OSError when it cannot be opened, DiagnosticError when it is too large or is not
    UTF-8 text."""
    if path == "-":
        return decode_source(_read_limited(sys.stdin.buffer, "<stdin>"), "<stdin>")
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > MAX_INPUT_BYTES:
            raise _too_large(path)
        return decode_source(_read_limited(fh, path), path)


def _read_limited(stream, name: str) -> bytes:
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(name)
    return data


def _too_large(name: str) -> DiagnosticError:
    limit = MAX_INPUT_BYTES / 2**20
    return DiagnosticError(Diagnostic("error", f"input is larger than the limit of {limit:g} MB "
                                               "(--max-input-mb)", name, 1, 1))


def decode_source(data: bytes, name: str) -> str:
    """`data` as UTF-8 text; a located error on the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise DiagnosticError(Diagnostic("error", f"invalid UTF-8 byte 0x{data[exc.start]:02x}: input files "
                                                  "must be UTF-8 text", name, line, col)) from None


def check_file_name(name: str) -> None:
    """Refuse a file name that is not a plain name inside its folder (`..`, `/x`, `a/b`)."""
    if (not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name
            or os.path.isabs(name) or os.path.basename(name) != name):
        raise OutputError(f"refusing to write '{name}': output file names must be plain names "
                          "inside the output folder")


def write_bytes_atomic(path: str, data: bytes) -> None:
    """Write `data` to `path` through a temporary file renamed into place (`-`: stdout).

    A path that exists and is not a regular file (`/dev/null`, a pipe) is written directly:
    it cannot be replaced by a rename and holds no file a reader could see half-written."""
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"cannot write '{path}': it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise OutputError(f"cannot write '{path}': {_describe(exc)}") from None
        return
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write '{path}': {_describe(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException as exc:
        _remove_quietly(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write '{path}': {_describe(exc)}") from None
        raise


def write_text_atomic(path: str, text: str) -> None:
    """`write_bytes_atomic` of `text` in UTF-8."""
    write_bytes_atomic(path, text.encode("utf-8"))


def check_writable(path: str) -> None:
    """Fail early (before any work) when `path` cannot be an output file: its folder is
    missing or not writable, or `path` is a directory."""
    if path == "-":
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise OutputError(f"cannot write '{path}': it is a directory")
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write '{path}': no such directory '{folder}'")
    if os.path.exists(path) and not os.path.isfile(path):
        if not os.access(path, os.W_OK):
            raise OutputError(f"cannot write '{path}': permission denied")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write '{path}': permission denied")


def write_files_atomically(folder: str, files: Mapping[str, str], manifest: str | None = MANIFEST) -> None:
    """Write every `name -> text` of `files` into `folder`, all or nothing.

    The files are written into a hidden staging folder inside `folder` and moved into place
    only when all are complete. Names must be plain file names (`check_file_name`). With a
    `manifest`, the folder keeps a list of the files written, and files the previous write
    listed but this one does not are removed (only those: other files are never touched)."""
    for name in files:
        check_file_name(name)
        if name == manifest:
            raise OutputError(f"refusing to write '{name}': the name is reserved for the file list")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder '{folder}': {_describe(exc)}") from None
    for name in files:
        if os.path.isdir(os.path.join(folder, name)):
            raise OutputError(f"cannot write '{os.path.join(folder, name)}': it is a directory")
    try:
        staging = tempfile.mkdtemp(prefix=".dfsched-staging-", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write into '{folder}': {_describe(exc)}") from None
    try:
        staged = dict(files)
        if manifest:
            staged[manifest] = "".join(f"{name}\n" for name in files)
        for name, text in staged.items():
            try:
                with open(os.path.join(staging, name), "wb") as fh:
                    fh.write(text.encode("utf-8"))
                    fh.flush()
                    os.fsync(fh.fileno())
                os.chmod(os.path.join(staging, name), 0o666 & ~_UMASK)
            except OSError as exc:
                raise OutputError(f"cannot write '{os.path.join(folder, name)}': {_describe(exc)}") from None
        stale = _listed(folder, manifest) - set(files) if manifest else set()
        for name in staged:  # the manifest last: it lists files already in place
            if name == manifest:
                continue
            _move(staging, folder, name)
        if manifest:
            _move(staging, folder, manifest)
        for name in stale:
            _remove_quietly(os.path.join(folder, name))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _move(staging: str, folder: str, name: str) -> None:
    try:
        os.replace(os.path.join(staging, name), os.path.join(folder, name))
    except OSError as exc:
        raise OutputError(f"cannot write '{os.path.join(folder, name)}': {_describe(exc)}") from None


def _listed(folder: str, manifest: str) -> set[str]:
    """The plain file names the folder's manifest lists (anything else in it is ignored)."""
    try:
        with open(os.path.join(folder, manifest), encoding="utf-8", errors="replace") as fh:
            names = fh.read().splitlines()
    except OSError:
        return set()
    out = set()
    for name in names:
        try:
            check_file_name(name)
        except OutputError:
            continue
        if name != manifest and os.path.isfile(os.path.join(folder, name)):
            out.add(name)
    return out


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
