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
