"""Device files: short names, import declarations, and which device an op runs on (`docs/devices.md#the-model-in-one-page`)."""

import os
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from dfsched.arch import loading
from dfsched.compat import LocatingParser
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import make_context
from dfsched.dialects.ktdf_arch import DeviceOp, MapAttr

SMALL = """
ktdf_arch.device @small attributes {{version = 1}} {{
  %m = memory {{kind = "M", size = {size}}}
  %u = exec_unit {{kind = "U", ktdf_arch.features = {{ktdf_arch.feature.compute}}}}
  datapath %m to %u : memory, exec_unit
}}
"""


def parse(text: str, name: str) -> ModuleOp:
    return LocatingParser(make_context(allow_unregistered=True), text, name).parse_module()


def test_short_names():
    shipped = loading.shipped_devices()
    assert shipped["sample"] == shipped["sample_device"] == loading.DEVICES_DIR / "sample_device.mlir"
    assert {"sample", "quad_corelet", "spyre"} <= set(shipped)
    assert loading.device_file("spyre").name == "spyre.mlir"


def test_a_path_wins_over_a_short_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sample").write_text(SMALL.format(size=8))
    assert loading.load_device("sample").name == "small"


def test_unknown_device_file():
    with pytest.raises(DiagnosticError, match="unable to find device file 'nowhere.mlir'"):
        loading.device_file("nowhere.mlir")


def test_import_relative_to_declaring_file(tmp_path):
    (tmp_path / "devices").mkdir()
    (tmp_path / "devices" / "small.mlir").write_text(SMALL.format(size=64))
    kernel = tmp_path / "kernel.mlir"
    module = parse(
        'ktdf_arch.device @small attributes {mem_space_mapping = #ktdf_arch.map<"global" = "M">, version = 5} '
        'import("devices/small.mlir")\n',
        str(kernel),
    )
    decl = next(iter(module.ops))
    assert loading.import_path_for(decl) == tmp_path / "devices" / "small.mlir"
    model = loading.model_of(decl)
    assert model.memory("M").size == 64
    assert model.source == str(tmp_path / "devices" / "small.mlir")
    # The declaration's attributes are laid over the definition's.
    assert isinstance(model.device.attributes["mem_space_mapping"], MapAttr)
    assert model.device.properties["version"].value.data == 5
    assert model.memory_for_space("global").kind == "M"
    assert loading.model_of(decl) is model  # cached


def test_import_from_stdin_is_relative_to_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.mlir").write_text(SMALL.format(size=16))
    module = parse('ktdf_arch.device @small import("small.mlir")\n', "<stdin>")
    assert loading.model_of(next(iter(module.ops))).memory("M").size == 16


def test_import_errors_are_on_the_declaration(tmp_path):
    (tmp_path / "small.mlir").write_text(SMALL.format(size=8))
    (tmp_path / "self.mlir").write_text('ktdf_arch.device @self import("self.mlir")\n')
    (tmp_path / "broken.mlir").write_text("ktdf_arch.device @broken {\n  %m = memory {kind = }\n}\n")
    cases = {
        'ktdf_arch.device @gone import("gone.mlir")': "unable to import device graph: cannot open",
        'ktdf_arch.device @other import("small.mlir")': "unable to import device graph: no device named 'other'",
        'ktdf_arch.device @self import("self.mlir")': "recursive importing is prohibited",
    }
    for text, message in cases.items():
        decl = next(iter(parse(text + "\n", str(tmp_path / "k.mlir")).ops))
        with pytest.raises(DiagnosticError) as info:
            loading.resolve_device(decl)
        diag = info.value.diagnostic
        assert message in diag.message
        assert diag.message.startswith("'ktdf_arch.device' op ")
        assert (diag.file, diag.line) == (str(tmp_path / "k.mlir"), 1)

    decl = next(iter(parse('ktdf_arch.device @broken import("broken.mlir")\n', str(tmp_path / "k.mlir")).ops))
    with pytest.raises(DiagnosticError) as info:
        loading.resolve_device(decl)
    diag = info.value.diagnostic
    assert diag.file == str(tmp_path / "broken.mlir") and diag.line == 2
    assert diag.notes[-1].message == "while importing device 'broken'"


def test_infer_device_name(tmp_path):
    (tmp_path / "one.mlir").write_text(SMALL.format(size=8))
    (tmp_path / "two.mlir").write_text(SMALL.format(size=8) + SMALL.format(size=8).replace("@small", "@other"))
    (tmp_path / "none.mlir").write_text("func.func private @f()\n")
    assert loading.infer_device_name(tmp_path / "one.mlir") == "small"
    with pytest.raises(DiagnosticError, match="multiple devices in import file"):
        loading.infer_device_name(tmp_path / "two.mlir")
    with pytest.raises(DiagnosticError, match="no device in import file"):
        loading.infer_device_name(tmp_path / "none.mlir")
    assert loading.load_device(str(tmp_path / "two.mlir"), name="other").name == "other"


def test_declaration_for_file():
    decl = loading.declaration_for_file("sample")
    assert decl.device_name == "sample_device"
    assert decl.import_file == "dfsched:sample_device.mlir"
    assert "mem_space_mapping" not in decl.attributes


def test_device_reference_names_no_path_of_the_machine(tmp_path, monkeypatch):
    """A shipped device by name, any other by digest: the same text in every checkout."""
    from dfsched.arch import device_refs

    assert device_refs.reference_for(loading.device_file("sample")) == "dfsched:sample_device.mlir"
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "small.mlir").write_text(SMALL.format(size=8))
    ref_a = device_refs.reference_for(tmp_path / "a" / "small.mlir")
    ref_b = device_refs.reference_for(tmp_path / "b" / "small.mlir")
    assert ref_a == ref_b and ref_a.startswith("sha256:") and ref_a.endswith("/small.mlir")
    assert str(tmp_path) not in ref_a
    # found again beside the declaring file, in a fresh process (nothing remembered)
    monkeypatch.setattr(device_refs, "_KNOWN", {})
    assert device_refs.file_for_reference(ref_a, [tmp_path / "b"]) == tmp_path / "b" / "small.mlir"
    # a file of that name with other bytes is never taken
    monkeypatch.setattr(device_refs, "_KNOWN", {})
    (tmp_path / "b" / "small.mlir").write_text(SMALL.format(size=16))
    assert device_refs.file_for_reference(ref_a, [tmp_path / "b"]) is None
    assert device_refs.file_for_reference("sha256:00/../x.mlir", [tmp_path]) is None


KERNEL = """
module {
  ktdf_arch.device @sample_device import("%s")
  module @inner {
    func.func @k() {
      "test.op"() : () -> ()
      func.return
    }
  }
}
"""


def test_device_of_an_op_from_its_modules():
    module = parse(KERNEL % (loading.DEVICES_DIR / "sample_device.mlir"), "kernel.mlir")
    op = next(o for o in module.walk() if o.name == "builtin.unregistered" or o.name == "test.op")
    decl = loading.find_device_declaration_for(op)
    assert isinstance(decl, DeviceOp) and decl.device_name == "sample_device"
    assert loading.device_model_for(op).compute_kind == "SFU"


def test_two_devices_on_the_way_mean_none():
    text = KERNEL % (loading.DEVICES_DIR / "sample_device.mlir")
    text = text.replace("module @inner {", 'module @inner {\n    ktdf_arch.device @other import("x.mlir")')
    module = parse(text, "kernel.mlir")
    func = next(o for o in module.walk() if o.name == "func.func")
    assert loading.find_device_declaration_for(func) is None


def test_maps_to_names_the_device():
    text = f"""
    ktdf_arch.device @a import("{loading.DEVICES_DIR / 'sample_device.mlir'}")
    ktdf_arch.device @b import("{loading.DEVICES_DIR / 'quad_corelet.mlir'}")
    func.func @k() attributes {{ktdf_arch.maps_to = @b}} {{
      func.return
    }}
    """
    module = parse(text, "kernel.mlir")
    func = next(o for o in module.walk() if o.name == "func.func")
    assert loading.find_device_declaration_for(func).device_name == "b"


def test_device_option_when_the_module_has_none():
    module = parse("func.func private @k()\n", "kernel.mlir")
    func = next(iter(module.ops))
    assert loading.device_model_for(func) is None
    model = loading.device_model_for(func, device="quad_corelet")
    assert model.name == "quad_corelet"
    assert model.memory_for_space("ct_local").kind == "SPAD"  # Decision 6


def test_no_traceback_for_unreadable_file(tmp_path):
    folder = tmp_path / "dir.mlir"
    folder.mkdir()
    with pytest.raises(DiagnosticError, match="unable to open device file"):
        loading.parse_device_file(folder)
    assert os.path.isdir(folder)
