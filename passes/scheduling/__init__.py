"""dfsched.passes.scheduling: one module per pass, named after the pass."""
