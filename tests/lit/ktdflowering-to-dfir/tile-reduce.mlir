// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --device=ring4 --ktdflowering-to-dfir | filecheck %s

// A ktdf.tile_reduce becomes a call of a program of its own. On ring4 (SIMD: 64 f16 lanes) a
// 1x128 slot is two vectors; 3 tiles in one group: core 1's load unit reads the partial slot
// (byte 1024) of cores 0, 1 and 2 vector by vector (its core's L1 and the others'), its SFU
// folds each vector from the identity splat in tile order, its store unit writes the result
// slot (byte 1280). Core 3 is in no group: its SFU sends the identity to be stored.

#three = affine_set<(i)[g] : (i - 3 * g >= 0, -i + 3 * g + 2 >= 0)>
module {
  ktdf_arch.device @ring4 import("dfsched:ring4.mlir")
  module {
    func.func @kernel() attributes {grid = [4]} {
      ktdf.tile_reduce "add" from 1024 into 1280 identity 0.0 : f16 producers = #three groups = affine_set<(g) : (g == 0)> : tensor<1x128xf16>
      return
    }
  }
}

// CHECK-LABEL: func.func @kernel()
// CHECK-NEXT:    call @tile_reduce_0() : () -> ()
// CHECK:         return
// CHECK-LABEL: module @tile_reduce_0
// CHECK:         %[[C1LU:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"}
// CHECK:         %[[C1SFU:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu", type = "sfu"}
// CHECK:         %[[C0L1:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"}
// CHECK:         %[[C1L1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"}
// CHECK:         %[[C2L1:.*]] = dataflow.get_unit {core = 2 : i32, name = "C2-l1", type = "l1"}
// CHECK:       dataflow.program_unit %[[C1LU]] : {
// CHECK:         dataflow.get_logical_memory_view %[[C0L1]], %c1024
// CHECK:         agen.vector_load
// CHECK-NEXT:    dataflow.send %[[C1SFU]]
// CHECK:         dataflow.get_logical_memory_view %[[C1L1]], %c1024
// CHECK:         dataflow.get_logical_memory_view %[[C2L1]], %c1024
// CHECK:         dataflow.get_logical_memory_view %[[C0L1]], %c1152
// CHECK:       dataflow.program_unit %[[C1SFU]] : {
// CHECK:         vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
// CHECK:         dataflow.receive %[[C1LU]] : vector<64xf16>
// CHECK-NEXT:    vectorchain.binary {{.*}}add
// CHECK:       dataflow.program_unit %{{.*}} : {
// CHECK:         dataflow.get_logical_memory_view %[[C1L1]], %c1280
// CHECK:         agen.vector_store

// -----

// A group naming a tile the grid does not have.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
module {
  ktdf_arch.device @ring4 import("dfsched:ring4.mlir")
  module {
    func.func @kernel() attributes {grid = [2]} {
      // expected-error @below {{group 0 names compute tile 3, but the grid has 2}}
      ktdf.tile_reduce "add" from 1024 into 1280 identity 0.0 : f16 producers = #four groups = affine_set<(g) : (g == 0)> : tensor<1x128xf16>
      return
    }
  }
}
