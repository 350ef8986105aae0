// RUN: not dfsched-opt %s -split-input-file --construct-three-stage-pipeline 2>&1 >/dev/null | filecheck %s
// RUN: not dfsched-opt %s -split-input-file --construct-three-stage-pipeline 2>/dev/null | filecheck %s --check-prefix=F32

// A compute unit's `feature.simd` `ops` lists, per element type, the element-wise ops it
// executes (Inputs/unit-ops.mlir: add and mul on f16, every op on f32). A body op outside the
// list is an error on that op naming the op, the type and the unit, with the device in a note;
// the same op on f32 compiles.

// The same exp on f32, a type the unit's `ops` omits: every op executes, the pipeline is built.

// F32-LABEL: func.func @exp_f32
// F32: ktdf.read_from_fifo {{.*}} -> tensor<1x16xf32>
// F32: math.exp %{{.*}} : f32
module {
  ktdf_arch.device @add_mul_f16 import("Inputs/unit-ops.mlir")
  func.func @exp_f32() {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %x = ktdp.construct_memory_view %c0, sizes: [1, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x16xf32>
    %y = ktdp.construct_memory_view %c64, sizes: [1, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x16xf32>
    %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x16xf32> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x16xf32> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf32>
    %e = math.exp %v : tensor<1x16xf32>
    ktdp.store %e, %ty : tensor<1x16xf32>, !ktdp.access_tile<1x16xindex>
    return
  }
}

// -----

// CHECK: unit-ops.mlir:[[# @LINE + 13]]:10: error: exec_unit 'CU' does not execute 'math.exp' on element type f16 (not in its ktdf_arch.feature.simd ops)
// CHECK-NEXT: %e = math.exp %v : tensor<1x16xf16>
// CHECK: unit-ops.mlir:{{[0-9]+}}:{{[0-9]+}}: note: in device 'add_mul_f16'
module {
  ktdf_arch.device @add_mul_f16 import("Inputs/unit-ops.mlir")
  func.func @exp_f16() {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %x = ktdp.construct_memory_view %c0, sizes: [1, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
    %y = ktdp.construct_memory_view %c64, sizes: [1, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
    %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
    %e = math.exp %v : tensor<1x16xf16>
    ktdp.store %e, %ty : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    return
  }
}

// -----

// A cast checks both its types: truncf from f32 to f16 is not among the f16 ops.

// CHECK: unit-ops.mlir:[[# @LINE + 15]]:12: error: exec_unit 'CU' does not execute 'arith.truncf' on element type f16 (not in its ktdf_arch.feature.simd ops)
// CHECK: note: in device 'add_mul_f16'
module {
  ktdf_arch.device @add_mul_f16 import("Inputs/unit-ops.mlir")
  func.func @truncate() {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %x = ktdp.construct_memory_view %c0, sizes: [1, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x16xf32>
    %y = ktdp.construct_memory_view %c64, sizes: [1, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
    %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x16xf32> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf32>
    %e = tensor.empty() : tensor<1x16xf16>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<1x16xf32>) outs(%e : tensor<1x16xf16>) {
    ^bb0(%a: f32, %o: f16):
      %h = arith.truncf %a : f32 to f16
      linalg.yield %h : f16
    } -> tensor<1x16xf16>
    ktdp.store %t, %ty : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
    return
  }
}
