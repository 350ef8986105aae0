// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion | filecheck %s

// Who reads the new buffer after a hoist.

// Every later stage that read the old buffer reads the new one, and so does a reader in
// the donor stage itself (upstream leaves that one reading a buffer nothing fills any
// more). The private keeps yielding the old buffer, as upstream leaves it.
// CHECK-LABEL: func.func @all_readers(
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             %[[P:.+]]:3 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:               %[[OLD:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK:               ktdf.create_token
// CHECK:               ktdf.create_token
// CHECK:               ktdf.private_yield %[[OLD]], %{{.+}}, %{{.+}} :
// CHECK:             }
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(%[[P]]#1) {
// CHECK-NEXT:          "test.peek"(%[[NEW]])
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#1) depends_out(%[[P]]#2) {
// CHECK-NEXT:          "test.first"(%[[NEW]])
// CHECK:             }
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#2) depends_out(none) {
// CHECK-NEXT:          "test.second"(%[[NEW]])
// CHECK:             }
func.func @all_readers(%x: memref<64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t0, %t1 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0, %k1 : memref<64xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        "test.peek"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        "test.first"(%l) : (memref<64xf16, "L1">) -> ()
      }
      ktdf.stage depends_in(%t1) depends_out(none) {
        "test.second"(%l) : (memref<64xf16, "L1">) -> ()
      }
    }
  }
  return
}

// -----

// The destination is allocated before the loop nest, not in a private. The copy goes to a
// fresh buffer before %m (nothing in the nest writes the buffer but the transfer); what
// reads the buffer from there on (in %m, in %n, after the nest) reads the copy, what reads
// it before keeps the old buffer.
// CHECK-LABEL: func.func @function_level_buffer(
// CHECK:         %[[OLD:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    "test.before"(%[[OLD]])
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %{{.+}}[0] size [64] to %[[NEW]][0] size [64]
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      "test.outer"(%[[NEW]])
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               "test.inside"(%[[NEW]])
// CHECK:           "test.after_n"(%[[NEW]])
// CHECK:         }
// CHECK-NEXT:    "test.after_m"(%[[NEW]])
func.func @function_level_buffer(%x: memref<64xf16, "DDR">, %m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<64xf16, "L1">
  "test.before"(%buf) : (memref<64xf16, "L1">) -> ()
  scf.for %m = %c0 to %m_end step %c1 {
    "test.outer"(%buf) : (memref<64xf16, "L1">) -> ()
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %t = ktdf.private -> (!ktdf.token) {
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %k : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        }
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.inside"(%buf) : (memref<64xf16, "L1">) -> ()
        }
      }
    }
    "test.after_n"(%buf) : (memref<64xf16, "L1">) -> ()
  }
  "test.after_m"(%buf) : (memref<64xf16, "L1">) -> ()
  return
}
