"""dfsched: a pure-Python, xDSL-based dataflow scheduler for KTIR kernels."""

__version__ = "0.1.0"
