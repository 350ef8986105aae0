"""The `ktdf` dialect's types (`!ktdf.token`, `!ktdf.fifo.slot`) and its `#ktdf.loop_type` attribute."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntAttr, ShapedType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from dfsched.compat import EnumAttribute, StrEnum
from dfsched.dialects.directives import KDYNAMIC


# ===========================================================================
# Types
# ===========================================================================


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!ktdf.token`: a scheduling token ordering stages; it carries no data."""

    name = "ktdf.token"


@irdl_attr_definition
class FifoSlotType(ParametrizedAttribute, TypeAttribute):
    """`!ktdf.fifo.slot<SRC -> DST, NxT>`: one slot of a hardware FIFO carrying N elements.

    SRC and DST are arbitrary attributes (device resource kinds such as `"L1LU"`, or a
    memory space); N is `?` when the count is dynamic.
    """

    name = "ktdf.fifo.slot"

    src: Attribute
    dest: Attribute
    num_elements: IntAttr
    element_type: Attribute

    def __init__(self, src: Attribute, dest: Attribute, num_elements: int, element_type: Attribute):
        super().__init__(src, dest, IntAttr(num_elements), element_type)

    @property
    def is_dynamic(self) -> bool:
        return self.num_elements.data == KDYNAMIC

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        """`<src -> dest, count x element-type>` (`?` is a dynamic count)."""
        with parser.in_angle_brackets():
            src = parser.parse_attribute()
            parser.parse_punctuation("->")
            dest = parser.parse_attribute()
            parser.parse_punctuation(",")
            dynamic = parser.parse_optional_punctuation("?") is not None
            count = KDYNAMIC if dynamic else parser.parse_shape_dimension(allow_dynamic=False)
            parser.parse_shape_delimiter()
            element_type = parser.parse_optional_type()
            if element_type is None:
                parser.raise_error("expected the element type after 'Nx' (a fifo slot has exactly one dimension)")
        return (src, dest, IntAttr(count), element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.src)
            printer.print_string(" -> ")
            printer.print_attribute(self.dest)
            printer.print_string(", ")
            printer.print_string(f"{'?' if self.is_dynamic else self.num_elements.data}x")
            printer.print_attribute(self.element_type)


def element_type_of(type_: Attribute) -> Attribute:
    """The element type of a fifo slot or shaped type; any other type is its own."""
    if isinstance(type_, FifoSlotType):
        return type_.element_type
    if isinstance(type_, ShapedType):
        return type_.get_element_type()
    return type_


# ===========================================================================
# Attributes
# ===========================================================================


class LoopType(StrEnum):
    PARALLEL_LOOP = "parallel_loop"
    REDUCTION_LOOP = "reduction_loop"


@irdl_attr_definition
class LoopTypeAttr(EnumAttribute[LoopType]):
    """`#ktdf.loop_type<parallel_loop|reduction_loop>`, attached to `scf.for` as `loop_type`."""

    name = "ktdf.loop_type"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> LoopType:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(LoopType)
