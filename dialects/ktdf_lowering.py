"""The `ktdf_lowering` dialect: the temporary ops between ScheduleIR and DataflowIR.

`ktdf-to-ktdflowering` turns pipelines and stages into `execute_on` regions and token
dependencies into `signal`s; `ktdflowering-to-dfir` consumes both (`docs/dialects.md#ktdf_lowering`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Dialect, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, region_def, traits_def, var_operand_def
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.directives import Body
from dfsched.dialects.ktdf import ensure_block


@irdl_op_definition
class ExecuteOnOp(IRDLOperation):
    """The body runs on the listed hardware units (`dataflow.get_unit`/`uniform.query_map` values)."""

    name = "ktdf_lowering.execute_on"

    units = var_operand_def(IndexType)
    body = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(self, units: Sequence[SSAValue] = (), body: Region | None = None,
                 attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[list(units)], regions=[ensure_block(body or Region())],
                         attributes=dict(attributes or {}))

    assembly_format = "$units custom<Body>($body) attr-dict"
    custom_directives = (Body,)

    def verify_(self) -> None:
        if self.body.blocks and self.body.block.args:
            raise VerifyException("body must not have block arguments")


@irdl_op_definition
class SignalOp(IRDLOperation):
    """Synchronization among the listed units; side-effecting, so never removed as dead."""

    name = "ktdf_lowering.signal"

    units = var_operand_def(IndexType)

    def __init__(self, units: Sequence[SSAValue] = (), attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[list(units)], attributes=dict(attributes or {}))

    assembly_format = "$units attr-dict"


KTDF_LOWERING = Dialect("ktdf_lowering", [ExecuteOnOp, SignalOp], [])
