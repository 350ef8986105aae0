// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// Source A: a KTIR view of DDR at byte 512 (4 rows of 64 f16), cast into the DDR space and
// reinterpreted at a tile offset. The chain becomes one view of the whole tensor of the DDR
// unit. Decision 8: view start addresses are bytes, the reinterpret offsets count elements:
// the constant offset of 64 elements is 128 bytes (512 + 128 = 640); the per-core offset
// (tile id x 64 elements) is scaled the same way and, being a per-unit constant, folds with
// the base into one lookup: 512 on core 0, 640 on core 1.

// CHECK-LABEL: func.func @source_a(
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG:     %[[C640:.*]] = arith.constant 640 : index
// CHECK:         %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU"
// CHECK:         %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU"
// CHECK:         %[[DDR:.*]] = dataflow.get_unit {name = "ddr", type = "ddr"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[U0]], %[[U1]]) : {
// CHECK-NEXT:      %[[FIXED:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[C640]] {layout_map = #[[ROWS:.*]]} : index, index, memref<4x64xf16>
// CHECK:           %[[M:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C512]]], [%[[U1]] -> %[[C640]]]):index
// CHECK-NEXT:      %[[Q:.*]] = uniform.query_map(map:%[[M]], key:%[[IT]]) : index
// CHECK-NEXT:      %[[PER_CORE:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[Q]] {layout_map = #[[ROWS]]} : index, index, memref<4x64xf16>
// CHECK-NEXT:      "test.use"(%[[FIXED]], %[[PER_CORE]]) : (memref<4x64xf16>, memref<4x64xf16>) -> ()
// CHECK:         }
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @source_a() attributes {grid = [2]} {
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %tile = ktdp.get_compute_tile_id : index
  %off = arith.muli %tile, %c64 : index
  %v = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %d = memref.memory_space_cast %v : memref<4x64xf16> to memref<4x64xf16, "DDR">
  %fixed = memref.reinterpret_cast %d to offset: [64], sizes: [4, 64], strides: [64, 1] : memref<4x64xf16, "DDR"> to memref<4x64xf16, strided<[64, 1], offset: 64>, "DDR">
  %d2 = memref.memory_space_cast %v : memref<4x64xf16> to memref<4x64xf16, "DDR">
  %per_core = memref.reinterpret_cast %d2 to offset: [%off], sizes: [4, 64], strides: [64, 1] : memref<4x64xf16, "DDR"> to memref<4x64xf16, strided<[64, 1], offset: ?>, "DDR">
  ktdf_lowering.execute_on %q {
    "test.use"(%fixed, %per_core) : (memref<4x64xf16, strided<[64, 1], offset: 64>, "DDR">, memref<4x64xf16, strided<[64, 1], offset: ?>, "DDR">) -> ()
  }
  return
}

// -----

// Source B: address-assigned buffers (byte addresses). An L1 buffer is per core: a unit per
// core and a lookup from the program's unit to its core's L1. A register buffer (below the
// scratchpad) has one unit and any consumer. A buffer only ever deallocated disappears.
// Views are laid out row-major.

// CHECK-LABEL: func.func @source_b(
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-SFU"
// CHECK:         %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-SFU"
// CHECK:         %[[L0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
// CHECK:         %[[L1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
// CHECK:         %[[REG:.*]] = dataflow.get_unit {name = "sfu_reg", type = "sfu_reg"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[U0]], %[[U1]]) : {
// CHECK:           %[[M:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[L0]]], [%[[U1]] -> %[[L1]]]):index
// CHECK-NEXT:      %[[MINE:.*]] = uniform.query_map(map:%[[M]], key:%[[IT]]) : index
// CHECK-NEXT:      %[[A:.*]] = dataflow.get_logical_memory_view %[[MINE]], %[[C128]] {layout_map = #[[RM:.*]]} : index, index, memref<2x64xf16>
// CHECK-NEXT:      %[[R:.*]] = dataflow.get_logical_memory_view %[[REG]], %[[C0]] {layout_map = #[[RM]]} : index, index, memref<2x64xf16>
// CHECK:           agen.composite_load_and_store src:%[[A]][{{.*}}] dst:%{{.*}}
// CHECK:           "test.use"(%[[R]]) : (memref<2x64xf16>) -> ()
// CHECK-NOT:       unrealized_conversion_cast
// CHECK-NOT:       memref.dealloc
func.func @source_b(%out: memref<2x64xf16, "DDR">) attributes {grid = [2]} {
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c640 = arith.constant 640 : index
    %a = builtin.unrealized_conversion_cast %c128 : index to memref<2x64xf16, "L1">
    %r = builtin.unrealized_conversion_cast %c0 : index to memref<2x64xf16, "SFU_REG">
    %gone = builtin.unrealized_conversion_cast %c640 : index to memref<2x64xf16, "L1">
    ktdf.data_transfer from %a[%c0, %c0] size [1, 64] to %out[%c0, %c0] size [1, 64] : memref<2x64xf16, "L1">, memref<2x64xf16, "DDR">
    "test.use"(%r) : (memref<2x64xf16, "SFU_REG">) -> ()
    memref.dealloc %gone : memref<2x64xf16, "L1">
    memref.dealloc %a : memref<2x64xf16, "L1">
  }
  return
}

// -----

// Buffers reached through a memref.cast and a select_memref: the select now picks between
// the plain views and has their type, and the transfer from it reads that type. (Nothing
// lowers the select: its phase is not a buffer_phase.)

// CHECK-LABEL: func.func @selected(
// CHECK:           %[[V0:.*]] = dataflow.get_logical_memory_view %{{.*}}, %{{.*}} {layout_map = #{{.*}}} : index, index, memref<1x64xf16>
// CHECK-NEXT:      %[[V1:.*]] = dataflow.get_logical_memory_view %{{.*}}, %{{.*}} {layout_map = #{{.*}}} : index, index, memref<1x64xf16>
// CHECK:           %[[SEL:.*]] = ktdf.select_memref %{{.*}}[%[[V0]], %[[V1]]] : memref<1x64xf16>
// CHECK-NEXT:      agen.vector_load %[[SEL]][%{{.*}}, %{{.*}}] {{.*}} : memref<1x64xf16>, vector<64xf16>
func.func @selected(%phase: index) attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %lu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %a = builtin.unrealized_conversion_cast %c0 : index to memref<1x64xf16, "L1">
    %b = builtin.unrealized_conversion_cast %c128 : index to memref<1x64xf16, "L1">
    %ad = memref.cast %a : memref<1x64xf16, "L1"> to memref<?x64xf16, "L1">
    %bd = memref.cast %b : memref<1x64xf16, "L1"> to memref<?x64xf16, "L1">
    %sel = ktdf.select_memref %phase[%ad, %bd] : memref<?x64xf16, "L1">
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "L1LU", 64xf16>
    ktdf.data_transfer from %sel[%c0, %c0] size [1, 64] to %f size [64] : memref<?x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "L1LU", 64xf16>
  }
  return
}

// -----

func.func @l1_read_by_compute() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %a = builtin.unrealized_conversion_cast %c0 : index to memref<64xf16, "L1">
    // expected-error @below {{unexpected consumer of memory view; expected data_transfer or select_memref}}
    "test.use"(%a) : (memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

func.func @select_read_by_compute(%phase: index) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %a = builtin.unrealized_conversion_cast %c0 : index to memref<64xf16, "L1">
    %b = builtin.unrealized_conversion_cast %c128 : index to memref<64xf16, "L1">
    // expected-error @below {{select_memref result used by unexpected op; expected data_transfer}}
    %sel = ktdf.select_memref %phase[%a, %b] : memref<64xf16, "L1">
    "test.use"(%sel) : (memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

func.func @dynamic_buffer(%n: index, %out: memref<64xf16, "DDR">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    // expected-error @below {{unrealized_conversion_cast: dynamic shape not supported}}
    %a = builtin.unrealized_conversion_cast %c0 : index to memref<?xf16, "L1">
    ktdf.data_transfer from %a[%c0] size [64] to %out[%c0] size [64] : memref<?xf16, "L1">, memref<64xf16, "DDR">
  }
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @view_without_views() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %v = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %d = memref.memory_space_cast %v : memref<64xf16> to memref<64xf16, "DDR">
    // expected-error @below {{construct_memory_view: no ViewLikeOpInterface users found}}
    %w = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    "test.use"(%d, %w) : (memref<64xf16, "DDR">, memref<64xf16>) -> ()
  }
  return
}

// -----

// A view of compute tile 1's scratchpad (ct_id = 1, README Decision 93) is a view of core 1's
// L1 unit on every core (core 0 reads it over the core links), not of the running core's.

// CHECK-LABEL: func.func @owner_scratchpad(
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[L1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
// CHECK:         dataflow.program_unit
// CHECK-NOT:       uniform.query_map
// CHECK:           dataflow.get_logical_memory_view %[[L1]], %[[C256]] {layout_map = #{{.*}}} : index, index, memref<1x64xf16>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @owner_scratchpad(%out: memref<1x64xf16, "DDR">) attributes {grid = [2]} {
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNISU", type = "MNISU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %v = ktdp.construct_memory_view %c256, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %l = memref.memory_space_cast %v : memref<1x64xf16> to memref<1x64xf16, "L1">
  %r = memref.reinterpret_cast %l to offset: [0], sizes: [1, 64], strides: [64, 1] : memref<1x64xf16, "L1"> to memref<1x64xf16, strided<[64, 1]>, "L1">
  ktdf_lowering.execute_on %q {
    ktdf.data_transfer from %r[%c0, %c0] size [1, 64] to %out[%c0, %c0] size [1, 64] : memref<1x64xf16, strided<[64, 1]>, "L1">, memref<1x64xf16, "DDR">
  }
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @owner_outside_the_grid(%out: memref<1x64xf16, "DDR">) attributes {grid = [2]} {
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNISU", type = "MNISU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  // expected-error @below {{the view lives in compute tile 2's scratchpad (ct_id = 2), but the grid has 2 tile(s)}}
  %v = ktdp.construct_memory_view %c256, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<1x64xf16>
  %l = memref.memory_space_cast %v : memref<1x64xf16> to memref<1x64xf16, "L1">
  %r = memref.reinterpret_cast %l to offset: [0], sizes: [1, 64], strides: [64, 1] : memref<1x64xf16, "L1"> to memref<1x64xf16, strided<[64, 1]>, "L1">
  ktdf_lowering.execute_on %q {
    ktdf.data_transfer from %r[%c0, %c0] size [1, 64] to %out[%c0, %c0] size [1, 64] : memref<1x64xf16, strided<[64, 1]>, "L1">, memref<1x64xf16, "DDR">
  }
  return
}
