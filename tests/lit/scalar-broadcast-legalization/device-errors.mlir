// RUN: not dfsched-opt %s -split-input-file --scalar-broadcast-legalization 2>&1 | filecheck %s

// Devices (Inputs/splat.mlir) on which a scalar broadcast cannot be legalized. The errors
// are reported on the linalg.generic, the device named in a note.

// LD has no splat.
// CHECK: device-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: scalar-broadcast-legalization: transfer unit 'LD' does not support splat; cannot legalize scalar broadcast operand 0
// CHECK-NEXT: %r = linalg.generic
// CHECK: splat.mlir:{{[0-9]+}}:{{[0-9]+}}: note: in device 'no_splat'
module {
  ktdf_arch.device @no_splat import("Inputs/splat.mlir")
  func.func @splat_missing(%s: memref<32xf16, "G">, %i: index) {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token) {
        %b = memref.alloc() : memref<1xf16, "S">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %b, %f, %t0, %t1 : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : memref<32xf16, "G">, memref<1xf16, "S">
      } {applicable_units = ["DMA"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#3) depends_out(none) {
        %v = ktdf.read_from_fifo %p#1 : <"LD" -> "CU", 1xf16> -> tensor<1xf16>
        %e = tensor.empty() : tensor<16xf16>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<16xf16>) {
        ^bb0(%a: f16, %o: f16):
          linalg.yield %a : f16
        } -> tensor<16xf16>
      } {applicable_units = ["CU"]}
    }
    return
  }
}

// -----

// LD's link from S only moves 32 bytes at a time.
// CHECK: error: scalar-broadcast-legalization: transfer unit 'LD' does not support sub-vector reads; cannot legalize scalar broadcast operand 0
// CHECK: note: in device 'coarse'
module {
  ktdf_arch.device @coarse import("Inputs/splat.mlir")
  func.func @coarse_reads(%s: memref<32xf16, "G">, %i: index) {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token) {
        %b = memref.alloc() : memref<1xf16, "S">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %b, %f, %t0, %t1 : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : memref<32xf16, "G">, memref<1xf16, "S">
      } {applicable_units = ["DMA"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#3) depends_out(none) {
        %v = ktdf.read_from_fifo %p#1 : <"LD" -> "CU", 1xf16> -> tensor<1xf16>
        %e = tensor.empty() : tensor<16xf16>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<16xf16>) {
        ^bb0(%a: f16, %o: f16):
          linalg.yield %a : f16
        } -> tensor<16xf16>
      } {applicable_units = ["CU"]}
    }
    return
  }
}

// -----

// The DMA unit has no access shapes for G.
// CHECK: error: scalar-broadcast-legalization: unit 'DMA' does not support load from 'G'
// CHECK: note: in device 'dma_without_g'
module {
  ktdf_arch.device @dma_without_g import("Inputs/splat.mlir")
  func.func @no_global_access(%s: memref<32xf16, "G">, %i: index) {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token) {
        %b = memref.alloc() : memref<1xf16, "S">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %b, %f, %t0, %t1 : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : memref<32xf16, "G">, memref<1xf16, "S">
      } {applicable_units = ["DMA"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#3) depends_out(none) {
        %v = ktdf.read_from_fifo %p#1 : <"LD" -> "CU", 1xf16> -> tensor<1xf16>
        %e = tensor.empty() : tensor<16xf16>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<16xf16>) {
        ^bb0(%a: f16, %o: f16):
          linalg.yield %a : f16
        } -> tensor<16xf16>
      } {applicable_units = ["CU"]}
    }
    return
  }
}

// -----

// The first transfer runs on a store-only unit.
// CHECK: error: scalar-broadcast-legalization: unit 'OUT' does not support load
// CHECK: note: in device 'plain'
module {
  ktdf_arch.device @plain import("Inputs/splat.mlir")
  func.func @store_unit(%s: memref<32xf16, "G">, %i: index) {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token) {
        %b = memref.alloc() : memref<1xf16, "S">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %b, %f, %t0, %t1 : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : memref<32xf16, "G">, memref<1xf16, "S">
      } {applicable_units = ["OUT"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : memref<1xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#3) depends_out(none) {
        %v = ktdf.read_from_fifo %p#1 : <"LD" -> "CU", 1xf16> -> tensor<1xf16>
        %e = tensor.empty() : tensor<16xf16>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<16xf16>) {
        ^bb0(%a: f16, %o: f16):
          linalg.yield %a : f16
        } -> tensor<16xf16>
      } {applicable_units = ["CU"]}
    }
    return
  }
}

// -----

// No lanes for f32 on the compute unit (Decision 7).
// CHECK: error: exec_unit 'CU' declares no SIMD lanes for element type f32
module {
  ktdf_arch.device @plain import("Inputs/splat.mlir")
  func.func @no_f32(%s: memref<32xf32, "G">, %i: index) {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<1xf32, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf32>, !ktdf.token, !ktdf.token) {
        %b = memref.alloc() : memref<1xf32, "S">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xf32>
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %b, %f, %t0, %t1 : memref<1xf32, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf32>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : memref<32xf32, "G">, memref<1xf32, "S">
      } {applicable_units = ["DMA"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : memref<1xf32, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf32>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#3) depends_out(none) {
        %v = ktdf.read_from_fifo %p#1 : <"LD" -> "CU", 1xf32> -> tensor<1xf32>
        %e = tensor.empty() : tensor<16xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf32>) outs(%e : tensor<16xf32>) {
        ^bb0(%a: f32, %o: f32):
          linalg.yield %a : f32
        } -> tensor<16xf32>
      } {applicable_units = ["CU"]}
    }
    return
  }
}

// -----

// Index elements have lanes here but no size in bytes.
// CHECK: error: scalar-broadcast-legalization: unsupported vector scalar type index
module {
  ktdf_arch.device @plain import("Inputs/splat.mlir")
  func.func @index_scalar(%s: memref<32xindex, "G">, %i: index) {
    ktdf.pipeline {
      %p:4 = ktdf.private -> (memref<1xindex, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xindex>, !ktdf.token, !ktdf.token) {
        %b = memref.alloc() : memref<1xindex, "S">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xindex>
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %b, %f, %t0, %t1 : memref<1xindex, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xindex>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : memref<32xindex, "G">, memref<1xindex, "S">
      } {applicable_units = ["DMA"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : memref<1xindex, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xindex>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#3) depends_out(none) {
        %v = ktdf.read_from_fifo %p#1 : <"LD" -> "CU", 1xindex> -> tensor<1xindex>
        %e = tensor.empty() : tensor<16xindex>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xindex>) outs(%e : tensor<16xindex>) {
        ^bb0(%a: index, %o: index):
          linalg.yield %a : index
        } -> tensor<16xindex>
      } {applicable_units = ["CU"]}
    }
    return
  }
}
