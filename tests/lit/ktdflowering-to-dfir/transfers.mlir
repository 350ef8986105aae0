// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// Memref to memref transfers wider than the SFU's 64 f16 lanes are walked over time: every
// non-unit outer dimension, then the innermost one in whole vectors. The two sides may be
// shaped differently as long as they walk the same extents.

// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[ROWS_SRC:.*]] = affine_map<(d0) -> (0, d0, 0)>
// CHECK-DAG: #[[ROWS_DST:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-DAG: #[[HALVES_SRC:.*]] = affine_map<(d0) -> (0, d0 * 64)>
// CHECK-DAG: #[[HALVES_DST:.*]] = affine_map<(d0) -> (d0 * 64)>
// CHECK-DAG: #[[VEC3:.*]] = affine_set<(d0, d1, d2) : (d0 == 0, d1 == 0, d2 >= 0, -d2 + 63 >= 0)>
// CHECK-DAG: #[[VEC2:.*]] = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-DAG: #[[VEC1:.*]] = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
// CHECK-DAG: #[[T16:.*]] = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
// CHECK-DAG: #[[T2:.*]] = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>

// CHECK-LABEL: func.func @split(
// CHECK:         agen.composite_load_and_store src:%{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] dst:%{{.*}}[%{{.*}}, %{{.*}}]
// CHECK-NEXT:     time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_order = #[[ID3]], load_set = #[[VEC3]], load_time_addr_map = #[[ROWS_SRC]], store_order = #[[ID2]], store_set = #[[VEC2]], store_time_addr_map = #[[ROWS_DST]], time_order = #[[ID1]], time_set = #[[T16]]}
// CHECK:         } : memref<1x16x64xf16, "DDR">, memref<16x64xf16, "L1">
// CHECK:         agen.composite_load_and_store src:%{{.*}}[%{{.*}}, %{{.*}}] dst:%{{.*}}[%{{.*}}]
// CHECK-NEXT:     time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_order = #[[ID2]], load_set = #[[VEC2]], load_time_addr_map = #[[HALVES_SRC]], store_order = #[[ID1]], store_set = #[[VEC1]], store_time_addr_map = #[[HALVES_DST]], time_order = #[[ID1]], time_set = #[[T2]]}
// CHECK:         } : memref<1x128xf16, "DDR">, memref<128xf16, "L1">
func.func @split(%a: memref<1x16x64xf16, "DDR">, %b: memref<16x64xf16, "L1">, %c: memref<1x128xf16, "DDR">, %d: memref<128xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    ktdf.data_transfer from %a[%c0, %c0, %c0] size [1, 16, 64] to %b[%c0, %c0] size [16, 64] : memref<1x16x64xf16, "DDR">, memref<16x64xf16, "L1">
    ktdf.data_transfer from %c[%c0, %c0] size [1, 128] to %d[%c0] size [128] : memref<1x128xf16, "DDR">, memref<128xf16, "L1">
  }
  return
}

// -----

// Rows 256 elements apart on one side and 128 on the other: the row dimension cannot be a
// time dimension (one step, two distances), so an scf.for walks it and each side's
// subscripts take the loop's index; the halves of a row stay on the time axis.

// CHECK-LABEL: func.func @divergent(
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.for %[[R:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      agen.composite_load_and_store src:%{{.*}}[%[[C0]] + %[[R]], %[[C0]]] dst:%{{.*}}[%[[C0]] + %[[R]], %[[C0]]]
// CHECK-NEXT:       time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:       {{{.*}}load_time_addr_map = #[[HALVES:.*]], {{.*}}time_set = #[[T2:.*]]}
// CHECK:           } : memref<2x256xf16, "DDR">, memref<2x128xf16, "L1">
// CHECK:         }
func.func @divergent(%a: memref<2x256xf16, "DDR">, %b: memref<2x128xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    ktdf.data_transfer from %a[%c0, %c0] size [2, 128] to %b[%c0, %c0] size [2, 128] : memref<2x256xf16, "DDR">, memref<2x128xf16, "L1">
  }
  return
}

// -----

// Rows narrower than a vector (a 64x32 block of a 64-wide matrix, a matmul's B tile): one row
// per vector of 32; the rows lie 64 elements apart in DDR and 32
// in L1, so an scf.for walks them (the corpus' matmul_small; rows wider than a vector that are not
// whole vectors stay an error, below).

// CHECK-LABEL: func.func @narrow_rows(
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %c64 step %{{.*}} {
// CHECK-NEXT:      agen.composite_load_and_store src:%{{.*}}[%{{.*}} + %[[R]], %c32] dst:%{{.*}}[%{{.*}} + %[[R]], %{{.*}}]
// CHECK-NEXT:       time_symbols(), load_iv(%{{.*}}:vector<32xf16>)
// CHECK:           } : memref<64x64xf16, "DDR">, memref<64x32xf16, "L1">
func.func @narrow_rows(%a: memref<64x64xf16, "DDR">, %b: memref<64x32xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    ktdf.data_transfer from %a[%c0, %c32] size [64, 32] to %b[%c0, %c0] size [64, 32] : memref<64x64xf16, "DDR">, memref<64x32xf16, "L1">
  }
  return
}

// -----

func.func @not_whole_vectors(%a: memref<2x96xf16, "DDR">, %b: memref<2x96xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    // expected-error @below {{data transfer of 192 elements exceeds the hardware vector width of 64; splitting requires the innermost source and destination sizes to be a multiple of the vector width, but they are 96 and 96 (or equal and narrower than it)}}
    ktdf.data_transfer from %a[%c0, %c0] size [2, 96] to %b[%c0, %c0] size [2, 96] : memref<2x96xf16, "DDR">, memref<2x96xf16, "L1">
  }
  return
}

// -----

func.func @different_walks(%a: memref<4x64xf16, "DDR">, %b: memref<2x128xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    // expected-error @below {{source and destination walked dimensions must match to split a transfer of 256 elements across multiple vectors}}
    ktdf.data_transfer from %a[%c0, %c0] size [4, 64] to %b[%c0, %c0] size [2, 128] : memref<4x64xf16, "DDR">, memref<2x128xf16, "L1">
  }
  return
}

// -----

func.func @two_divergent(%a: memref<2x2x512xf16, "DDR">, %b: memref<2x2x64xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    // expected-error @below {{source and destination advance by different distances in 2 walked dimensions of a transfer of 256 elements; only one such dimension can be resolved}}
    ktdf.data_transfer from %a[%c0, %c0, %c0] size [2, 2, 64] to %b[%c0, %c0, %c0] size [2, 2, 64] : memref<2x2x512xf16, "DDR">, memref<2x2x64xf16, "L1">
  }
  return
}

// -----

// Decision 7: the sample device's SFU declares no f32 lanes, so no vector width is known.
func.func @no_lanes(%a: memref<1x64xf32, "DDR">, %b: memref<1x64xf32, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    // expected-error @below {{exec_unit 'SFU' declares no SIMD lanes for element type f32}}
    // expected-note * {{in device 'sample_device'}}
    ktdf.data_transfer from %a[%c0, %c0] size [1, 64] to %b[%c0, %c0] size [1, 64] : memref<1x64xf32, "DDR">, memref<1x64xf32, "L1">
  }
  return
}

// -----

// FIFOs: a load sends to the unit of the slot's destination kind on the same core, a store
// receives from the unit of its source kind. A splat loads its one element and shuffles it
// to the slot's 64. A FIFO to FIFO transfer has no address to generate.

// CHECK-LABEL: func.func @fifos(
// CHECK:         %[[LU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU"
// CHECK:         %[[SFU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-SFU"
// CHECK:         %[[SU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU"
// CHECK:         dataflow.program_unit iter_arg : %[[I1:.*]] -> (%[[LU]]) : {
// CHECK-NEXT:      %[[X:.*]] = agen.vector_load %{{.*}}[%{{.*}}, %{{.*}}] {load_order = #{{.*}}, load_set = #{{.*}}} : memref<2x64xf16, "L1">, vector<64xf16>
// CHECK:           %[[M1:.*]] = uniform.def_immutable_mapping([%[[LU]] -> %[[SFU]]]):index
// CHECK-NEXT:      %[[P1:.*]] = uniform.query_map(map:%[[M1]], key:%[[I1]]) : index
// CHECK-NEXT:      dataflow.send %[[P1]], %[[X]] : vector<64xf16>
// CHECK-NEXT:      %[[ONE:.*]] = agen.vector_load %{{.*}}[%{{.*}}, %{{.*}}] {load_order = #{{.*}}, load_set = #{{.*}}} : memref<2x64xf16, "L1">, vector<1xf16>
// CHECK-NEXT:      %[[ALL:.*]] = vectorchain.shuffle input(%[[ONE]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK:           %[[M2:.*]] = uniform.def_immutable_mapping([%[[LU]] -> %[[SFU]]]):index
// CHECK-NEXT:      %[[P2:.*]] = uniform.query_map(map:%[[M2]], key:%[[I1]]) : index
// CHECK-NEXT:      dataflow.send %[[P2]], %[[ALL]] : vector<64xf16>
// CHECK:         }
// CHECK:         dataflow.program_unit iter_arg : %[[I3:.*]] -> (%[[SU]]) : {
// CHECK:           %[[M3:.*]] = uniform.def_immutable_mapping([%[[SU]] -> %[[SFU]]]):index
// CHECK-NEXT:      %[[P3:.*]] = uniform.query_map(map:%[[M3]], key:%[[I3]]) : index
// CHECK-NEXT:      %[[R:.*]] = dataflow.receive %[[P3]] : vector<64xf16>
// CHECK-NEXT:      agen.vector_store %[[R]], %{{.*}}[%{{.*}}, %{{.*}}] {store_order = #{{.*}}, store_set = #{{.*}}} : memref<2x64xf16, "L1">, vector<64xf16>
// CHECK:         }
func.func @fifos(%buf: memref<2x64xf16, "L1">) attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %su = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  %m3 = uniform.def_immutable_mapping([%k -> %su]):index
  %q3 = uniform.query_map(map:%m3, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2, %q3 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      ktdf.data_transfer from %buf[%c0, %c0] size [1, 64] to %in#0 size [64] : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf.data_transfer from %buf[%c1, %c0] size [1, 1] to %in#1 size [64] {transfer_mode = "splat"} : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    }
    ktdf_lowering.execute_on %q2 {
      "test.sfu"() : () -> ()
    }
    ktdf_lowering.execute_on %q3 {
      ktdf.data_transfer from %out size [64] to %buf[%c1, %c0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<2x64xf16, "L1">
    }
  }
  return
}

// -----

func.func @fifo_to_fifo() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %a = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>
    %b = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>
    // expected-error @below {{Unsupported data transfer: FIFO to FIFO transfers are not allowed}}
    ktdf.data_transfer from %a size [64] to %b size [64] : !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>
  }
  return
}

// -----

func.func @splat_too_wide(%buf: memref<128xf16, "L1">) attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2 {
    %c0 = arith.constant 0 : index
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      // expected-error @below {{source total elements must not exceed destination for splat/pad transfer}}
      ktdf.data_transfer from %buf[%c0] size [128] to %f size [64] {transfer_mode = "splat"} : memref<128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    }
    ktdf_lowering.execute_on %q2 {
      "test.sfu"() : () -> ()
    }
  }
  return
}

// -----

func.func @splat_uneven(%buf: memref<128xf16, "L1">) attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2 {
    %c0 = arith.constant 0 : index
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      // expected-error @below {{dst_total_elements must be divisible by src_total_elements for splat transfer}}
      ktdf.data_transfer from %buf[%c0] size [3] to %f size [64] {transfer_mode = "splat"} : memref<128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    }
    ktdf_lowering.execute_on %q2 {
      "test.sfu"() : () -> ()
    }
  }
  return
}

// -----

// A splat of several elements (one per row: a row maximum for each of 2 rows of 32) broadcasts
// each element along its row: indices 0 x 32 then 1 x 32, not the pair repeated.
// CHECK-LABEL: func.func @splat_rows
// CHECK:         %[[TWO:.*]] = agen.vector_load %{{.*}} : memref<2x1xf16, "L1">, vector<2xf16>
// CHECK-NEXT:    vectorchain.shuffle input(%[[TWO]]) {indices = [0 : i32, {{(0 : i32, )+}}1 : i32, {{(1 : i32, )+}}1 : i32], repetition = 1 : i32} : vector<2xf16>, vector<64xf16>
func.func @splat_rows(%buf: memref<2x1xf16, "L1">) attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2 {
    %c0 = arith.constant 0 : index
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      ktdf.data_transfer from %buf[%c0, %c0] size [2, 1] to %f size [2, 32] {transfer_mode = "splat"} : memref<2x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    }
    ktdf_lowering.execute_on %q2 {
      "test.sfu"() : () -> ()
    }
  }
  return
}

// -----

// Rows narrower than a vector on both sides (a matrix unit's 8-column block of B, Decision 42)
// move one row per vector: a loop of 32 rows of 8 elements (the sides advance by different
// strides), not a whole-vector split.
// CHECK-LABEL: func.func @narrow_rows
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %c32 step %{{.*}} {
// CHECK-NEXT:      agen.composite_load_and_store src:%{{.*}}[%{{.*}} + %[[ROW]], %{{.*}}] dst:%{{.*}}[%{{.*}} + %[[ROW]], %{{.*}}]
// CHECK-NEXT:      time_symbols(), load_iv(%{{.*}}:vector<8xf16>)
func.func @narrow_rows(%a: memref<32x64xf16, "DDR">, %b: memref<32x8xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    ktdf.data_transfer from %a[%c0, %c0] size [32, 8] to %b[%c0, %c0] size [32, 8] : memref<32x64xf16, "DDR">, memref<32x8xf16, "L1">
  }
  return
}
