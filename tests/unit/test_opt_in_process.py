"""`DfschedOptMain` run inside another process (`strategy=search`'s judge, `dfsched.compile`)
leaves xDSL as it found it."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import UnitAttr, f16
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.ktdf_arch import MapAttr
from dfsched.tools.opt import DfschedOptMain


def test_disable_verify_keeps_attribute_verification_for_the_process():
    """xDSL's `--disable-verify` replaces `Attribute.__post_init__` for good; an in-process tool
    with that flag (the tile search's judge) used to leave every later attribute unverified."""
    DfschedOptMain(["--disable-verify"])
    with pytest.raises(VerifyException, match="multiple entries for key"):
        MapAttr([(f16, UnitAttr()), (f16, UnitAttr())])


def test_a_compile_imports_neither_numpy_nor_networkx(tmp_path):
    """numpy costs about 0.15 s of CPU to import, a seventh of a small compile (README,
    compile_time.py); the compiler imports it only for a Triton bitcast constant it folds.
    layernorm reaches the lane positions and the fills that once imported it (a subprocess: the
    test process has numpy already). networkx (about 0.2 s) is imported only by a route that
    needs a search (Decision 115): layernorm's routes on sample follow single-successor chains."""
    import os
    import subprocess
    import sys

    kernel = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "layernorm.mlir")
    code = ("import sys; from dfsched.tools.opt import main; "
            f"sys.argv = ['dfsched-opt', '--device=sample', '-ktir-to-dfir', {kernel!r}, '-o', {str(tmp_path / 'out.mlir')!r}]; "
            "code = main(); print(code or 0, 'numpy' in sys.modules, 'networkx' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "False", "False"]
