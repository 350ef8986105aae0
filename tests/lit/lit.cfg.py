"""lit configuration for dfsched's FileCheck tests (one folder per dialect, pass and tool)."""

import atexit
import os
import shutil
import sys

import lit.formats

config.name = "dfsched"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# The tools come from the environment the tests run in (the project's virtual environment).
bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bindir, os.environ.get("PATH", "")])
for var in ("HOME", "TMPDIR", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# `dfsched -kEmitDFIR` compiles through the artifact cache: the tests' own, not the user's.
config.environment["DFSCHED_CACHE_DIR"] = os.path.join(config.test_exec_root, "dfsched-cache")


def tool(name):
    found = shutil.which(name, path=config.environment["PATH"])
    if found is None:
        lit_config.fatal(f"{name} not found on PATH; install dfsched with its test extra")
    return found


config.substitutions.append(("%devices", os.path.join(config.test_source_root, "..", "..", "arch", "devices")))
config.substitutions.append(("%examples", os.path.join(config.test_source_root, "..", "..", "examples")))


def fork_server():
    """The socket of the tools' fork server (`forkserver.py`: their imports paid once, not per
    RUN line): the one the environment names (`tests/test_lit.py`'s, shared by its lit runs),
    else one started for this run; None to run the tools directly (`DFSCHED_LIT_FORKSERVER=off`,
    or no fork server on this platform)."""
    named = os.environ.get("DFSCHED_LIT_FORKSERVER", "")
    if named == "off":
        return None
    if named and os.path.exists(named):
        config.environment["DFSCHED_LIT_FORKSERVER"] = named
        return named
    sys.path.insert(0, config.test_source_root)
    import forkserver

    started = forkserver.start(config.environment)
    if started is None:
        return None
    path, stop = started
    atexit.register(stop)
    config.environment["DFSCHED_LIT_FORKSERVER"] = path
    return path


FORKSERVER = os.path.join(config.test_source_root, "forkserver.py")
served = fork_server()
for name in ("dfsched-opt", "dfsched-arch", "dfsched-run", "dfsched", "filecheck"):
    if shutil.which(name, path=config.environment["PATH"]):
        command = f"{sys.executable} -S {FORKSERVER} {name}" if served else tool(name)
        config.substitutions.append((rf"(?<![\w/.-]){name}(?![\w.-])", command))
config.substitutions.append(("FileCheck", f"{sys.executable} -S {FORKSERVER} filecheck" if served else tool("filecheck")))
