"""ktdf_arch built from Python, the intrinsic hook for foreign ops, and feature matching."""

import pytest
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr, UnitAttr, f16, f32
from xdsl.dialects.func import FuncOp
from xdsl.utils.exceptions import VerifyException

from dfsched.arch import intrinsics
from dfsched.arch.model import DeviceModel
from dfsched.compat import LocatingParser, verify_module
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import make_context
from dfsched.dialects.ktdf_arch import (DatapathOp, DeviceOp, ExecUnitOp, GroupOp, MapAttr, MemoryOp, YieldOp,
                                        verify_operation_attribute)
from dfsched.printing import print_module


def build_device() -> ModuleOp:
    """A device written with the builders: one memory shared into a group exporting a unit."""
    ddr = MemoryOp("DDR", size=1 << 20)
    group = GroupOp([ddr.result], num_results=1, kind="core")
    (shared,) = group.block.args
    lanes = MapAttr([(f16, IntegerAttr(16, 64))])
    unit = ExecUnitOp(
        "VEC",
        attributes={
            intrinsics.FEATURES: DictionaryAttr(
                {intrinsics.COMPUTE: UnitAttr(), intrinsics.SIMD: DictionaryAttr({"lanes": lanes})}
            )
        },
    )
    group.block.insert_op_before(unit, group.block.last_op)
    group.block.insert_op_before(DatapathOp(shared, unit.result), group.block.last_op)
    group.block.erase_op(group.block.last_op)
    group.block.add_op(YieldOp(unit.result))
    back = DatapathOp(group.results[0], ddr.result)
    return ModuleOp([DeviceOp("built", [ddr, group, back])])


def test_builders_verify_print_and_reparse():
    module = build_device()
    verify_module(module)
    from io import StringIO

    out = StringIO()
    print_module(module, out)
    text = out.getvalue()
    assert "ktdf_arch.device @built {" in text and "share(" in text
    again = LocatingParser(make_context(), text, "printed.mlir").parse_module()
    verify_module(again)
    model = DeviceModel.from_module(again)
    assert model.route("DDR", "VEC") == ["DDR", "VEC"]
    assert model.route("VEC", "DDR") == ["VEC", "DDR"]
    assert model.simd_lanes("VEC", f16) == 16


def test_import_declaration_builder():
    decl = DeviceOp("far", import_path="/devices/far.mlir")
    assert decl.is_import and decl.import_file == "/devices/far.mlir"
    decl.verify()
    with pytest.raises(DiagnosticError, match="only declared here"):
        DeviceModel.from_device(decl)


def test_intrinsic_hook_on_foreign_ops():
    """What a generic verifier calls for `ktdf_arch.*` attributes on ops of other dialects."""
    func = FuncOp("f", ((), ()))
    verify_operation_attribute(func, intrinsics.MAPS_TO, StringAttr("SFU"))  # fine on a func
    verify_operation_attribute(func, intrinsics.FEATURES, DictionaryAttr({intrinsics.SIMD: UnitAttr()}))
    with pytest.raises(VerifyException, match="'ktdf_arch.features' intrisic requires dictionary attribute"):
        verify_operation_attribute(func, intrinsics.FEATURES, StringAttr("a"))
    with pytest.raises(VerifyException, match="unrecognized 'ktdf_arch' intrisic: ktdf_arch.nope"):
        verify_operation_attribute(func, "ktdf_arch.nope", UnitAttr())
    with pytest.raises(VerifyException, match="only valid on links"):
        verify_operation_attribute(func, intrinsics.BANDWIDTH, IntegerAttr(4, 64))


def test_map_attr():
    m = MapAttr([(StringAttr("L1"), IntegerAttr(64, 64)), (f32, StringAttr("x"))])
    assert m.get(StringAttr("L1")) == IntegerAttr(64, 64)
    assert m.get(f32) == StringAttr("x") and m.get(f16) is None
    assert len(m) == 2
    with pytest.raises(VerifyException, match="multiple entries for key"):
        MapAttr([(f16, UnitAttr()), (f16, UnitAttr())])


def test_feature_requirements():
    ordered = DictionaryAttr({"ordered": UnitAttr(), "depth": IntegerAttr(16, 64)})
    assert intrinsics.feature_satisfies(intrinsics.QUEUE, ordered, UnitAttr())
    assert intrinsics.feature_satisfies(intrinsics.QUEUE, ordered, DictionaryAttr({"depth": IntegerAttr(8, 64)}))
    assert not intrinsics.feature_satisfies(intrinsics.QUEUE, ordered, DictionaryAttr({"depth": IntegerAttr(32, 64)}))
    simd = DictionaryAttr({"splat": UnitAttr(), "lanes": MapAttr([(f16, IntegerAttr(64, 64))])})
    assert intrinsics.feature_satisfies(intrinsics.SIMD, simd, DictionaryAttr({"splat": UnitAttr()}))
    assert not intrinsics.feature_satisfies(intrinsics.SIMD, simd, DictionaryAttr({"zero_pad": UnitAttr()}))
    assert not intrinsics.feature_satisfies(
        intrinsics.SIMD, simd, DictionaryAttr({"lanes": MapAttr([(f32, IntegerAttr(1, 64))])})
    )
    access = MapAttr([(StringAttr("L1"), ArrayAttr([DictionaryAttr({"size_in_words": IntegerAttr(64, 64)})]))])
    load = DictionaryAttr({"access_granularity": access})
    want = MapAttr([(StringAttr("L1"), ArrayAttr([DictionaryAttr({"size_in_words": IntegerAttr(32, 64)})]))])
    assert intrinsics.feature_satisfies(intrinsics.LOAD, load, DictionaryAttr({"access_granularity": want}))
    assert not intrinsics.feature_satisfies(intrinsics.LOAD, None, UnitAttr())
