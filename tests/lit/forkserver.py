"""A fork server for the lit suite: the tools' start-up paid once per lit run, not per RUN line.

Most of a small `dfsched-opt` run is Python importing xDSL and dfsched (about 0.25 s of CPU);
the lit suite makes about 750 such runs. `serve` imports the four tools once and then forks a
fresh child per request, which takes the client's standard streams (passed as file
descriptors), working directory, environment and arguments, runs the tool's console entry
point and exits; the client exits with the child's status. Every run still starts from the
same freshly imported state, as a new process would.

`lit.cfg.py` starts the server and substitutes `python3 -S forkserver.py TOOL` for each tool;
when no server answers, the client runs the installed tool itself, so a test never depends on
the server being there.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys

TOOLS = {"dfsched-opt": "opt", "dfsched-arch": "arch_cli", "dfsched": "driver", "dfsched-run": "run"}


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
    import importlib

    from dfsched.tools import console

    for module in TOOLS.values():
        importlib.import_module(f"dfsched.tools.{module}")
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
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [os.path.join(os.path.dirname(sys.executable), request["tool"]), *request["argv"]]
        try:
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


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        client(sys.argv[1], sys.argv[2:])
