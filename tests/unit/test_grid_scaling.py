"""The shortcuts that make `-ktir-to-dfir` linear in the grid size (issue 19, item 12) give what
the general code gives: bulk use replacement, the direct printing and shape verification of the
ops a grid repeats per core, and worklist liveness. (Times: `benchmarks/compile_time.py --grid`.)"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import re

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr, i32, i64

from dfsched import compat, printing
from dfsched.dialects.constants import index_constant
from dfsched.dialects.dataflow import GetUnitOp
from dfsched.dialects.uniform import DefImmutableMappingOp
from dfsched.tools.opt import DfschedOptMain

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _add_kernel(tiles: int) -> str:
    spec = importlib.util.spec_from_file_location("compile_time", os.path.join(ROOT, "benchmarks", "compile_time.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.add_kernel(1, tiles)


def _compiled(text: str, device: str = "sample"):
    tool = DfschedOptMain(["-ktir-to-dfir", f"--device={device}", "-"])
    module = tool.parse("k.mlir", text)
    for request, instance in tool.front_door_passes() + tool.build_passes():
        tool.apply_pass(module, request, instance)
    return module


def test_bulk_replacement_matches_one_by_one():
    def build():
        keys = [index_constant(i) for i in range(6)]
        dups = [index_constant(i % 3) for i in range(6)]
        mapping = DefImmutableMappingOp([k.result for k in keys], [d.result for d in dups])
        return keys, dups, mapping

    keys_a, dups_a, map_a = build()
    for old, new in zip(dups_a[3:], dups_a[:3]):
        old.result.replace_all_uses_with(new.result)
    keys_b, dups_b, map_b = build()
    compat.replace_all_uses_in_bulk([(old.result, new.result) for old, new in zip(dups_b[3:], dups_b[:3])])

    index_a = {id(v): i for i, v in enumerate([*(k.result for k in keys_a), *(d.result for d in dups_a)])}
    index_b = {id(v): i for i, v in enumerate([*(k.result for k in keys_b), *(d.result for d in dups_b)])}
    assert [index_a[id(v)] for v in map_a.operands] == [index_b[id(v)] for v in map_b.operands]
    for a, b in zip(dups_a, dups_b):  # the same uses, in the same order
        assert [u.index for u in a.result.uses] == [u.index for u in b.result.uses]
    assert all(not d.result.uses for d in dups_b[3:])


def test_direct_printing_matches_the_general_printer(monkeypatch):
    module = _compiled(_add_kernel(3), "quad_corelet")
    fast = printing.module_to_string(module)
    monkeypatch.setattr(printing, "_plain_op_text", lambda op: None)
    assert printing.module_to_string(module) == fast
    assert 'dataflow.get_unit {core = 2 : i32, corelet = 3 : i32, name = "C2-' in fast


@pytest.mark.parametrize("op", [
    GetUnitOp.create(result_types=[IndexType()], properties={"name": StringAttr('a"b'), "type": StringAttr("t")}),
    GetUnitOp.create(result_types=[IndexType()], properties={"name": StringAttr("a"), "type": StringAttr("t")},
                     attributes={"core": IntegerAttr(1, i64)}),
    GetUnitOp.create(result_types=[IndexType()], properties={"name": StringAttr("a"), "type": StringAttr("t")},
                     attributes={"tag": StringAttr("x")}),
    arith.ConstantOp(IntegerAttr(5, i32)),
])
def test_unusual_forms_take_the_general_printer(op):
    assert printing._plain_op_text(op) is None


def test_shape_verification_leaves_bad_ops_to_the_verifier():
    good = GetUnitOp.create(result_types=[IndexType()], properties={"name": StringAttr("a"), "type": StringAttr("t")})
    bad = GetUnitOp.create(result_types=[i32], properties={"name": StringAttr("a"), "type": StringAttr("t")})
    anchor = index_constant(0)
    from xdsl.ir import Block

    Block([good, bad, anchor])
    assert compat._valid_by_shape(good)
    assert not compat._valid_by_shape(bad)
    assert not compat._valid_by_shape(anchor)  # last in its block: the terminator check applies


def test_grid_output_is_linear_and_complete():
    """Every core gets its units and every mapping one entry per core, at a grid size where the
    quadratic paths used to show."""
    text = printing.module_to_string(_compiled(_add_kernel(300)))
    assert text.count("dataflow.get_unit") == 9 * 300 + 1
    assert 'name = "C299-sfu-CL1"' in text


def test_mapping_fast_build_matches_the_generic_builder():
    """A mapping built from SSA values skips the generic builder's per-operand handling; it is
    the op that builder makes (operands, segment sizes, result)."""
    keys = [GetUnitOp.create(result_types=[IndexType()], properties={"name": StringAttr(f"C{i}"), "type": StringAttr("t")})
            for i in range(3)]
    values = [index_constant(i) for i in range(3)]
    fast = DefImmutableMappingOp([k.results[0] for k in keys], [v.result for v in values])
    generic = DefImmutableMappingOp.build(operands=[[k.results[0] for k in keys], [v.result for v in values]],
                                          result_types=[IndexType()])
    assert list(fast.operands) == list(generic.operands)
    assert fast.properties == generic.properties
    assert [r.type for r in fast.results] == [r.type for r in generic.results]
    assert list(fast.keys) == [k.results[0] for k in keys] and list(fast.values) == [v.result for v in values]
    fast.verify()
    from_ops = DefImmutableMappingOp(keys, values)  # operations, not values: the generic builder
    assert list(from_ops.operands) == list(fast.operands)


def test_skipping_inert_ops_changes_nothing(monkeypatch):
    """The greedy driver leaves a used `dataflow.get_unit` or constant out of its worklist when
    no pattern applies to it; visiting them (as before) gives the same output."""
    from dfsched.passes.cleanup import greedy

    text = _add_kernel(3)
    fast = printing.module_to_string(_compiled(text, "quad_corelet"))
    monkeypatch.setattr(greedy, "INERT_OPS", frozenset())
    monkeypatch.setattr(greedy.GreedyDriver, "_inert", lambda self, op: False)
    assert printing.module_to_string(_compiled(text, "quad_corelet")) == fast


def test_constant_keys_tell_what_attributes_tell():
    from xdsl.dialects.builtin import FloatAttr, f32

    from dfsched.passes.cleanup.greedy import _constant_key

    index = IndexType()
    same = [_constant_key("arith", IntegerAttr(5, index), index), _constant_key("arith", IntegerAttr(5, index), index)]
    assert same[0] == same[1]
    assert _constant_key("arith", IntegerAttr(5, i32), i32) != _constant_key("arith", IntegerAttr(5, i64), i64)
    assert _constant_key("arith", IntegerAttr(5, index), index) != _constant_key("arith", IntegerAttr(6, index), index)
    assert _constant_key("arith", FloatAttr(1.0, f32), f32) == _constant_key("arith", FloatAttr(1.0, f32), f32)


def test_collapse_does_not_announce_per_core_constants(monkeypatch):
    """Folding arithmetic into a grid-wide mapping builds a constant per core; the greedy driver
    hears of the mapping and its query, not of each constant (work per tile: issue 19). The
    fold still happens: the output is the pipeline's usual one (other tests pin it)."""
    from dfsched.passes.cleanup import greedy
    from dfsched.passes.lowering import dfir_collapse

    announced: list[str] = []
    folds: list[int] = []
    notify = greedy.GreedyDriver.notify_inserted
    monkeypatch.setattr(greedy.GreedyDriver, "notify_inserted",
                        lambda self, op: (announced.append(op.name), notify(self, op))[1])
    fold = dfir_collapse._folded_query
    monkeypatch.setattr(dfir_collapse, "_folded_query",
                        lambda rewriter, op, keys, values, key: (folds.append(len(values)),
                                                                 fold(rewriter, op, keys, values, key))[1])
    text = printing.module_to_string(_compiled(_add_kernel(300)))
    assert folds and all(n == 300 for n in folds)
    assert announced.count("arith.constant") < 300
    assert 'name = "C299-sfu-CL1"' in text


def test_alias_collection_does_not_build_mapping_pairs(monkeypatch):
    """The printer's first, output-free pass collects attribute aliases; a grid-wide mapping's
    `[%key -> %value]` pairs hold none, so only the real pass builds their text (work per tile:
    issue 19). The pairs are still printed, once per entry."""
    built: list[str] = []
    pairs = printing.MLIRPrinter.pairs_text
    monkeypatch.setattr(printing.MLIRPrinter, "pairs_text",
                        lambda self, first, second, sep: (built.append(type(self).__name__),
                                                          pairs(self, first, second, sep))[1])
    text = printing.module_to_string(_compiled(_add_kernel(300)))
    assert built and "_AliasCollector" not in built
    assert text.count("[%") >= 300


def test_constants_once_per_value_give_the_per_entry_output(monkeypatch):
    """The per-core constants of a folded mapping (query-map collapse) and of a parallel loop's
    per-corelet bounds and offsets are built once per distinct value; a constant per entry, as
    before, gives byte-identical output once the driver has uniqued them (here at a grid of 5
    on `quad_corelet`: four corelets, folded tile offsets)."""
    from dfsched.passes import builder
    from dfsched.passes.lowering import dfir_collapse

    built: list[int] = []
    once = builder.constants_once
    monkeypatch.setattr(builder, "constants_once", lambda values: (built.append(len(values)), once(values))[1])
    monkeypatch.setattr(dfir_collapse, "constants_once", builder.constants_once)
    text = _add_kernel(5)
    fast = printing.module_to_string(_compiled(text, "quad_corelet"))
    assert built and max(built) == 20  # a mapping over the 5 cores x 4 corelets was built this way

    def per_entry(values):
        ops = [index_constant(v) for v in values]
        return ops, [op.result for op in ops]

    monkeypatch.setattr(builder, "constants_once", per_entry)
    monkeypatch.setattr(dfir_collapse, "constants_once", per_entry)
    assert printing.module_to_string(_compiled(text, "quad_corelet")) == fast
    assert 'core = 4 : i32, corelet = 3 : i32' in fast


def _verdict(module) -> str:
    from dfsched.diagnostics import DiagnosticError

    try:
        compat.verify_module(module)
    except DiagnosticError as exc:
        return exc.diagnostic.message
    return "ok"


@pytest.mark.parametrize("body, expected", [
    ("""func.func @f(%n: index) -> index {
          %c0 = arith.constant 0 : index
          %r = scf.for %i = %c0 to %n step %n iter_args(%a = %c0) -> (index) {
            %s = arith.addi %a, %n : index
            scf.yield %s : index
          }
          return %r : index
        }""", "ok"),
    ("""func.func @f() -> index {
          %s = arith.addi %c1, %c1 : index
          %c1 = arith.constant 1 : index
          return %s : index
        }""", "operand #0 does not dominate this use"),
    ("""func.func @f(%b: i1) -> index {
          %c1 = arith.constant 1 : index
          cf.cond_br %b, ^x, ^y
        ^x:
          return %c1 : index
        ^y:
          return %c1 : index
        }""", "ok"),  # a use in another block: the full checks decide
])
def test_one_walk_scope_check_gives_the_full_checks_verdicts(body, expected, monkeypatch):
    """`verify_module` checks dominance and isolation in one walk when every operand is in
    scope; where it is not, the full checks run and name the problem as before."""
    module = DfschedOptMain(["-"]).parse("t.mlir", body)
    compat.fast_isolated_from_above()
    fast = _verdict(module)
    monkeypatch.setattr(compat, "_operands_in_scope", lambda root: False)  # the full checks alone
    assert fast.startswith(expected) and _verdict(module) == fast


def test_one_walk_scope_check_refuses_a_value_from_outside_an_isolated_op():
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp, ReturnOp

    compat.fast_isolated_from_above()
    outer = index_constant(0)
    func = FuncOp("f", ((), (IndexType(),)))
    func.body.block.add_op(ReturnOp(outer.result))
    module = ModuleOp([outer, func])
    assert not compat._operands_in_scope(module)  # in dominance's scope, outside the function's
    assert "IsolatedFromAbove parent" in _verdict(module)


def test_mapping_verifier_checks_every_entry_by_class():
    """The mapping's entry checks group values by defining class; a mixed table is still refused."""
    from xdsl.ir import Block
    from xdsl.utils.exceptions import VerifyException

    units = [GetUnitOp.create(result_types=[IndexType()], properties={"name": StringAttr(f"C{i}"), "type": StringAttr("t")})
             for i in range(3)]
    consts = [index_constant(i) for i in range(2)]
    Block([*units, *consts])
    DefImmutableMappingOp([u.results[0] for u in units[:2]], [c.result for c in consts]).verify()
    with pytest.raises(VerifyException, match="same type"):
        DefImmutableMappingOp([u.results[0] for u in units], [consts[0].result, consts[1].result, units[2].results[0]]).verify()
    with pytest.raises(VerifyException, match="Keys are not of same type"):
        DefImmutableMappingOp([units[0].results[0], consts[0].result], [consts[0].result, consts[1].result]).verify()


def test_uniform_grid_replication_matches_a_whole_grid_lowering():
    """A kernel that never reads its tile id, lowered on 3 cores and replicated (Decision 121),
    prints what lowering all 40 cores prints, down to the order of the hoisted constants (the
    index constant 32 numbers a core). About 2 s idle: the one end-to-end check of the two paths."""
    from dfsched import pipeline

    with open(os.path.join(ROOT, "examples", "row_bias_tiled.mlir")) as f:
        text = f.read().replace("grid = [1]", "grid = [40]")
    printed = []
    for cores in (0, 3):
        passes = ",".join(pipeline.KTIR_TO_DFIR).replace("uniform-grid-cores=3", f"uniform-grid-cores={cores}")
        tool = DfschedOptMain(["-p", passes, "--device=sample", "-"])
        module = tool.parse("k.mlir", text)
        for request, instance in tool.front_door_passes() + tool.build_passes():
            tool.apply_pass(module, request, instance)
        printed.append(tool._print(module, tool._folded_grids(module)))  # noqa: SLF001 (the tool's printing)
    assert printed[0].count('type = "mnilu"') == 40
    assert "%c32 = arith.constant 32 : index" in printed[0]
    assert printed[1] == printed[0]


@pytest.mark.parametrize("kernel, device", [("row_bias_tiled", "sample"), ("gated_mlp", "quad_corelet"),
                                            ("kv_cache_scatter", "spyre"), ("scale_by_first_row", "sample")])
def test_printer_writes_the_grid_the_replication_builds(kernel, device):
    """`dfsched-opt` leaves a uniform grid folded when it only prints (`wrap-program-dfir{expand-grids=false}`)
    and its printer writes the other cores' units, mapping entries and program-unit operands: the
    bytes of replicating them in the IR (Decision 121) at 40 tiles, corelets and shared memories
    included."""
    with open(os.path.join(ROOT, "examples", f"{kernel}.mlir")) as f:
        text = re.sub(r"grid = \[[^]]*\]", "grid = [40]", f.read())
    printed = []
    for fold in (True, False):
        tool = DfschedOptMain(["-ktir-to-dfir", f"--device={device}", "-"])
        module = tool.parse("k.mlir", text)
        built = tool.build_passes()
        assert built[-1][1].expand_grids is False
        if not fold:
            built[-1] = (built[-1][0], dataclasses.replace(built[-1][1], expand_grids=True))
        for request, instance in tool.front_door_passes() + built:
            tool.apply_pass(module, request, instance)
        grids = tool._folded_grids(module) if fold else []  # noqa: SLF001 (the tool's own step)
        assert bool(grids) == fold
        printed.append(tool._print(module, grids))  # noqa: SLF001
    assert printed[0] == printed[1]
    assert printed[0].count("dataflow.get_unit {core = 39 : i32") >= 3


def test_printer_writes_units_of_the_usual_form_only():
    """A unit the printer cannot write for another core by substitution is replicated in the IR."""
    from dfsched.printing import writes_units_directly

    usual = GetUnitOp("C0-l1lu", "l1lu")
    usual.attributes["core"] = IntegerAttr(0, i32)
    assert writes_units_directly(usual)
    odd = GetUnitOp("C0-l1lu", "l1lu")
    odd.attributes["core"] = IntegerAttr(0, i64)
    assert not writes_units_directly(odd)


def test_working_prefix_drops_only_units_no_program_runs_on():
    """A row kernel raised to 16 tiles for its 4 rows, lowered on its working prefix (Decision
    122), launches every program on the units a whole-grid lowering launches it on, in the same
    order, keeps the real grid, and declares no unit of a core past the prefix."""
    from dfsched import pipeline
    from dfsched.dialects.dataflow import ProgramUnitOp

    with open(os.path.join(ROOT, "examples", "scale_rows_triton.mlir")) as f:
        text = f.read().replace("grid = [2, 1]", "grid = [16]")
    launched, declared, grids = [], [], []
    for prefix in ("false", "true"):
        passes = ",".join(pipeline.KTIR_TO_DFIR).replace("uniform-grid-cores=3", f"uniform-grid-cores=3 working-prefix={prefix}")
        tool = DfschedOptMain(["-p", passes, "--device=sample", "--unit=byte", "-"])  # --unit: the front door
        module = tool.parse("k.mlir", text)
        for request, instance in tool.front_door_passes() + tool.build_passes():
            tool.apply_pass(module, request, instance)
        launched.append([[str(u.owner.attributes.get("name", u.owner.name)) for u in op.units]
                         for op in module.walk() if isinstance(op, ProgramUnitOp)])
        declared.append({op.attributes["core"].value.data for op in module.walk()
                         if isinstance(op, GetUnitOp) and "core" in op.attributes})
        grids.append([str(op.attributes["grid"]) for op in module.walk() if "grid" in op.attributes])
    assert launched[1] == launched[0] and launched[0]
    assert declared[0] == set(range(16)) and declared[1] == set(range(4))
    assert grids[1] == grids[0] and set(grids[0]) == {"[16 : i64]"}


def test_compare_outputs_copies_each_kernel_at_each_grid(tmp_path):
    """`benchmarks/compare_outputs.py` (the byte comparison of backend changes) compiles each
    kernel as it is and at each grid asked for, a 2-D grid made 1-D; a kernel without a grid only
    as it is."""
    spec = importlib.util.spec_from_file_location("compare_outputs",
                                                  os.path.join(ROOT, "benchmarks", "compare_outputs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernels = tmp_path / "in"
    kernels.mkdir()
    (kernels / "k.mlir").write_text('func.func @k() attributes {grid = [2, 1]} {\n  return\n}\n')
    (kernels / "n.mlir").write_text("module {}\n")
    out = tmp_path / "out"
    out.mkdir()
    copies = module.kernel_copies([str(kernels / "k.mlir"), str(kernels / "n.mlir")], [7, 40], str(out))
    assert [os.path.basename(c) for c in copies] == ["k.mlir", "k.grid7.mlir", "k.grid40.mlir", "n.mlir"]
    assert "grid = [2, 1]" in (out / "k.mlir").read_text()
    assert "grid = [40]" in (out / "k.grid40.mlir").read_text()
