"""The `spyreop` intrinsics, wired to their numpy semantics in `intrinsics.py`."""

from __future__ import annotations

from typing import Any

import numpy as np

from dfsched.interp import intrinsics as I
from dfsched.interp.base import functions_for, to_python
from dfsched.interp.dtypes import element_type, int_width


def _res(op, value) -> tuple[Any, ...]:
    return (to_python(value, op.results[0].type),)


def _unary(fn):
    def run(self, interpreter, op, args):
        return _res(op, fn(args[0], element_type(op.results[0].type)))

    return run


def _keyword(attr) -> str:
    """The keyword of an enum attribute (`#spyreop.compare_predicate<equal>` -> "equal")."""
    data = getattr(attr, "data", attr)
    value = getattr(data, "value", data)
    if isinstance(value, str):
        return value
    text = str(attr)
    return text[text.rfind("<") + 1 : text.rfind(">")] if "<" in text else text


def _prop(op, name):
    value = op.properties.get(name)
    return op.attributes.get(name) if value is None else value


def _run_realdiv(self, interpreter, op, args):
    return _res(op, I.realdiv(args[0], args[1], element_type(op.results[0].type)))


def _run_softplus(self, interpreter, op, args):
    beta = float(_prop(op, "beta").value.data)
    threshold = float(_prop(op, "threshold").value.data)
    return _res(op, I.softplus(args[0], beta, threshold, element_type(op.results[0].type)))


def _run_exx2(self, interpreter, op, args):
    mean, msq = I.exx2(args[0], element_type(op.results[0].type))
    return (to_python(mean, op.results[0].type), to_python(msq, op.results[1].type))


def _run_exx2_fused(self, interpreter, op, args):
    return _res(op, I.exx2_fused(args[0], element_type(op.results[0].type)))


def _run_exx2_zeromean_fused(self, interpreter, op, args):
    return _res(op, I.exx2_zeromean_fused(args[0], element_type(op.results[0].type)))


def _run_layernormscale(self, interpreter, op, args):
    eps = interpreter.state.options.layernorm_eps
    return _res(op, I.layernormscale(args[0], args[1], element_type(op.results[0].type), eps))


def _run_layernormscale_fused(self, interpreter, op, args):
    eps = interpreter.state.options.layernorm_eps
    return _res(op, I.layernormscale_fused(args[0], element_type(op.results[0].type), eps))


def _run_layernormnorm(self, interpreter, op, args):
    return _res(op, I.layernormnorm(*args, element_type(op.results[0].type)))


def _run_compare(self, interpreter, op, args):
    pred = _keyword(_prop(op, "predicate"))
    return _res(op, I.compare(pred, args[0], args[1], element_type(op.results[0].type)))


def _run_select(self, interpreter, op, args):
    return _res(op, I.select(args[0], args[1], args[2], element_type(op.results[0].type)))


def _run_constant(self, interpreter, op, args):
    value = _prop(op, "value")
    if value is None or not hasattr(value, "value"):
        raise ValueError("spyreop.constant needs a float 'value' attribute")
    return tuple(to_python(element_type(r.type).cast(float(value.value.data)), r.type) for r in op.results)


def _fixed_int(fn, bits: int | None = None):
    def run(self, interpreter, op, args):
        width = bits or int_width(op.results[0].type)
        return _res(op, fn(args[0], args[1], width))

    return run


def _run_idx32toaddr(self, interpreter, op, args):
    return _res(op, I.idx32toaddr(args[0], args[1], args[2]))


def _run_slice_reduction(self, interpreter, op, args):
    width = interpreter.state.options.slice_width
    if width is None:
        raise ValueError(
            "spyreop.slice_reduction needs the hardware slice width, which upstream does not "
            "document; run with slice_width=<lanes per slice>"
        )
    kind = _keyword(_prop(op, "reduction_kind"))
    scope = _keyword(_prop(op, "reduction_scope"))
    return _res(op, I.slice_reduction(np.asarray(args[0]), kind, scope, width, element_type(op.results[0].type)))


TABLE: dict[str, Any] = {
    "spyreop.exp": _unary(I.exp),
    "spyreop.gelu": _unary(I.gelu),
    "spyreop.sigmoid": _unary(I.sigmoid),
    "spyreop.silu": _unary(I.silu),
    "spyreop.sqrt": _unary(I.sqrt),
    "spyreop.rsqrt": _unary(I.rsqrt),
    "spyreop.reciprocal": _unary(I.reciprocal),
    "spyreop.realdiv": _run_realdiv,
    "spyreop.softplus": _run_softplus,
    "spyreop.exx2": _run_exx2,
    "spyreop.exx2_fused": _run_exx2_fused,
    "spyreop.exx2_zeromean_fused": _run_exx2_zeromean_fused,
    "spyreop.layernormscale": _run_layernormscale,
    "spyreop.layernormscale_fused": _run_layernormscale_fused,
    "spyreop.layernormnorm": _run_layernormnorm,
    "spyreop.compare": _run_compare,
    "spyreop.select": _run_select,
    "spyreop.constant": _run_constant,
    "spyreop.addi32toi32": _fixed_int(I.addi, 32),
    "spyreop.addi64toi64": _fixed_int(I.addi, 64),
    "spyreop.muli32toi32": _fixed_int(I.muli, 32),
    "spyreop.idx32toaddr": _run_idx32toaddr,
    "spyreop.slice_reduction": _run_slice_reduction,
}


def spyreop_functions(classes):
    return [functions_for("SpyreopFunctions", TABLE, classes)()]
