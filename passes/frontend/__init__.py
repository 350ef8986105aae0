"""dfsched.passes.frontend: one module per pass, named after the pass."""
