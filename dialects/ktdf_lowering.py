"""The `ktdf_lowering` dialect: the temporary ops between ScheduleIR and DataflowIR.

`ktdf-to-ktdflowering` turns pipelines and stages into `execute_on` regions and token
dependencies into `signal`s; `ktdflowering-to-dfir` consumes both (`docs/dialects.md#ktdf_lowering`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Dialect, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, region_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.ktdf import ensure_block, print_attr_dict, print_body, resolve_all
from dfsched.dialects.syntax import parse_operand_list


def _parse_units(parser: Parser) -> list[SSAValue]:
    return resolve_all(parser, parse_operand_list(parser), IndexType())


def _print_units(printer: Printer, units: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_list(units, printer.print_operand)


@irdl_op_definition
class ExecuteOnOp(IRDLOperation):
    """The body runs on the listed hardware units (`dataflow.get_unit`/`uniform.query_map` values).

    `ktdf_lowering.execute_on %u0, %u1 { ... } [attr-dict]`
    """

    name = "ktdf_lowering.execute_on"

    units = var_operand_def(IndexType)
    body = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(self, units: Sequence[SSAValue] = (), body: Region | None = None,
                 attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[list(units)], regions=[ensure_block(body or Region())],
                         attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> ExecuteOnOp:
        units = _parse_units(parser)
        body = parser.parse_region()
        return cls(units, body, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        _print_units(printer, self.units)
        printer.print_string(" ")
        print_body(printer, self.body)
        print_attr_dict(printer, self)

    def verify_(self) -> None:
        if self.body.blocks and self.body.block.args:
            raise VerifyException("body must not have block arguments")


@irdl_op_definition
class SignalOp(IRDLOperation):
    """Synchronization among the listed units; side-effecting, so never removed as dead.

    `ktdf_lowering.signal %uA, %uB [attr-dict]`
    """

    name = "ktdf_lowering.signal"

    units = var_operand_def(IndexType)

    def __init__(self, units: Sequence[SSAValue] = (), attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[list(units)], attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> SignalOp:
        units = _parse_units(parser)
        return cls(units, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        _print_units(printer, self.units)
        print_attr_dict(printer, self)


KTDF_LOWERING = Dialect("ktdf_lowering", [ExecuteOnOp, SignalOp], [])
