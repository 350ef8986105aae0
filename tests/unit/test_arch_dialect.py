"""ktdf_arch built from Python, the intrinsic hook for foreign ops, and feature matching."""

import pytest
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr, UnitAttr, f16, f32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from dfsched.arch import intrinsics
from dfsched.arch.model import DeviceModel
from dfsched.compat import LocatingParser, verify_module
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import make_context
from dfsched.dialects.ktdf_arch import (DatapathOp, DeviceOp, ExecUnitOp, ExecUnitType, GroupOp, MapAttr, MemoryOp,
                                        MemoryType, YieldOp, verify_operation_attribute)
from dfsched.printing import print_module


def build_device() -> ModuleOp:
    """A device built from Python (IRDL's generic builders): one memory shared into a group exporting a unit."""
    ddr = MemoryOp.build(result_types=[MemoryType()], properties={"kind": StringAttr("DDR"),
                                                                  "size": IntegerAttr(1 << 20, 64)})
    group = GroupOp.build(operands=[[ddr.result]], result_types=[[ExecUnitType()]],
                          properties={"kind": StringAttr("core")}, regions=[Region(Block(arg_types=[MemoryType()]))])
    (shared,) = group.block.args
    lanes = MapAttr([(f16, IntegerAttr(16, 64))])
    features = DictionaryAttr({intrinsics.COMPUTE: UnitAttr(), intrinsics.SIMD: DictionaryAttr({"lanes": lanes})})
    unit = ExecUnitOp.build(result_types=[ExecUnitType()], properties={"kind": StringAttr("VEC")},
                            attributes={intrinsics.FEATURES: features})
    group.block.add_ops([unit, DatapathOp.build(operands=[shared, unit.result]),
                         YieldOp.build(operands=[[unit.result]])])
    back = DatapathOp.build(operands=[group.results[0], ddr.result])
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
