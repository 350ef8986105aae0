"""dfsched: a pure-Python, xDSL-based dataflow scheduler for KTIR kernels.

`dfsched.compile(kernel, device, binds=None, cache=True) -> Artifact` compiles a kernel
through the persistent artifact cache (`dfsched.api`); it is imported on first use, so the
command-line tools do not pay for it at start-up.
"""

__version__ = "0.1.0"

_API = ("compile", "Artifact", "CompileError")


def __getattr__(name):
    if name in _API:
        from dfsched import api

        return getattr(api, name)
    raise AttributeError(f"module 'dfsched' has no attribute {name!r}")


__all__ = ["__version__", *_API]
