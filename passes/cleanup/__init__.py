"""dfsched.passes.cleanup: one module per pass, named after the pass."""
