// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// Two L1 buffers (bytes 0 and 256) alternate over a two-loop nest. The loops carry the
// address: L1LU (no double_buffer_last on the sample device) reads at the carried address
// and flips it at the yield (256 - current: buffer 0, 1, 0, ...), starting at buffer 0.

// CHECK-LABEL: func.func @first(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         dataflow.program_unit
// CHECK:           %[[OUTER:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %[[C0]]) -> (index) {
// CHECK-NEXT:        %[[INNER:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[I:.*]] = %[[O]]) -> (index) {
// CHECK-NEXT:          %[[VIEW:.*]] = dataflow.get_logical_memory_view %{{.*}}, %[[I]] {layout_map = #{{.*}}} : index, index, memref<64xf16>
// CHECK-NEXT:          %[[X:.*]] = agen.vector_load %[[VIEW]]
// CHECK:               dataflow.send %{{.*}}, %[[X]]
// CHECK-NEXT:          %[[FLIP:.*]] = arith.subi %[[C256]], %[[I]] : index
// CHECK:               scf.yield %[[FLIP]] : index
// CHECK:             }
// CHECK:             scf.yield %[[INNER]] : index
// CHECK:           }
// CHECK-NOT:       ktdf.buffer_phase
// CHECK-NOT:       ktdf.select_memref
func.func @first(%n: index) attributes {grid = [1]} {
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
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %b0 = builtin.unrealized_conversion_cast %c0 : index to memref<64xf16, "L1">
    %b1 = builtin.unrealized_conversion_cast %c256 : index to memref<64xf16, "L1">
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        ktdf_lowering.execute_on %q1 {
          %p = ktdf.buffer_phase(%i, %j) {num_phases = 2 : i64} : index
          %b = ktdf.select_memref %p[%b0, %b1] : memref<64xf16, "L1">
          ktdf.data_transfer from %b[%c0] size [64] to %f size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        }
        ktdf_lowering.execute_on %q2 {
          "test.sfu"() : () -> ()
        }
      }
    }
  }
  return
}

// -----

// MNILU is marked double_buffer_last: it flips first thing in the loop body and writes
// through the flipped address, starting from buffer 1 (bytes 512; the sum is 640), so
// buffer 0 (byte 128) comes first as well.

// CHECK-LABEL: func.func @last(
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG:     %[[C640:.*]] = arith.constant 640 : index
// CHECK:         dataflow.program_unit
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CUR:.*]] = %[[C512]]) -> (index) {
// CHECK-NEXT:        %[[NOW:.*]] = arith.subi %[[C640]], %[[CUR]] : index
// CHECK-NEXT:        %[[VIEW:.*]] = dataflow.get_logical_memory_view %{{.*}}, %[[NOW]] {layout_map = #{{.*}}} : index, index, memref<64xf16>
// CHECK-NEXT:        agen.composite_load_and_store src:%{{.*}} dst:%[[VIEW]]
// CHECK:             scf.yield %[[NOW]] : index
func.func @last(%n: index, %src: memref<1024xf16, "DDR">) attributes {grid = [1]} {
  %mn = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %mn]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %b0 = builtin.unrealized_conversion_cast %c128 : index to memref<64xf16, "L1">
    %b1 = builtin.unrealized_conversion_cast %c512 : index to memref<64xf16, "L1">
    scf.for %i = %c0 to %n step %c1 {
      %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      %b = ktdf.select_memref %p[%b0, %b1] : memref<64xf16, "L1">
      ktdf.data_transfer from %src[%i] size [64] to %b[%c0] size [64] : memref<1024xf16, "DDR">, memref<64xf16, "L1">
    }
  }
  return
}

// -----

func.func @three_phases(%n: index, %src: memref<1024xf16, "DDR">) attributes {grid = [1]} {
  %mn = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %mn]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %b0 = builtin.unrealized_conversion_cast %c128 : index to memref<64xf16, "L1">
    %b1 = builtin.unrealized_conversion_cast %c512 : index to memref<64xf16, "L1">
    %b2 = builtin.unrealized_conversion_cast %c0 : index to memref<64xf16, "L1">
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @below {{buffer_phase must have num_phases = 2 for double buffering}}
      %p = ktdf.buffer_phase(%i) {num_phases = 3 : i64} : index
      %b = ktdf.select_memref %p[%b0, %b1, %b2] : memref<64xf16, "L1">
      ktdf.data_transfer from %src[%i] size [64] to %b[%c0] size [64] : memref<1024xf16, "DDR">, memref<64xf16, "L1">
    }
  }
  return
}

// -----

func.func @not_views(%n: index, %src: memref<1024xf16, "DDR">, %x: memref<64xf16>, %y: memref<64xf16>) attributes {grid = [1]} {
  %mn = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %mn]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      // expected-error @below {{select_memref operands must be get_logical_memory_view operations}}
      %b = ktdf.select_memref %p[%x, %y] : memref<64xf16>
      ktdf.data_transfer from %src[%i] size [64] to %b[%c0] size [64] : memref<1024xf16, "DDR">, memref<64xf16>
    }
  }
  return
}

// -----

func.func @different_memories(%n: index, %src: memref<1024xf16, "DDR">) attributes {grid = [1]} {
  %mn = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %mn]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %b0 = builtin.unrealized_conversion_cast %c0 : index to memref<64xf16, "L1">
    %b1 = builtin.unrealized_conversion_cast %c128 : index to memref<64xf16, "SFU_REG">
    %d0 = memref.cast %b0 : memref<64xf16, "L1"> to memref<?xf16, "L1">
    %d1 = memref.cast %b1 : memref<64xf16, "SFU_REG"> to memref<?xf16, "L1">
    scf.for %i = %c0 to %n step %c1 {
      %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      // expected-error @below {{get_logical_memory_view operations must match except for offset}}
      %b = ktdf.select_memref %p[%d0, %d1] : memref<?xf16, "L1">
      ktdf.data_transfer from %src[%i] size [64] to %b[%c0] size [64] : memref<1024xf16, "DDR">, memref<?xf16, "L1">
    }
  }
  return
}
