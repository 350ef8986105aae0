// RUN: dfsched-opt %s -split-input-file --scalar-broadcast-legalization | filecheck %s

// Devices of Inputs/splat.mlir (16 f16 lanes; the DMA unit's words are 8 bytes).

// A scalar from G: DMA cannot load a 2-byte element alone and the compute unit cannot
// splat, so the scalar's buffer and DMA transfer widen to 16 lanes, LD splats into a
// FIFO slot grown from 1 to 16 elements, and the compute unit reads a 16-lane vector.
// CHECK-LABEL: func.func @from_global(
// CHECK:         ktdf.private -> (memref<16xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 16xf16>, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.data_transfer from %{{.*}}[%{{.*}}] size [16] to %{{.*}}[0] size [16] : memref<32xf16, "G">, memref<16xf16, "S">
// CHECK:         } {applicable_units = ["DMA"]}
// CHECK:         ktdf.data_transfer from %{{.*}}[0] size [1] to %{{.*}} size [16] {transfer_mode = "splat"} : memref<16xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 16xf16>
// CHECK:         %[[V:.*]] = ktdf.read_from_fifo %{{.*}} : <"LD" -> "CU", 16xf16> -> tensor<16xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[V]] : tensor<16xf16>)
module {
  ktdf_arch.device @plain import("Inputs/splat.mlir")
  func.func @from_global(%s: memref<32xf16, "G">, %i: index) {
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

// The compute unit splats and LD can load the 2-byte element from S exactly (a 2-word
// access): the operand needs nothing.
// CHECK-LABEL: func.func @compute_splats(
// CHECK-NOT:     transfer_mode
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"LD" -> "CU", 1xf16> -> tensor<1xf16>
// CHECK:         linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<1xf16>)
module {
  ktdf_arch.device @splat_compute import("Inputs/splat.mlir")
  func.func @compute_splats(%s: memref<32xf16, "S">, %i: index) {
    ktdf.pipeline {
      %p:2 = ktdf.private -> (!ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token) {
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
        %t0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %f, %t0 : !ktdf.fifo.slot<"LD" -> "CU", 1xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %s[%i] size [1] to %p#0 size [1] : memref<32xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 1xf16>
      } {applicable_units = ["LD"]}
      ktdf.stage depends_in(%p#1) depends_out(none) {
        %v = ktdf.read_from_fifo %p#0 : <"LD" -> "CU", 1xf16> -> tensor<1xf16>
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

// Same device, scalar in G: the compute unit could splat, but DMA cannot load the element
// on its own (8-byte words), so the operand is legalized all the same.
// CHECK-LABEL: func.func @compute_splats_global(
// CHECK:         ktdf.data_transfer from %{{.*}}[%{{.*}}] size [16] to %{{.*}}[0] size [16]
// CHECK:         {transfer_mode = "splat"}
module {
  ktdf_arch.device @splat_compute import("Inputs/splat.mlir")
  func.func @compute_splats_global(%s: memref<32xf16, "G">, %i: index) {
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
