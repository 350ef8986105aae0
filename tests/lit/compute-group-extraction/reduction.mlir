// RUN: dfsched-opt %s --ktir-legality-check --compute-group-extraction | filecheck %s

// A row sum as the Triton frontend writes it: the accumulator is a linalg.fill of a scalar
// constant, created before the load. The fill and its constant are dependencies of the
// group, so the program gets its own copies and the orchestrator loses the originals.

// CHECK-LABEL: func.func @row_sum()
// CHECK-NEXT:    call @local_schedule_0() : () -> ()
// CHECK:         return
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         %[[X:[a-zA-Z0-9_]+]] = ktdp.load {{.*}} -> tensor<4x64xf32>
// CHECK:         %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:[a-zA-Z0-9_]+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[INIT:[a-zA-Z0-9_]+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT:    %[[SUM:[a-zA-Z0-9_]+]] = linalg.reduce ins(%[[X]] : tensor<4x64xf32>) outs(%[[INIT]] : tensor<4xf32>) dimensions = [1]
// CHECK:         ktdp.store %[[SUM]],
// CHECK:         return
func.func @row_sum() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %x_addr = arith.constant 0 : index
  %s_addr = arith.constant 1024 : index
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %x_view = ktdp.construct_memory_view %x_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %s_view = ktdp.construct_memory_view %s_addr, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %s_tile = ktdp.construct_access_tile %s_view[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %x_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %sum = linalg.reduce ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  ktdp.store %sum, %s_tile : tensor<4xf32>, !ktdp.access_tile<4xindex>
  return
}
