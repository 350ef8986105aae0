"""dfsched.passes.lowering: one module per pass, named after the pass."""
