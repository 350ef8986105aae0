"""DeviceModel on the shipped devices: the facts passes read (`docs/devices.md#the-model-in-one-page`)."""

import pytest
from xdsl.dialects.builtin import StringAttr, bf16, f16, f32, i8

from dfsched.arch.intrinsics import Access
from dfsched.arch.loading import load_device
from dfsched.diagnostics import DiagnosticError


@pytest.fixture(scope="module")
def quad():
    return load_device("quad_corelet")


@pytest.fixture(scope="module")
def spyre():
    return load_device("spyre")


# -- memories -----------------------------------------------------------------


def test_sample_memories(sample):
    assert list(sample.memories) == ["DDR", "L1", "SFU_REG"]
    assert [(m.size, m.depth, m.level) for m in sample.memories.values()] == [
        (1073741824, 0, "global"),
        (1048576, 1, "scratchpad"),
        (2048, 2, "below"),
    ]
    assert sample.capacities() == {"DDR": 1073741824, "L1": 1048576, "SFU_REG": 2048}


def test_quad_memories(quad):
    assert {k: (m.size, m.level) for k, m in quad.memories.items()} == {
        "GMEM": (4294967296, "global"),
        "SPAD": (524288, "scratchpad"),
        "VREG": (1024, "below"),
    }


def test_spyre_public_facts(spyre):
    assert spyre.cores == 32
    assert spyre.memory("LX").size == 2 * 1024 * 1024
    assert spyre.memory("LX").level == "scratchpad"
    assert spyre.memory("DDR").level == "global"
    assert spyre.simd_lanes("PE", f16) == 64
    assert spyre.unit("DMAI").load.word_size(StringAttr("DDR")) == 128  # one 128-byte stick
    assert spyre.link_between("DDR", "DMAI").transfer_granularity == (128,)


def test_unknown_memory_names_the_device(sample):
    with pytest.raises(DiagnosticError) as info:
        sample.memory("HBM")
    diag = info.value.diagnostic
    assert "no memory of kind 'HBM'" in diag.message
    assert "sample_device" in diag.message and diag.file.endswith("sample_device.mlir")


# -- memory spaces (mem_space_mapping / Decision 6) ---------------------------


def test_memory_for_space_defaults(sample, quad):
    from dfsched.dialects.ktdp import MemorySpaceAttr

    assert sample.memory_for_space(MemorySpaceAttr("global")).kind == "DDR"
    assert sample.memory_for_space(MemorySpaceAttr("ct_local")).kind == "L1"
    assert sample.memory_for_space(MemorySpaceAttr("ct_local", 3)).kind == "L1"
    assert quad.memory_for_space("global").kind == "GMEM"
    assert quad.memory_for_space("ct_local").kind == "SPAD"
    assert quad.memory_for_space(StringAttr("SPAD")).kind == "SPAD"


def test_memory_for_unknown_space(sample):
    with pytest.raises(DiagnosticError, match="no memory for memory space 'scratch'"):
        sample.memory_for_space("scratch")


# -- execution units -----------------------------------------------------------


def test_sample_units(sample):
    assert list(sample.units) == ["MNILU", "MNISU", "SFU", "L1LU", "L1SU"]
    assert sample.compute_kind == "SFU"
    assert sample.compute_unit().kind == "SFU"
    mnilu = sample.unit("MNILU")
    assert mnilu.is_load_store and mnilu.load is not None and mnilu.store is None
    assert mnilu.double_buffer_last
    assert mnilu.load.word_size(StringAttr("DDR")) == 64
    assert mnilu.load.word_size(StringAttr("SFU_REG")) == 1  # absent ⇒ 1
    l1lu = sample.unit("L1LU")
    assert l1lu.splat and l1lu.simd.zero_pad
    assert l1lu.load.access_granularity(StringAttr("L1")) == (Access(64, 64), Access(2, 2))
    assert l1lu.load.fit_access(StringAttr("L1"), 2) == Access(2, 2)
    assert l1lu.load.fit_access(StringAttr("L1"), 3) == Access(64, 64)
    assert l1lu.load.fit_access(StringAttr("L1"), 3, max_align=32) is None
    assert l1lu.load.access_granularity(StringAttr("DDR")) is None
    assert not sample.unit("SFU").is_load_store


def test_address_list_units(sample, quad):
    assert [(u.kind, u.features.address_list_memory) for u in sample.address_list_units()] == [
        ("MNILU", "L1"), ("MNISU", "L1")]
    assert quad.address_list_units() == []


def test_lanes(sample, quad):
    assert sample.simd_lanes("SFU", f16) == 64
    assert sample.unit("SFU").lanes() == {"f16": 64, "i32": 32}  # i32: address arithmetic (idx32toaddr)
    assert quad.unit("VPU").lanes() == {"f16": 32, "f32": 16, "bf16": 32}
    assert quad.simd_lanes("VPU", f32) == 16
    assert quad.simd_lanes("VPU", bf16) == 32


def test_missing_lanes_is_an_error(sample):
    """Decision 7: no lanes for a type is an error naming the type and the unit."""
    with pytest.raises(DiagnosticError) as info:
        sample.simd_lanes("SFU", f32)
    assert "exec_unit 'SFU' declares no SIMD lanes for element type f32" in info.value.diagnostic.message
    with pytest.raises(DiagnosticError, match="no SIMD lanes for element type i8"):
        sample.simd_lanes("MNILU", i8)


def test_error_at_callers_op(sample):
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr
    from xdsl.dialects.test import TestOp

    op = TestOp()
    op.location = FileLineColLoc(StringAttr("kernel.mlir"), IntAttr(7), IntAttr(3))
    with pytest.raises(DiagnosticError) as info:
        sample.unit("VPU", at=op)
    diag = info.value.diagnostic
    assert (diag.file, diag.line, diag.col) == ("kernel.mlir", 7, 3)
    assert diag.notes and "sample_device" in diag.notes[0].message


# -- links and endpoints --------------------------------------------------------


def test_sample_links(sample):
    sfu = sample.unit("SFU")
    assert [(l.source, l.target) for l in sfu.incoming] == [("L1LU", "SFU")]
    assert [(l.source, l.target) for l in sfu.outgoing] == [("SFU", "L1SU")]
    inbound = sfu.incoming[0]
    assert inbound.transfer_granularity == (64, 2) and inbound.max_granularity == 64
    assert inbound.ordered and inbound.queue.depth == 16
    assert sample.link_between("DDR", "MNILU").transfer_granularity == (64,)
    assert sample.link_between("DDR", "MNILU").queue is None


def test_read_write_kinds(sample):
    assert (sample.read_kinds("MNILU"), sample.write_kinds("MNILU")) == ({"DDR"}, {"L1"})
    assert (sample.read_kinds("MNISU"), sample.write_kinds("MNISU")) == ({"L1"}, {"DDR"})
    assert (sample.read_kinds("L1LU"), sample.write_kinds("L1LU")) == ({"L1"}, set())
    assert (sample.read_kinds("L1SU"), sample.write_kinds("L1SU")) == (set(), {"L1"})
    assert (sample.read_kinds("SFU"), sample.write_kinds("SFU")) == (set(), set())


# -- hierarchy -------------------------------------------------------------------


def test_cores_and_corelets(sample, quad, spyre):
    assert (sample.cores, sample.corelets_per_core) == (1, 2)
    assert (quad.cores, quad.corelets_per_core) == (2, 4)
    assert (spyre.cores, spyre.corelets_per_core) == (32, 1)
    assert sample.instances(["L1LU", "SFU", "L1SU"]) == 2
    assert quad.instances(["VLD", "VPU", "VST"]) == 4
    assert sample.instances(["MNILU", "MNISU"]) == 1
    assert quad.instances(["DMARD"]) == 2  # the DMA units' scope is the core: two cores


def test_local_memory(sample, quad):
    assert sample.local_memory("MNILU") == "L1"
    assert sample.local_memory("SFU") == "SFU_REG"
    assert quad.local_memory("VPU") == "VREG"
    with pytest.raises(DiagnosticError, match="no unambiguous local memory found for exec_unit kind 'L1LU'"):
        sample.local_memory("L1LU")


def test_global_and_core_memory(sample, quad):
    assert sample.global_memory.kind == "DDR" and sample.core_memory.kind == "L1"
    assert quad.global_memory.kind == "GMEM" and quad.core_memory.kind == "SPAD"


# -- routes ------------------------------------------------------------------------


def test_sample_routes(sample):
    assert sample.route("DDR", "SFU") == ["DDR", "MNILU", "L1", "L1LU", "SFU"]
    assert sample.route("SFU", "DDR") == ["SFU", "L1SU", "L1", "MNISU", "DDR"]
    assert sample.route_through(["DDR", "SFU", "DDR"]) == [
        "DDR", "MNILU", "L1", "L1LU", "SFU", "L1SU", "L1", "MNISU", "DDR"
    ]


def test_quad_routes(quad):
    assert quad.route("GMEM", "VPU") == ["GMEM", "DMARD", "SPAD", "VLD", "VPU"]
    assert quad.route("VPU", "GMEM") == ["VPU", "VST", "SPAD", "DMAWR", "GMEM"]
    assert quad.route("SPAD", "SPAD") == ["SPAD"]


def test_route_failures(sample):
    with pytest.raises(DiagnosticError, match="no resource of kind 'VPU'"):
        sample.route("DDR", "VPU")
    with pytest.raises(DiagnosticError, match="no route from 'SFU_REG' to 'DDR'"):
        sample.route("SFU_REG", "DDR")


# -- matrix units ------------------------------------------------------------------


def test_matrix_units(sample, spyre):
    assert sample.matrix_unit is None  # contractions run on the vector lanes
    matrix = spyre.matrix_unit
    assert matrix.tile == (8, 8, 8) and matrix.cycles_per_tile == 1 and matrix.macs_per_cycle == 512
    assert matrix.accumulator_for(f16) == "f32" and matrix.accumulator_for(bf16) is None
    small = load_device("matrix_unit").matrix_unit
    assert small.tile == (4, 8, 4) and small.accumulator_for(f32) == "f32"
