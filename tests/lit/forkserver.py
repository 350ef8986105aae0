"""A fork server for the lit suite: the tools' start-up paid once per lit run, not per RUN line.

Most of a small `dfsched-opt` run is Python importing xDSL and dfsched (about 0.25 s of CPU),
and most of a `filecheck` run is Python importing it (about 0.08 s); the lit suite makes about
750 of each. `serve` imports the four tools and filecheck once and then forks a fresh child
per request, which takes the client's standard streams (passed as file descriptors), working
directory, environment and arguments, runs the tool's console entry point and exits; the
client exits with the child's status. Every run still starts from the same freshly imported
state, as a new process would.

`lit.cfg.py` substitutes `python3 -S forkserver.py TOOL` for each tool and uses the server
named by `DFSCHED_LIT_FORKSERVER` when that socket exists (`tests/test_lit.py` starts one per
pytest process, so its lit runs share it), else starts one for its run (`start`). When no
server answers, the client runs the installed tool itself, so a test never depends on the
server being there.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile

TOOLS = {"dfsched-opt": "opt", "dfsched-arch": "arch_cli", "dfsched": "driver", "dfsched-run": "run"}
FILECHECK = "filecheck"


def start(env: dict[str, str]):
    """A server on a fresh socket: (socket path, function that stops it), or None when this
    platform cannot pass file descriptors or the server does not come up."""
    if not hasattr(socket, "send_fds"):
        return None
    folder = tempfile.mkdtemp(prefix="dfsched-lit-")
    path = os.path.join(folder, "tools.sock")
    server = subprocess.Popen([sys.executable, __file__, "serve", path], env=env,
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)

    def stop():
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)

    if server.stdout.readline().strip() != b"ready":
        stop()
        return None
    return path, stop


def client(tool: str, args: list[str]) -> None:
    path = os.environ.get("DFSCHED_LIT_FORKSERVER", "")
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
    except OSError:
        _exec_tool(tool, args)
    request = json.dumps({"tool": tool, "argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    socket.send_fds(sock, [struct.pack("!I", len(request)) + request], [0, 1, 2])
    status = _receive(sock, 4)
    os._exit(struct.unpack("!i", status)[0] if len(status) == 4 else 125)


def _exec_tool(tool: str, args: list[str]) -> None:
    exe = os.path.join(os.path.dirname(sys.executable), tool)
    os.execv(exe, [exe, *args])


def _receive(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def serve(path: str) -> None:
    from dfsched.tools import console

    _import_everything()
    parent = os.getppid()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(64)
    sock.settimeout(1.0)
    print("ready", flush=True)
    while os.getppid() == parent:  # the lit process that started us is gone: stop
        try:
            conn, _ = sock.accept()
        except socket.timeout:
            _reap()
            continue
        if os.fork() == 0:
            sock.close()
            _handle(conn, console)
        conn.close()
        _reap()
    os.unlink(path)


def _import_everything() -> None:
    """The tools, filecheck and every dfsched module: the dialects and passes are imported on
    first use, and a child that imported them itself would pay it on every RUN line (about
    half the CPU of a small run). The registries are static tables, so what a run can reach
    is the same as in a fresh interpreter."""
    import importlib
    import pkgutil

    for module in TOOLS.values():
        importlib.import_module(f"dfsched.tools.{module}")
    importlib.import_module("filecheck.main")
    for package in ("dialects", "passes", "interp", "arch", "cache", "tools"):
        path = importlib.import_module(f"dfsched.{package}").__path__
        for info in pkgutil.walk_packages(path, f"dfsched.{package}."):
            try:
                importlib.import_module(info.name)
            except ImportError:  # an optional dependency (ray): imported where it is used
                pass


def _reap() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _handle(conn: socket.socket, console) -> None:
    """In a forked child: run one request in a grandchild and report its exit status."""
    conn.settimeout(None)
    header, fds, _, _ = socket.recv_fds(conn, 4, 3)
    (size,) = struct.unpack("!I", header)
    request = json.loads(_receive(conn, size))
    pid = os.fork()
    if pid == 0:
        conn.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        _fresh_standard_streams()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [os.path.join(os.path.dirname(sys.executable), request["tool"]), *request["argv"]]
        try:
            if request["tool"] == FILECHECK:
                _run_filecheck(console)
            console._run(TOOLS[request["tool"]])
        except BaseException:  # as a fresh interpreter would: the traceback, status 1
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
        os._exit(1)
    for fd in fds:
        os.close(fd)
    status = os.waitpid(pid, 0)[1]
    code = os.waitstatus_to_exitcode(status)
    conn.sendall(struct.pack("!i", code if code >= 0 else 128 - code))
    os._exit(0)


def _fresh_standard_streams() -> None:
    """Standard streams opened on the client's descriptors as a new interpreter opens them (the
    server's were made for its own: a seekable file there makes filecheck's `reconfigure` seek
    a client's pipe)."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        old = getattr(sys, name)
        fresh = open(fd, mode, closefd=False, encoding=old.encoding, errors=old.errors,
                     **({"buffering": 1} if name == "stderr" else {}))
        setattr(sys, name, fresh)
        setattr(sys, f"__{name}__", fresh)


def _run_filecheck(console) -> None:
    """filecheck's console entry point (`sys.exit(main())`), leaving as the tools do."""
    from filecheck.main import main

    try:
        code = main()
    except SystemExit as exc:
        code = exc.code
    console.exit_now(code if isinstance(code, int) else 0 if code is None else 1)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        client(sys.argv[1], sys.argv[2:])
