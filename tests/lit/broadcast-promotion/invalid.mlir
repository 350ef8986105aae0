// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect -broadcast-promotion
// RUN: not dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion 2>&1 | filecheck %s

// A transfer that may leave its loop needs a fresh buffer allocated like its destination;
// a destination that is not a memref.alloc (directly or through a private) cannot have
// one. The error is on the transfer, the note on the loop it would have left.

// CHECK: invalid.mlir:[[# @LINE + 16]]:9: error: broadcast promotion: destination does not trace back to a memref.alloc
// CHECK: invalid.mlir:[[# @LINE + 7]]:3: note: the transfer would be hoisted before this loop
// CHECK-NOT: func.func
// The destination is a function argument.
func.func @argument_destination(%x: memref<64xf16, "DDR">, %l: memref<64xf16, "L1">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{the transfer would be hoisted before this loop}}
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %t = ktdf.private -> (!ktdf.token) {
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %k : !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        // expected-error @below {{broadcast promotion: destination does not trace back to a memref.alloc}}
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// The private yields a buffer it did not allocate.
func.func @private_yields_argument(%x: memref<64xf16, "DDR">, %buf: memref<64xf16, "L1">, %m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{the transfer would be hoisted before this loop}}
  scf.for %m = %c0 to %m_end step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %buf, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          // expected-error @below {{broadcast promotion: destination does not trace back to a memref.alloc}}
          ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.use"(%l) : (memref<64xf16, "L1">) -> ()
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  return
}

// -----

// The private yields a view of a buffer.
func.func @private_yields_view(%x: memref<64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{the transfer would be hoisted before this loop}}
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, strided<[1], offset: 64>, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<128xf16, "L1">
        %v = memref.subview %a[64] [64] [1] : memref<128xf16, "L1"> to memref<64xf16, strided<[1], offset: 64>, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %v, %k : memref<64xf16, strided<[1], offset: 64>, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        // expected-error @below {{broadcast promotion: destination does not trace back to a memref.alloc}}
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, strided<[1], offset: 64>, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, strided<[1], offset: 64>, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// A store to device memory that is the same on every iteration (a table kept in the
// scratchpad, written out to the same place each time) is a candidate like any other
// transfer, and device memory is no memref.alloc.
func.func @invariant_store(%out: memref<4x64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = memref.alloc() : memref<64xf16, "L1">
  // expected-note @below {{the transfer would be hoisted before this loop}}
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        // expected-error @below {{broadcast promotion: destination does not trace back to a memref.alloc}}
        ktdf.data_transfer from %table[0] size [64] to %out[0, 0] size [1, 64] : memref<64xf16, "L1">, memref<4x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}
