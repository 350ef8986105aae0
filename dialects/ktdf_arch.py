"""The `ktdf_arch` dialect: a device architecture written as a graph of resources.

A `ktdf_arch.device` holds nodes (`memory`, `exec_unit`, `switch`), links (`datapath`)
and hierarchy (`group`, which shares outer memories with `share(...)` and exports exec
units with `yield`). `patterns` blocks carry device-specific PDL rewrites.

The textual syntax follows the C++ dialect (see `docs/dialects.md#ktdf_arch`): ops in a
device or group body may drop the `ktdf_arch.` prefix, a resource's attributes are one
dictionary (or an alias of one) right after its optional `@id`, group bodies are
isolated from above and re-bind the shared memories under their outer names.

Intrinsic attributes (`ktdf_arch.features`, `ktdf_arch.transfer_granularity`, ...) are
checked by `dfsched.arch.intrinsics`; `verify_operation_attribute` below is the hook a
generic verifier calls for such attributes on ops of any dialect.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (ArrayAttr, BuiltinAttribute, DenseIntOrFPElementsAttr, DictionaryAttr, IntegerAttr,
                                   IntegerType, StringAttr, SymbolNameConstraint, TensorType, UnregisteredAttr, i1)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (AnyAttr, IRDLOperation, ParsePropInAttrDict, irdl_op_definition, lazy_traits_def, operand_def,
                       opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, NoTerminator, Pure, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import value_names
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects.constants import integer_attr_violation
from dfsched.dialects.directives import (GraphOrImport, InherentAttrDict, IsolatedBody, ResourceAttrDict, ShortType,
                                         StringArray, SymbolName, parse_id_and_dict, parse_isolated_region,
                                         print_id_and_dict, with_attr_dict)

from dfsched.dialects.syntax import add_implicit_terminator
from dfsched.dialects.ktdf_arch_types import (  # noqa: F401  (re-export: the dialect's names in one place)
    ENDPOINT_TYPES, ExecUnitType, MapAttr, MemoryType, PortType, SparseElementsAttr, attribute_text, parse_short_type,
    parse_sparse_literal, print_short_type)

DIALECT_NAME = "ktdf_arch"


# ---------------------------------------------------------------------------
# Located verifier errors
# ---------------------------------------------------------------------------


class ArchVerifyError(DiagnosticError, VerifyException):
    """A verifier error placed on a specific op, possibly with notes on other ops.

    It is both a `DiagnosticError` (so the driver reports it where it says, not on the op
    being verified) and a `VerifyException` (so xDSL code that catches those still does).
    """


def verify_error(op: Operation, message: str, notes: Iterable[tuple[Operation | None, str]] = ()) -> ArchVerifyError:
    """An error on `op` with MLIR `emitError` wording (no `'op' op` prefix)."""
    return ArchVerifyError(error(op, message, [(where or op, text) for where, text in notes]).diagnostic)


def op_error(op: Operation, message: str, notes: Iterable[tuple[Operation | None, str]] = ()) -> ArchVerifyError:
    """An error on `op` with MLIR `emitOpError` wording (`'<name>' op <message>`)."""
    return verify_error(op, f"'{op.name}' op {message}", notes)


# ---------------------------------------------------------------------------
# Parsing helpers shared by the ops
# ---------------------------------------------------------------------------


def kind_alias(attr: Attribute) -> str | None:
    """Alias name of a dictionary with a string `kind` (`#DDR = {kind = "DDR", ...}`), as upstream."""
    if isinstance(attr, DictionaryAttr):
        kind = attr.data.get("kind")
        if isinstance(kind, StringAttr) and kind.data:
            return kind.data
    return None


def shadow_region_args(printer: Printer, region: Region, values: Sequence[SSAValue]) -> None:
    """Print `region`'s entry arguments under the names of `values` (MLIR's shadowRegionArgs).

    The group header never prints its block arguments, so they must print exactly as the
    shared operands do: their names are written into the printer's name table.
    """
    if hasattr(printer, "shadow_region_args"):  # dfsched.printing.MLIRPrinter
        printer.shadow_region_args(region, values)
        return
    if not region.blocks:
        return
    names = value_names(printer)  # a plain xDSL printer
    for arg, value in zip(region.blocks.first.args, values):
        name = names.get(value)
        if name is not None:
            names[arg] = name
            printer.ssa_names[name] = max(printer.ssa_names.get(name, 0), 1)


# ---------------------------------------------------------------------------
# Common verification
# ---------------------------------------------------------------------------


def _verify_intrinsics(op: Operation) -> None:
    from dfsched.arch.intrinsics import verify_intrinsics

    verify_intrinsics(op)


def verify_operation_attribute(op: Operation, name: str, value: Attribute) -> None:
    """Dialect hook: verify the discardable attribute `name` (prefixed `ktdf_arch.`) on `op`."""
    from dfsched.arch.intrinsics import verify_intrinsic

    verify_intrinsic(op, name, value)


def _verify_subgraph(op: Operation) -> None:
    """Device and group bodies hold resources, terminators and meta ops only."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                if isinstance(child, (ResourceOp, YieldOp, PatternsOp)):
                    continue
                raise op_error(op, "expects child ops to be resources", [(child, "unexpected child is here")])


def is_valid_memory_space(attr: Attribute | None) -> bool:
    """MLIR's memory-space test: an integer, string or dictionary, or any dialect attribute."""
    if attr is None:
        return False
    if isinstance(attr, (IntegerAttr, StringAttr, DictionaryAttr)):
        return True
    if isinstance(attr, UnregisteredAttr):
        return "." in attr.attr_name.data
    if isinstance(attr, BuiltinAttribute):
        return False
    from xdsl.dialects.builtin import Builtin

    return type(attr) not in set(Builtin.attributes)


# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------


class ResourceOp(IRDLOperation):
    """Base of every resource op: optional `id` (symbol name) and `kind` (any attribute); it sits
    in a device or in a resource (`PARENT` names which other resource in the message)."""

    INHERENT: ClassVar[tuple[str, ...]] = ("id", "kind")
    ASM_RESULT_NAME: ClassVar[str] = ""
    PARENT: ClassVar[str] = "another resource"

    id = opt_prop_def(AnyAttr())
    kind = opt_prop_def(AnyAttr())

    def get_asm_result_names(self, set_name) -> None:
        """Results print as `%memory`, `%exec_unit`, `%switch:N` (MLIR's getAsmResultNames)."""
        if self.results and self.ASM_RESULT_NAME:
            set_name(self.results[0], self.ASM_RESULT_NAME)

    @property
    def resource_id(self) -> str | None:
        ident = self.properties.get("id")
        return ident.data if isinstance(ident, StringAttr) else None

    @property
    def kind_attr(self) -> Attribute | None:
        return self.properties.get("kind")

    def verify_(self) -> None:
        _verify_intrinsics(self)
        ident = self.properties.get("id")
        if ident is not None and not isinstance(ident, StringAttr):
            raise op_error(self, "attribute 'id' failed to satisfy constraint: string attribute")
        if not isinstance(self.parent_op(), DeviceOp | ResourceOp):
            raise op_error(self, f"expects parent op to be '{DeviceOp.name}' or {self.PARENT}")


class NodeOp(ResourceOp):
    """A resource with endpoints: memory, exec_unit, switch."""


class _SingleNodeOp(NodeOp):
    """A node with one result, written `%r = OP [@id] [dict]` (memory, exec_unit)."""

    assembly_format = "attr-dict"
    irdl_options = (ParsePropInAttrDict(),)


@with_attr_dict(ResourceAttrDict)
@irdl_op_definition
class MemoryOp(_SingleNodeOp):
    """`%m = memory [@id] [dict]`: a memory the scheduler can place data in."""

    name = "ktdf_arch.memory"
    INHERENT: ClassVar[tuple[str, ...]] = ("id", "kind", "size")
    ASM_RESULT_NAME: ClassVar[str] = "memory"

    size = opt_prop_def(AnyAttr())
    result = result_def(MemoryType)

    @property
    def size_bytes(self) -> int | None:
        size = self.properties.get("size")
        return size.value.data if isinstance(size, IntegerAttr) else None

    def verify_(self) -> None:
        super().verify_()
        if not is_valid_memory_space(self.properties.get("kind")):
            raise op_error(self, "attribute 'kind' requires valid memory space")
        if (message := integer_attr_violation(self, "size", signless=False, minimum=1)) is not None:
            raise op_error(self, message)


@with_attr_dict(ResourceAttrDict)
@irdl_op_definition
class ExecUnitOp(_SingleNodeOp):
    """`%e = exec_unit [@id] [dict]`: a unit the scheduler can assign work to."""

    name = "ktdf_arch.exec_unit"
    ASM_RESULT_NAME: ClassVar[str] = "exec_unit"

    result = result_def(ExecUnitType)


def _all_true_square(n: int) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i1, [n, n]), [1])


def connectivity_values(attr: Attribute) -> list[int] | None:
    """Row-major 0/1 values of a dense or sparse i1 matrix, None for anything else."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return [1 if v else 0 for v in attr.get_values()]
    if isinstance(attr, SparseElementsAttr):
        return [1 if v else 0 for v in attr.to_dense_values()]
    return None


def _matrix_shape(attr: Attribute) -> tuple[int, ...] | None:
    if isinstance(attr, (DenseIntOrFPElementsAttr, SparseElementsAttr)):
        elt = attr.get_element_type()
        if isinstance(elt, IntegerType) and elt.width.data == 1:
            shape = tuple(attr.get_shape())
            if len(shape) == 2 and shape[0] == shape[1]:
                return shape
    return None


@irdl_op_definition
class SwitchOp(NodeOp):
    """`%p:N = switch [N] [dict]`: N ports relayed by an N×N i1 `connectivity` matrix."""

    name = "ktdf_arch.switch"
    INHERENT: ClassVar[tuple[str, ...]] = ("id", "kind", "connectivity")
    ASM_RESULT_NAME: ClassVar[str] = "switch"

    connectivity = opt_prop_def(AnyAttr())
    result = var_result_def(PortType)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        parser.parse_punctuation("[")
        num_ports = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        props, attrs = parse_id_and_dict(parser, cls.INHERENT, allow_id=False)
        props.setdefault("connectivity", _all_true_square(num_ports))
        return cls.create(result_types=[PortType()] * num_ports, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" [{len(self.results)}]")
        values = connectivity_values(self.properties.get("connectivity"))
        elided = ["connectivity"] if values and all(values) else []
        print_id_and_dict(printer, self, elided, with_id=False)

    def verify_(self) -> None:
        super().verify_()
        conn = self.properties.get("connectivity")
        shape = _matrix_shape(conn) if conn is not None else None
        if shape is None:
            raise op_error(self, "attribute 'connectivity' failed to satisfy constraint: "
                                 "directed sparse or dense adjacency matrix")
        n = len(self.results)
        if shape != (n, n):
            raise op_error(self, f"expected connectivity shape {{{n}, {n}}}, but got {{{shape[0]}, {shape[1]}}}")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`yield %e, ...`: the exec units a group exports (implicit when there are none)."""

    name = "ktdf_arch.yield"

    values = var_operand_def(ExecUnitType)

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(GroupOp), Pure()))

    assembly_format = "$values attr-dict"

    def verify_(self) -> None:
        _verify_intrinsics(self)


@irdl_op_definition
class GroupOp(ResourceOp):
    """`%e.. = group [@id] [dict] share(%m, ...) { body } [-> exec_unit, ...]`.

    A level of the hierarchy (core, corelet, ...) whose contents are private. Shared
    memories are the operands; inside, block arguments re-bind them under the same
    names. Results are the exec units the body yields.
    """

    name = "ktdf_arch.group"
    ASM_RESULT_NAME: ClassVar[str] = "exec_unit"

    shared_memory = var_operand_def(MemoryType)
    shared_exec = var_result_def(ExecUnitType)
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (IsolatedFromAbove(),))

    @classmethod
    def get_default_dialect(cls) -> str:
        """Ops in a group body print without the `ktdf_arch.` prefix."""
        return DIALECT_NAME

    @property
    def block(self) -> Block:
        return self.body.block

    @property
    def yield_op(self) -> Operation | None:
        return self.body.block.last_op if self.body.blocks else None

    @classmethod
    def parse(cls, parser: Parser) -> GroupOp:
        props, attrs = parse_id_and_dict(parser, cls.INHERENT)
        parser.parse_keyword("share")
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        for name in names:
            if name.index != 0:
                parser.raise_error("expected SSA identifier", name.span)
        operands = [parser.resolve_operand(name, MemoryType()) for name in names]
        arguments = [Parser.Argument(name.span, MemoryType()) for name in names]
        region = parse_isolated_region(parser, arguments)
        if region is None:
            parser.raise_error("expected '{' to begin a region")
        add_implicit_terminator(region, YieldOp)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, lambda: parse_short_type(parser))
        return cls.create(operands=operands, result_types=result_types, regions=[region], properties=props,
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_id_and_dict(printer, self)
        shadow_region_args(printer, self.body, list(self.operands))
        printer.print_string(" share(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(") ")
        terminator = self.yield_op
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False,
                             print_block_terminators=bool(terminator is not None and terminator.operands))
        if self.results:
            printer.print_string(" -> ")
            printer.print_list(self.result_types, lambda t: print_short_type(printer, t))

    def verify_(self) -> None:
        super().verify_()
        block = self.body.block
        if len(block.args) != len(self.operands) or any(not isinstance(a.type, MemoryType) for a in block.args):
            raise op_error(self, "expects one memory block argument per shared memory")
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            raise op_error(self, "expects its body to end with 'ktdf_arch.yield'")
        if len(terminator.operands) != len(self.results):
            raise op_error(self, f"region branch point has {len(terminator.operands)} operands, "
                                 f"but region successor needs {len(self.results)} inputs",
                           [(terminator, "region branch point")])
        _verify_subgraph(self)


@with_attr_dict(ResourceAttrDict)
@irdl_op_definition
class DatapathOp(ResourceOp):
    """`datapath [@id] [dict] %src to %dst : T, T`: a directed point-to-point link."""

    name = "ktdf_arch.datapath"
    PARENT: ClassVar[str] = "a resource"

    source = operand_def(AnyAttr())
    target = operand_def(AnyAttr())

    @property
    def src(self) -> SSAValue:
        return self.source

    @property
    def dst(self) -> SSAValue:
        return self.target

    assembly_format = "attr-dict $source `to` $target `:` custom<ShortType>(type($source)) `,` custom<ShortType>(type($target))"
    custom_directives = (ShortType,)
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        super().verify_()
        for role, value in (("source", self.src), ("target", self.dst)):
            if not isinstance(value.type, ENDPOINT_TYPES):
                raise op_error(
                    self, f"operand '{role}' must be memory, exec_unit or port, but got {attribute_text(value.type)}"
                )
        if self.src is self.dst:
            raise op_error(self, "can't link resource to itself")


@irdl_op_definition
class PatternsOp(IRDLOperation):
    """`patterns ["group", ...] { pdl.pattern ... }`: device-specific rewrites (meta op)."""

    name = "ktdf_arch.patterns"

    groups = opt_prop_def(AnyAttr())
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (IsolatedFromAbove(), NoTerminator(), HasParent(DeviceOp)))

    @property
    def group_names(self) -> list[str]:
        groups = self.properties.get("groups")
        return [g.data for g in groups.data if isinstance(g, StringAttr)] if isinstance(groups, ArrayAttr) else []

    assembly_format = "custom<StringArray>($groups) attr-dict-with-keyword custom<IsolatedBody>($body)"
    custom_directives = (StringArray, IsolatedBody)

    def verify_(self) -> None:
        _verify_intrinsics(self)
        groups = self.properties.get("groups")
        if groups is not None and not (isinstance(groups, ArrayAttr)
                                       and all(isinstance(g, StringAttr) for g in groups.data)):
            raise op_error(self, "attribute 'groups' failed to satisfy constraint: string array attribute")
        for child in self.body.block.ops:
            if child.name != "pdl.pattern":
                raise op_error(self, "expects child ops to be 'pdl.pattern'", [(child, "unexpected child is here")])


@with_attr_dict(InherentAttrDict)
@irdl_op_definition
class DeviceOp(IRDLOperation):
    """`ktdf_arch.device @name [attributes {...}] ({ body } | import("path"))`.

    A device is either defined inline or declared with `import`, in which case the
    body is read from that file (see `dfsched.arch.loading`).
    """

    name = "ktdf_arch.device"

    sym_name = prop_def(SymbolNameConstraint())
    import_path = opt_prop_def(AnyAttr())
    version = opt_prop_def(AnyAttr())
    body = region_def()

    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove(), NoTerminator())

    @classmethod
    def get_default_dialect(cls) -> str:
        """Ops in a device body print without the `ktdf_arch.` prefix."""
        return DIALECT_NAME

    def __init__(self, sym_name: str, body: Sequence[Operation] = (), import_path: str | None = None,
                 attributes: dict[str, Attribute] | None = None):
        """A device of the ops `body`, or declared by its `import_path`."""
        props: dict[str, Attribute] = {"sym_name": StringAttr(sym_name)}
        if import_path is not None:
            props["import_path"] = StringAttr(import_path)
        region = Region(Block(list(body))) if import_path is None else Region()
        super().__init__(regions=[region], properties=props, attributes=attributes or {})

    @property
    def device_name(self) -> str:
        return self.properties["sym_name"].data  # type: ignore[union-attr]

    @property
    def is_import(self) -> bool:
        return not self.body.blocks

    @property
    def import_file(self) -> str | None:
        path = self.properties.get("import_path")
        return path.data if isinstance(path, StringAttr) else None

    @property
    def block(self) -> Block | None:
        return self.body.blocks.first

    assembly_format = "custom<SymbolName>($sym_name) attr-dict-with-keyword custom<GraphOrImport>($body, $import_path)"
    custom_directives = (SymbolName, GraphOrImport)
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        _verify_intrinsics(self)
        path = self.properties.get("import_path")
        if path is not None and not isinstance(path, StringAttr):
            raise op_error(self, "attribute 'import_path' failed to satisfy constraint: string attribute")
        if (message := integer_attr_violation(self, "version")) is not None:
            raise op_error(self, message)
        if len(self.body.blocks) > 1:
            raise op_error(self, "region #0 ('region') failed to verify constraint: region with at most 1 blocks")
        if not self.body.blocks:
            if path is None:
                raise op_error(self, "empty device requires 'import_path' attribute")
            return
        if path is not None:
            raise op_error(self, "non-empty device can't have 'import_path' attribute")
        _verify_subgraph(self)
        self._verify_unique_ids()

    def _verify_unique_ids(self) -> None:
        seen: dict[str, Operation] = {}
        for op in self.walk():
            ident = op.resource_id if isinstance(op, ResourceOp) else None
            if ident in seen:
                raise verify_error(op, f'resource with id "{ident}" redefined',
                                   [(seen[ident], "previous definition is here")])
            if ident is not None:
                seen[ident] = op


KTDF_ARCH = Dialect(DIALECT_NAME, [DeviceOp, MemoryOp, ExecUnitOp, SwitchOp, GroupOp, YieldOp, DatapathOp, PatternsOp],
                    [MemoryType, ExecUnitType, PortType, MapAttr, SparseElementsAttr])
