"""The kernels in `examples/` on the KTIR reference interpreter, each against numpy
expressions of what it says it computes, written independently (the memory model, op
semantics and kernel arguments are in test_ktir_interp_memory.py, _ops.py and _calls.py)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from dfsched.interp.ktir import load_module, make_inputs, run_kernel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


# ---------------------------------------------------------------------------------------
# the example kernels
# ---------------------------------------------------------------------------------------


# What each example says it computes, as numpy expressions over the buffers (keyed by
# their byte addresses). Every example must have an entry: a new example without one fails.


def _sigmoid_f16(x):
    return (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(np.float16)


def _loop_nest(i):
    a, b = i["@0"], i["@4096"]
    x, z = i["@8192"].copy(), i["@16384"].copy()
    x[:, :64] = a[:, :64] + b[:, :64]
    z[:, 64:] = a[:, 64:] - b[:, 64:]
    return {"@8192": x, "@12288": a * b, "@16384": z}


def _elementwise_ops(i):
    v, w = i["@0"], i["@1024"]
    erf = np.vectorize(lambda t: math.erf(float(t)), otypes=[np.float64])
    mx = np.fmax(np.log1p(np.sqrt(np.abs(v))), -erf(np.tanh(w)).astype(np.float16))  # maxnumf
    picked = np.where(v < w, np.minimum(mx, w), mx)
    return {"@2048": picked * np.float16(1 / math.sqrt(0.5)) / np.float16(0.5) - w}


def _rsqrt_f16(v):
    return (1.0 / np.sqrt(v.astype(np.float32))).astype(np.float16)


def _row_sum_f16(v):  # a reduction: accumulated in f32 (no device), rounded to f16 once
    return v.astype(np.float32).sum(axis=1).astype(np.float16)


def _softmax(x):
    e = np.exp(x - x.max(axis=1)[:, None])
    return e / _row_sum_f16(e)[:, None]


def _rmsnorm(i):
    x, w = i["@0"], i["@2048"]
    sums = (x.astype(np.float32) ** 2).sum(axis=1).astype(np.float16)  # the body runs in f32 too
    factors = _rsqrt_f16(sums / np.float16(64) + np.float16(1e-3))
    return {"@4096": x * factors[:, None] * w[None, :]}


def _rmsnorm_decode(i):
    x, w = i["@0"], i["@4096"]
    sums = (x.astype(np.float32) ** 2).sum(axis=1).astype(np.float16)
    factors = _rsqrt_f16(sums / np.float16(1024) + np.float16(1e-3))
    return {"@8192": x * factors[:, None] * w[None, :]}


def _layernorm(i):
    x, g, b = i["@0"], i["@2048"], i["@2176"]
    deviations = x - (_row_sum_f16(x) / np.float16(64))[:, None]
    factors = _rsqrt_f16(_row_sum_f16(deviations * deviations) / np.float16(64) + np.float16(1e-3))
    return {"@4096": deviations * factors[:, None] * g[None, :] + b[None, :]}


def _layernorm_triton(i):
    """Triton's layernorm as written: chunks of 16 summed element-wise in f16, then reduced."""
    x, w, b = i["@0"], i["@1024"], i["@2048"]

    def chunk_sums(v):
        acc = np.zeros((v.shape[0], 16), np.float16)
        for c in range(0, 64, 16):
            acc = acc + v[:, c:c + 16]
        return _row_sum_f16(acc)

    means = chunk_sums(x) / np.float16(64)
    deviations = x - means[:, None]
    rstds = _rsqrt_f16(chunk_sums(deviations * deviations) / np.float16(64) + np.float16(1e-3))
    return {"@3072": deviations * rstds[:, None] * w + b, "@4096": means, "@4112": rstds}


def _rmsnorm_rows_uneven(i):
    """Triton's RMSNorm as written: squares of 2 chunks of 16 summed element-wise in f16, then reduced."""
    x, w = i["@0"], i["@512"]
    squares = x * x
    rstds = _rsqrt_f16(_row_sum_f16(squares[:, :16] + squares[:, 16:]) / np.float16(32) + np.float16(1e-3))
    return {"@1024": x * rstds[:, None] * w}


def _gated_mlp(i):
    """SwiGLU: each contraction accumulated in f32 (no device) and rounded to f16 once, the gate in f16."""
    def matmul(a, b):
        return np.einsum("mk,kn->mn", a.astype(np.float32), b.astype(np.float32)).astype(np.float16)

    x = i["@0"]
    gate, up = matmul(x, i["@1024"]), matmul(x, i["@5120"])
    one = np.float16(1)
    hidden = gate * (one / (one + np.exp(-gate))) * up
    return {"@13312": x + matmul(hidden, i["@9216"])}


def _row_mean_scalar(i):
    """Each 16-column chunk reduced to an f16 scalar (in f32, no device) and added to an f16 sum."""
    x = i["@0"]
    total = np.zeros(x.shape[0], np.float16)
    for c in range(0, 64, 16):
        total = total + _row_sum_f16(x[:, c:c + 16])
    return {"@512": total / np.float16(64)}


def _sigmoid_by_exp(i):
    e = np.exp(i["@0"])
    return {"@4096": e / (np.float16(1) + e)}


def _chunked_matmul(a, b, chunk):
    """The K loop as written: each chunk's product in f32, rounded to f16, added in f16."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float16)
    for k in range(0, a.shape[1], chunk):
        acc = acc + np.einsum("mk,kn->mn", a[:, k:k + chunk].astype(np.float32),
                              b[k:k + chunk].astype(np.float32)).astype(np.float16)
    return acc


def _chunked_row_sum(a, chunk):
    """Each chunk reduced into the f16 running sums, accumulating in f32 (no device)."""
    acc = np.zeros(a.shape[0], np.float16)
    for c in range(0, a.shape[1], chunk):
        acc = (acc.astype(np.float32) + a[:, c:c + chunk].astype(np.float32).sum(axis=1)).astype(np.float16)
    return acc


def _attention(i):
    """Q K^T and P V accumulated in f32 (no device) and rounded once; scale and softmax in f16."""
    q, k, v = i["@0"], i["@512"], i["@2560"]
    scores = np.einsum("qd,kd->qk", q.astype(np.float32), k.astype(np.float32)).astype(np.float16)
    weights = _softmax(scores * np.float16(0.25))
    return {"@4608": np.einsum("qk,kd->qd", weights.astype(np.float32), v.astype(np.float32)).astype(np.float16)}


def _kv_cache_scatter(i):
    cache = i["@1056"].copy()
    for token, slot in enumerate(i["@1024"]):  # a slot named twice keeps the later token
        cache[slot] = i["@0"][token] * np.float16(0.125)
    return {"@1056": cache}


def _paged_kv_copy(i):
    pool, table = i["@0"], i["@1024"]
    t = np.arange(12)
    # out[s, t, h, :] = pool[table[s, t // 4], h, t % 4, :]
    return {"@1088": pool[table[:, t // 4], :, t % 4, :]}


def _paged_attention_decode(i):
    """The loop as written, page by page: running maximum, rescaled sum and accumulator (sums and
    contractions accumulated in f32 and rounded once, the rest in f16)."""
    q, k_pool, v_pool, table = i["@0"], i["@256"], i["@1280"], i["@2304"]
    f16, f32 = np.float16, np.float32
    out = np.empty_like(q)
    for s in range(2):
        rows = slice(4 * s, 4 * s + 4)
        maxima, sums, acc = np.full(4, -np.inf, f16), np.ones(4, f16), np.zeros((4, 16), f16)
        for j in range(3):
            k, v = k_pool[table[s, j]], v_pool[table[s, j]]
            scores = np.einsum("qd,kd->qk", q[rows].astype(f32), k.astype(f32)).astype(f16) * f16(0.25)
            new_maxima = np.maximum(maxima, scores.max(axis=1))
            exps = np.exp(scores - new_maxima[:, None])
            factors = np.exp(maxima - new_maxima)
            products = np.einsum("qk,kd->qd", exps.astype(f32), v.astype(f32))
            acc = ((acc * factors[:, None]).astype(f32) + products).astype(f16)
            sums = sums * factors + _row_sum_f16(exps)
            maxima = new_maxima
        out[rows] = acc / sums[:, None]
    return {"@2336": out}


def _ring_allreduce(i):
    """Each row times the column sums of all rows, summed from 0 in tile order in f16."""
    x = i["@0"]
    sums = np.zeros(x.shape[1], dtype=np.float16)
    for row in x:
        sums = sums + row
    return {"@2048": x * sums[None, :]}


def _ring_allreduce_rounds(i):
    """Three rounds of the 2x64 blocks' all-reduce (from 0, tile order) summed from 0, plus block 0, in f16."""
    blocks = i["@0"].reshape(4, 2, 64)
    sums = np.zeros((2, 64), dtype=np.float16)
    for block in blocks:
        sums = sums + block
    total = np.zeros((2, 64), dtype=np.float16)
    for _ in range(3):
        total = total + sums
    return {"@1024": total + blocks[0]}


def _causal_mask_heads(i):
    """Token t keeps key positions up to 48 + t; the rest become -inf."""
    scores = i["@0"]
    visible = np.arange(64)[None, None, :] <= 48 + np.arange(4)[:, None, None]
    return {"@8192": np.where(visible, scores, np.float16(-np.inf)).astype(np.float16)}


EXAMPLE_EXPECTATIONS = {
    "add.mlir": lambda i: {"@24576": i["@0"] + i["@12288"]},
    "add_2tile.mlir": lambda i: {"@8192": i["@0"] + i["@4096"]},
    "attention.mlir": _attention,
    "causal_mask_heads.mlir": _causal_mask_heads,
    "elementwise_ops.mlir": _elementwise_ops,
    "embedding_gather.mlir": lambda i: {"@16512": i["@0"][i["@16384"]] * np.float16(8.0)},
    "kv_cache_scatter.mlir": _kv_cache_scatter,
    "paged_kv_copy.mlir": _paged_kv_copy,
    "paged_attention_decode.mlir": _paged_attention_decode,
    "gated_mlp.mlir": _gated_mlp,
    "fused_chain.mlir": lambda i: {"@12288": (i["@0"] + i["@4096"]) * i["@8192"]},
    "intrinsic.mlir": lambda i: {"@8192": _sigmoid_f16(i["@0"]) * i["@4096"]},
    "layernorm.mlir": _layernorm,
    "layernorm_triton.mlir": _layernorm_triton,
    "loop_nest.mlir": _loop_nest,
    # f32 accumulation without a device, rounded to f16 once (einsum: the reference's order)
    "matmul.mlir": lambda i: {"@32768": np.einsum("mk,kn->mn", i["@0"].astype(np.float32),
                                                   i["@16384"].astype(np.float32)).astype(np.float16)},
    "batch_matmul.mlir": lambda i: {"@4096": np.einsum("bmk,bkn->bmn", i["@0"].astype(np.float32),
                                                         i["@2048"].astype(np.float32)).astype(np.float16)},
    "matmul_transpose_b.mlir": lambda i: {"@2048": np.einsum("mk,nk->mn", i["@0"].astype(np.float32),
                                                              i["@1024"].astype(np.float32)).astype(np.float16)},
    "qk_transpose.mlir": lambda i: {"@2048": np.einsum("id,jd->ij", i["@0"].astype(np.float32),
                                                        i["@1024"].astype(np.float32)).astype(np.float16)},
    "matmul_kloop.mlir": lambda i: {"@9216": _chunked_matmul(i["@0"], i["@1024"], chunk=32)},
    "mul_args.mlir": lambda i: {"z_address": i["x_address"] * i["y_address"]},
    "row_bias.mlir": lambda i: {"@16384": i["@0"] + i["@12288"][None, :]},
    "ring_allreduce.mlir": _ring_allreduce,
    "ring_allreduce_rounds.mlir": _ring_allreduce_rounds,
    "rmsnorm.mlir": _rmsnorm,
    "rmsnorm_decode.mlir": _rmsnorm_decode,
    "rmsnorm_rows_uneven.mlir": _rmsnorm_rows_uneven,
    "row_bias_tiled.mlir": lambda i: {"@528384": i["@0"] + i["@524288"][None, :]},
    "sigmoid.mlir": _sigmoid_by_exp,
    "softmax.mlir": lambda i: {"@2048": _softmax(i["@0"])},
    "softmax_triton.mlir": lambda i: {"@512": _softmax(i["@0"])},
    "scale_rows_triton.mlir": lambda i: {"y_ptr": i["x_ptr"] * i["s_ptr"][0, 0]},
    "scale_by_first_row.mlir": lambda i: {"y_ptr": i["x_ptr"] * i["x_ptr"][0][None, :]},
    "row_sum.mlir": lambda i: {"@12288": i["@0"].astype(np.float32).sum(axis=1).astype(np.float16)},
    "row_mean_scalar.mlir": _row_mean_scalar,
    "row_sum_chunked.mlir": lambda i: {"@4096": _chunked_row_sum(i["@0"], chunk=64)},
}


def _example_paths():
    return sorted(EXAMPLES.glob("*.mlir")) if EXAMPLES.is_dir() else []


@pytest.mark.parametrize("path", _example_paths(), ids=lambda p: p.name)
def test_example_kernel_computes_what_it_says(path):
    assert path.name in EXAMPLE_EXPECTATIONS, f"no numpy expectation for examples/{path.name}"
    m = load_module(path)
    inputs = make_inputs(m, seed=0)
    outputs = run_kernel(m, inputs)
    expected = EXAMPLE_EXPECTATIONS[path.name](inputs)
    for key, value in expected.items():
        assert outputs[key].dtype == value.dtype, key
        np.testing.assert_array_equal(outputs[key], value, err_msg=key)
    # every other buffer is an input the kernel leaves alone
    for key in set(outputs) - set(expected):
        np.testing.assert_array_equal(outputs[key], inputs[key], err_msg=key)
