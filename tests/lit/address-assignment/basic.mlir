// RUN: dfsched-opt %s --allow-unregistered-dialect --address-assignment | filecheck %s

// Buffers get byte addresses in their memory, one after the other in textual order:
// an address constant reinterpreted as the buffer replaces each allocation, deallocations
// go away, and buffers without a memory space are left alone.

module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")

  // CHECK-LABEL: func.func @three_stage
  func.func @three_stage(%src: memref<4x64xf16, "DDR">, %dst: memref<4x64xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        %bufs:3 = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token) {
          // 64 x f16 = 128 bytes each: 0, then 128.
          // CHECK:      ktdf.private
          // CHECK:        %[[A0:.*]] = arith.constant 0 : index
          // CHECK:        %[[IN:.*]] = builtin.unrealized_conversion_cast %[[A0]] : index to memref<64xf16, "L1">
          // CHECK:        %[[A1:.*]] = arith.constant 128 : index
          // CHECK:        %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A1]] : index to memref<64xf16, "L1">
          // CHECK:        %[[T:.*]] = ktdf.create_token
          // CHECK:        ktdf.private_yield %[[IN]], %[[OUT]], %[[T]]
          %in = memref.alloc() : memref<64xf16, "L1">
          %out = memref.alloc() : memref<64xf16, "L1">
          %t = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t : memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%bufs#2) {
          ktdf.data_transfer from %src[%i, %c0] size [1, 64] to %bufs#0[%c0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%bufs#2) depends_out(none) {
          ktdf.data_transfer from %bufs#1[%c0] size [64] to %dst[%i, %c0] size [1, 64] : memref<64xf16, "L1">, memref<4x64xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    }
    return
  }

  // Element sizes: ceil(bitwidth / 8) bytes, index 8, vectors and complex numbers several
  // scalars; a deallocation of an assigned buffer is erased with it. The numbering of L1
  // restarts in every function (each function is its own program).
  // CHECK-LABEL: func.func @element_sizes
  // CHECK:       %[[C0:.*]] = arith.constant 0 : index
  // CHECK:       %[[I1:.*]] = builtin.unrealized_conversion_cast %[[C0]] : index to memref<3xi1, "L1">
  // CHECK:       %[[C3:.*]] = arith.constant 3 : index
  // CHECK:       builtin.unrealized_conversion_cast %[[C3]] : index to memref<2x5xf32, "L1">
  // CHECK:       %[[C43:.*]] = arith.constant 43 : index
  // CHECK:       builtin.unrealized_conversion_cast %[[C43]] : index to memref<2xindex, "L1">
  // CHECK:       %[[C59:.*]] = arith.constant 59 : index
  // CHECK:       builtin.unrealized_conversion_cast %[[C59]] : index to memref<2xvector<4xbf16>, "L1">
  // CHECK:       %[[C75:.*]] = arith.constant 75 : index
  // CHECK:       builtin.unrealized_conversion_cast %[[C75]] : index to memref<1xcomplex<f32>, "L1">
  // CHECK:       %[[C83:.*]] = arith.constant 83 : index
  // CHECK:       %[[I4:.*]] = builtin.unrealized_conversion_cast %[[C83]] : index to memref<5xi4, "L1">
  // CHECK:       %[[PLAIN:.*]] = memref.alloc() : memref<8xf16>
  // CHECK-NEXT:  "test.use"(%[[I1]], %[[I4]], %[[PLAIN]])
  // CHECK-NEXT:  memref.dealloc %[[PLAIN]] : memref<8xf16>
  // CHECK:       return
  func.func @element_sizes() {
    %a = memref.alloc() : memref<3xi1, "L1">
    %b = memref.alloc() : memref<2x5xf32, "L1">
    %c = memref.alloc() : memref<2xindex, "L1">
    %d = memref.alloc() : memref<2xvector<4xbf16>, "L1">
    %e = memref.alloc() : memref<1xcomplex<f32>, "L1">
    %f = memref.alloc() : memref<5xi4, "L1">
    %g = memref.alloc() : memref<8xf16>
    "test.use"(%a, %f, %g) : (memref<3xi1, "L1">, memref<5xi4, "L1">, memref<8xf16>) -> ()
    memref.dealloc %b : memref<2x5xf32, "L1">
    memref.dealloc %g : memref<8xf16>
    return
  }

  // A dynamic dimension takes a constant upper bound of its size: a constant, an
  // affine.min with a constant result, arithmetic on loop bounds.
  // CHECK-LABEL: func.func @dynamic_sizes
  // CHECK:       arith.constant 0 : index
  // CHECK:       builtin.unrealized_conversion_cast %{{.*}} : index to memref<?xf16, "L1">
  // CHECK:       %[[N2:.*]] = arith.constant 32 : index
  // CHECK:       builtin.unrealized_conversion_cast %[[N2]] : index to memref<?x8xf16, "L1">
  // CHECK:       scf.for
  // CHECK:       %[[N3:.*]] = arith.constant 288 : index
  // CHECK:       builtin.unrealized_conversion_cast %[[N3]] : index to memref<?xf32, "L1">
  func.func @dynamic_sizes(%n: index) {
    %c16 = arith.constant 16 : index
    %a = memref.alloc(%c16) : memref<?xf16, "L1">
    %m = affine.min affine_map<(d0) -> (d0, 16)>(%n)
    %b = memref.alloc(%m) : memref<?x8xf16, "L1">
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c5 step %c1 {
      %k = arith.addi %i, %c1 : index
      %c = memref.alloc(%k) : memref<?xf32, "L1">
      "test.use"(%c) : (memref<?xf32, "L1">) -> ()
    }
    "test.use"(%a, %b) : (memref<?xf16, "L1">, memref<?x8xf16, "L1">) -> ()
    return
  }
}
