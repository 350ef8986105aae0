"""`bind-kernel-arguments`: specialise the kernel on the scalar values the command line binds.

Kernels take sizes, strides, constants and buffer addresses as `index`, integer or float
arguments (`%n_rows`, `%K`, `%eps`, `%in_ptr`). The schedule needs the sizes and strides as
numbers, as Triton and Inductor specialise their constexprs: `--bind NAME=VALUE` on
`dfsched-opt`, `dfsched` and `dfsched-run` fills `bind` (`bind=N=4096,eps=1e-05`).

1. Each bound argument of the kernel (the `func.func` with a `grid`, else the only function)
   becomes an `arith.constant` of its type at the top of the body, leaves the signature, and
   the body is canonicalised (constants folded, branches on constants resolved). A name the
   kernel has no argument for, a value its type cannot hold (`N=1.5` for an `index`), or a
   tensor argument is a located error on the function.
2. Every argument left whose value the schedule needs is a located error on the function naming
   the argument and the flag (`--bind n_rows=VALUE`), with a note on the op that needs it. A
   value may stay unbound when it only reaches memory view start addresses and access tile
   anchors through additions and products with constants (`first_static_use`): DataflowIR
   reads those as run-time symbols (buffer addresses, upstream's index arguments). So may
   `!ktdp.runtime_arg` arguments (declared run-time values) and tensors.

Without bindings the pass changes nothing (step 2 still checks). Reads no architecture facts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ShapedType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from dfsched.diagnostics import error
from dfsched.dialects.ktdp_addresses import MEMORY_VIEW, address_arguments
from dfsched.dialects.constants import constant_int

FLAG = "--bind"


@dataclass(frozen=True)
class BindKernelArguments(ModulePass):
    """Replace bound kernel arguments by constants; insist on the scalars the schedule needs."""

    name = "bind-kernel-arguments"

    bind: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = kernel_functions(op)
        bindings = parse_bindings(self.bind, op)
        if bindings:
            if len(kernels) != 1:
                names = ", ".join("@" + f.sym_name.data for f in kernels) or "none"
                raise error(op, f"{FLAG} needs one kernel function to bind (candidates: {names})")
            bind_arguments(kernels[0], bindings)
        for kernel in kernels:
            check_needed_scalars(kernel)


def kernel_functions(module: ModuleOp) -> list[func.FuncOp]:
    """The top-level functions with a body that are kernels: those with a `grid`, else all."""
    funcs = [f for f in module.body.block.ops if isinstance(f, func.FuncOp) and f.body.blocks]
    with_grid = [f for f in funcs if "grid" in f.attributes]
    return with_grid or funcs


def parse_bindings(entries: tuple[str, ...], at) -> dict[str, str]:
    """`NAME=VALUE` entries as a dict (the values still text: their types are the arguments')."""
    out: dict[str, str] = {}
    for entry in entries:
        name, sep, value = str(entry).partition("=")
        name, value = name.strip().lstrip("%"), value.strip()
        if not sep or not name or not value:
            raise error(at, f"{FLAG} takes NAME=VALUE, got '{entry}'")
        if name in out and out[name] != value:
            raise error(at, f"{FLAG} binds '{name}' twice ({out[name]} and {value})")
        out[name] = value
    return out


def argument_names(f: func.FuncOp) -> list[str]:
    return [a.name_hint or f"arg{i}" for i, a in enumerate(f.body.blocks.first.args)]


def bind_arguments(f: func.FuncOp, bindings: dict[str, str]) -> None:
    from dfsched.passes.cleanup.canonicalize import canonicalize

    block = f.body.blocks.first
    names = argument_names(f)
    unknown = [n for n in bindings if n not in names]
    if unknown:
        raise error(f, f"{FLAG} {unknown[0]}=...: @{f.sym_name.data} has no argument '{unknown[0]}' "
                       f"(its arguments: {', '.join(names) or 'none'})")
    bound: list[BlockArgument] = []
    for name, arg in zip(names, list(block.args)):
        if name not in bindings:
            continue
        attr = constant_for(arg.type, bindings[name], name, f)
        constant = arith.ConstantOp(attr, arg.type)
        constant.location = f.location
        block.insert_op_before(constant, block.first_op) if block.first_op else block.add_op(constant)
        arg.replace_all_uses_with(constant.result)
        bound.append(arg)
    keep = [i for i, a in enumerate(block.args) if a not in bound]
    _drop_arguments(f, keep)
    for arg in bound:
        block.erase_arg(arg)
    canonicalize(f)


def _drop_arguments(f: func.FuncOp, keep: list[int]) -> None:
    inputs = [f.function_type.inputs.data[i] for i in keep]
    f.function_type = FunctionType.from_lists(inputs, list(f.function_type.outputs.data))
    if f.arg_attrs is not None:
        from xdsl.dialects.builtin import ArrayAttr

        f.arg_attrs = ArrayAttr([f.arg_attrs.data[i] for i in keep])


def _underlying(t: Attribute) -> Attribute:
    return t.underlying_type if getattr(t, "name", "") == "ktdp.runtime_arg" else t  # type: ignore[attr-defined]


def constant_for(t: Attribute, text: str, name: str, at) -> Attribute:
    """The constant attribute of type `t` that `text` spells, or a located error."""
    t = _underlying(t)
    if isinstance(t, ShapedType):
        raise error(at, f"{FLAG} {name}={text}: '{name}' is a {t} argument, not a scalar "
                        "(dfsched-run --inputs FILE.npz feeds arrays)")
    if isinstance(t, (IndexType, IntegerType)):
        if isinstance(t, IntegerType) and t.width.data == 1 and text.lower() in ("true", "false"):
            return IntegerAttr(int(text.lower() == "true"), t)
        try:
            value = int(text, 0)
        except ValueError:
            raise error(at, f"{FLAG} {name}={text}: '{name}' is an {t} argument and '{text}' is not an "
                            "integer") from None
        width = 64 if isinstance(t, IndexType) else t.width.data
        if not -(1 << (width - 1)) <= value < (1 << width):
            raise error(at, f"{FLAG} {name}={text}: {value} does not fit '{name}' of type {t}")
        if isinstance(t, IntegerType) and value >= (1 << (width - 1)):
            value -= 1 << width  # an unsigned spelling of a negative value
        return IntegerAttr(value, t)
    if isinstance(t, AnyFloat):
        try:
            value = float(text)
        except ValueError:
            raise error(at, f"{FLAG} {name}={text}: '{name}' is an {t} argument and '{text}' is not a "
                            "number") from None
        if math.isfinite(value) and _overflows(value, t):
            raise error(at, f"{FLAG} {name}={text}: {value} does not fit '{name}' of type {t}")
        return FloatAttr(value, t)
    raise error(at, f"{FLAG} {name}={text}: arguments of type {t} cannot be bound")


def _overflows(value: float, t: Attribute) -> bool:
    import numpy as np

    dtypes = {"f16": np.float16, "bf16": None, "f32": np.float32, "f64": np.float64}
    dtype = dtypes.get(str(t))
    if dtype is None:
        return False
    with np.errstate(over="ignore"):
        return not np.isfinite(dtype(value))


def check_needed_scalars(f: func.FuncOp) -> None:
    """Step 2: a used argument that is no buffer address and that the schedule cannot leave to
    run time (`first_static_use`) must have been bound."""
    addresses = address_arguments(f)
    for i, (name, arg) in enumerate(zip(argument_names(f), f.body.blocks.first.args)):
        if i in addresses or isinstance(_underlying(arg.type), ShapedType):
            continue
        if getattr(arg.type, "name", "") == "ktdp.runtime_arg":
            continue  # declared a run-time value (with its bounds)
        use = first_static_use(arg)
        if use is not None:
            raise error(f, f"kernel argument %{name} ({arg.type}) is a scalar the schedule needs: bind it "
                           f"with {FLAG} {name}=VALUE", [(use, f"'{use.name}' needs its value to be known")])


# ops a run-time value may pass through and stay a run-time address or coordinate: what
# DataflowIR's start-address symbols can express (dfir_symbols.READABLE), a constant factor
_ADDITIVE = ("arith.addi", "arith.subi", "arith.index_cast", "arith.index_castui", "spyreop.addi64toi64")
_SCALED = ("arith.muli", "arith.divsi", "arith.remsi", "arith.ceildivsi")


def first_static_use(arg: BlockArgument) -> Operation | None:
    """The first op that needs `arg`'s value at compile time, or None: a value may only flow,
    through additions, casts, selects and products with constants, into a memory view's start
    address or an access tile's anchor coordinates (both become run-time symbols); anything
    else (a loop bound, a size or stride, a product with a tile id, compute) needs a number."""
    work: list[SSAValue] = [arg]
    seen: set[int] = set()
    while work:
        value = work.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        for use in list(value.uses):
            op, index = use.operation, use.index
            if op.name == MEMORY_VIEW and index == 0:
                continue
            if op.name == "ktdp.construct_access_tile" and any(value is v for v in op.indices):
                continue
            if op.name in _ADDITIVE or (op.name == "arith.select" and index > 0):
                work.extend(op.results)
                continue
            if op.name in _SCALED and len(op.operands) == 2 and constant_int(op.operands[1 - index]) is not None:
                work.extend(op.results)
                continue
            return op
    return None
