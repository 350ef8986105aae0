"""`dfsched-opt --help` lists every pass in pipeline order, with its summary and options."""

from __future__ import annotations

import re

import pytest

from dfsched import passes
from dfsched.tools.opt import main as opt_main
from dfsched.tools.pass_help import options, pipeline_passes, summary


@pytest.fixture(scope="module")
def help_text():
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        opt_main(["--help"])
    return out.getvalue()


def test_passes_in_pipeline_order_then_the_others(help_text):
    listed = re.findall(r"^  --([\w-]+) +\S", help_text.split("Passes of -ktir-to-dfir", 1)[1], re.M)
    in_pipeline = pipeline_passes()
    assert listed[: len(in_pipeline)] == in_pipeline
    assert sorted(listed) == sorted(passes.PASSES)
    assert listed[len(in_pipeline):] == sorted(set(passes.PASSES) - set(in_pipeline))


def test_every_pass_has_a_summary_and_its_options(help_text):
    for name in passes.PASSES:
        text = summary(name)
        assert text, f"pass {name}: give its class a one-line docstring"
        assert f"--{name}" in help_text and text in help_text
    block = help_text.split("  --tile-scf-for-loops", 1)[1].split("\n  --", 1)[0]
    for opt in options("tile-scf-for-loops"):
        assert f"      {opt.name}=<" in block
    assert "tile-single-loops=<bool> (default false) - Dynamic mode" in block  # the field docstring
