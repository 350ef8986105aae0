"""`--report` prints a table for every example, and the JSON holds the same facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dfsched.tools.opt import main as opt_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


@pytest.mark.parametrize("kernel", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_report_on_every_example(kernel, tmp_path, capsys):
    out = tmp_path / "report.json"
    argv = [str(kernel), "--device=sample", "-ktir-to-dfir", "--report", "--report-json", str(out),
            "-o", str(tmp_path / "out.mlir")]
    assert opt_main(argv) == 0
    err = capsys.readouterr().err
    data = json.loads(out.read_text())
    assert data["programs"], err
    for program in data["programs"]:
        assert f"== program @{program['name']}: grid {program['grid']}, device sample ==" in err
        assert program["pipelines"] and program["buffers"]
        for use in program["memories"]:
            assert use["capacity"] and 0 < use["used"] <= use["capacity"]
        for tile in program["tiles"]:
            assert tile["size"] in tile["candidates"] and tile["bound_by"]
    for header in ("buffers", "scratchpad use", "tile sizes", "corelets:"):
        assert header in err
