// RUN: not dfsched-opt %s -split-input-file --construct-three-stage-pipeline 2>&1 | filecheck %s

// What the pass needs from the device, each missing in turn (devices in Inputs/links.mlir).
// Device errors are reported on the program's compute op, the device named in a note.

// No device declared and no --device given: upstream's error, on the module.
// CHECK: device-errors.mlir:[[MOD:[0-9]+]]:1: error: Unable to import the device specification. This could happen if the device spec file is empty or contains multiple devices
module {
  func.func @exp_row() {
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

// CHECK: device-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: ConstructThreeStagePipeline: compute unit link does not use an ordered queue; only ordered queues are supported
// CHECK-NEXT: %e = math.exp %v : tensor<1x16xf16>
// CHECK: links.mlir:{{[0-9]+}}:{{[0-9]+}}: note: in device 'unordered'
module {
  ktdf_arch.device @unordered import("Inputs/links.mlir")
  func.func @exp_row() {
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

// CHECK: error: ConstructThreeStagePipeline: compute resource link is missing a TransferGranularity property
// CHECK: note: in device 'no_granularity'
module {
  ktdf_arch.device @no_granularity import("Inputs/links.mlir")
  func.func @exp_row() {
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

// CHECK: error: ConstructThreeStagePipeline: incoming and outgoing transfer granularities differ (16 vs 32)
// CHECK: note: in device 'mismatch'
module {
  ktdf_arch.device @mismatch import("Inputs/links.mlir")
  func.func @exp_row() {
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

// CHECK: error: ConstructThreeStagePipeline: compute resource has no incoming or outgoing link in device description (exec_unit 'CU' has 2 incoming and 1 outgoing links; exactly one of each is needed)
// CHECK: note: in device 'two_inputs'
module {
  ktdf_arch.device @two_inputs import("Inputs/links.mlir")
  func.func @exp_row() {
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

// CHECK: error: ConstructThreeStagePipeline: no compute resource kind found in device description
// CHECK: note: in device 'no_compute'
module {
  ktdf_arch.device @no_compute import("Inputs/links.mlir")
  func.func @exp_row() {
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
