"""`--report` prints a table for every example, and the JSON holds the same facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dfsched.tools.opt import main as opt_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


# quad_corelet has no unit issuing address-list transfers: gathers and scatters are refused there
ADDRESS_LISTS = {"embedding_gather", "kv_cache_scatter", "paged_kv_copy", "paged_attention_decode"}
# tiles exchanging partials need as many cores as tiles: reported on the 4-core ring instead
# (their refusal on sample and quad_corelet is pinned in test_dfsched_run.py)
INTER_TILE = {"ring_allreduce", "ring_allreduce_rounds"}
# quad_corelet has no i32 lanes for element positions (Decision 107; refusal pinned in test_dfsched_run.py)
POSITIONS = {"causal_mask_heads"}
REPORTS = [(kernel, device) for kernel in EXAMPLES for device in ("sample", "quad_corelet")
           if kernel.stem not in INTER_TILE
           and not (kernel.stem in ADDRESS_LISTS | POSITIONS and device == "quad_corelet")] + \
          [(kernel, "ring4") for kernel in EXAMPLES if kernel.stem in INTER_TILE]


# quad_corelet's reports are opt-in: the default run reports every example on sample, and
# `tests/lit/tools/report/quad-corelet.test` pins a quad_corelet report (its corelet lines).
SLOW_REPORTS = {(kernel, "quad_corelet") for kernel in EXAMPLES}


@pytest.mark.parametrize("kernel,device", [pytest.param(k, d, marks=pytest.mark.slow) if (k, d) in SLOW_REPORTS
                                          else (k, d) for k, d in REPORTS],
                         ids=[f"{k.stem}-{d}" for k, d in REPORTS])
def test_report_on_every_example(kernel, device, tmp_path, capsys):
    out = tmp_path / "report.json"
    argv = [str(kernel), f"--device={device}", "-ktir-to-dfir", "--report", "--report-json", str(out),
            "-o", str(tmp_path / "out.mlir")]
    assert opt_main(argv) == 0
    err = capsys.readouterr().err
    data = json.loads(out.read_text())
    assert data["programs"] and not data["problems"], err
    for program in data["programs"]:
        assert f"== program @{program['name']}: grid {program['grid']}, device {device} ==" in err
        assert program["pipelines"]
        # an exchange program of an inter-tile kernel may work in the kernel's own scratchpad slots
        assert program["buffers"] or kernel.stem in INTER_TILE
        for use in program["memories"]:
            assert use["capacity"] and 0 < use["used"] <= use["capacity"]
        for tile in program["tiles"]:
            assert tile["size"] in tile["candidates"] and tile["bound_by"]
    for header in ("buffers", "scratchpad use", "tile sizes", "corelets:"):
        assert header in err


def test_a_report_without_schedule_says_so(tmp_path, capsys):
    argv = [str(EXAMPLES[0]), "--canonicalize", "--report", "-o", str(tmp_path / "out.mlir")]
    assert opt_main(argv) == 0
    assert "== no scheduled program ==" in capsys.readouterr().err
