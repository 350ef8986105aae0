"""dfsched.interp: interpreters that give the IR a meaning to check passes against.

`ktir` is the KTIR reference interpreter (numpy, over a kernel's whole grid); its API
(`load_module`, `make_inputs`, `run_kernel`, `run`, `kernel_layout`, `call_function`)
is documented in `dfsched/interp/ktir.py`. The pieces:

- `memory`: flat memories (element- or byte-addressed), views, access tiles, races;
- `dtypes`: MLIR element types <-> numpy dtypes <-> memory bits (f16, df16, fused pairs);
- `intrinsics`: numpy semantics of the `spyreop` intrinsics;
- `std_impl`, `linalg_impl`, `ktdp_impl`, `spyreop_impl`: the op implementations;
- `base`, `sets`: run state and value conventions, integer-set enumeration.
"""
