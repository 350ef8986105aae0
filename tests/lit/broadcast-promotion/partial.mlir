// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion | filecheck %s

// The loops around a pipeline are tried innermost first, and the first one a condition
// fails in ends the walk: the transfer goes right inside that loop.

// Invariant in %k and in %i but not in %j: it leaves %k only.
// CHECK-LABEL: func.func @middle_loop_blocks(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4x64xf16, "DDR">
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:            ktdf.data_transfer from %[[X]][%[[J]], 0] size [1, 64] to %[[NEW]][0] size [64]
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK:             }
// CHECK-NEXT:        scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 "test.use"(%[[NEW]])
func.func @middle_loop_blocks(%x: memref<4x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        ktdf.pipeline {
          %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
            %a = memref.alloc() : memref<64xf16, "L1">
            %tk = ktdf.create_token : !ktdf.token
            ktdf.private_yield %a, %tk : memref<64xf16, "L1">, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%t) {
            ktdf.data_transfer from %x[%j, 0] size [1, 64] to %l[0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%t) depends_out(none) {
            "test.use"(%l) : (memref<64xf16, "L1">) -> ()
          } {applicable_units = ["L1LU"]}
        }
      }
    }
  }
  return
}

// -----

// Invariant in both loops, but the %m loop also stores into the source between %n's runs:
// the copy may leave %n, not %m.
// CHECK-LABEL: func.func @outer_loop_writes_source(
// CHECK-SAME:      %[[X:[^:]+]]: memref<64xf16, "DDR">
// CHECK:         scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      memref.store %{{.+}}, %[[X]][%[[M]]]
// CHECK:           %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[X]][0] size [64] to %[[NEW]][0] size [64]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
func.func @outer_loop_writes_source(%x: memref<64xf16, "DDR">, %v: f16, %m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %m = %c0 to %m_end step %c1 {
    memref.store %v, %x[%m] : memref<64xf16, "DDR">
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %tk = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %tk : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
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

// The row index is computed in the %m loop, before %n: the copy can leave %n (the index is
// visible there) but not %m.
// CHECK-LABEL: func.func @index_between_loops(
// CHECK-SAME:      %[[X:[^:]+]]: memref<8x64xf16, "DDR">
// CHECK:         scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[ROW:.+]] = arith.addi %[[M]], %{{.+}} : index
// CHECK:           %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[X]][%[[ROW]], 0] size [1, 64] to %[[NEW]][0] size [64]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
func.func @index_between_loops(%x: memref<8x64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %m = %c0 to %c4 step %c1 {
    %row = arith.addi %m, %c4 : index
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %tk = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %tk : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[%row, 0] size [1, 64] to %l[0] size [64] : memref<8x64xf16, "DDR">, memref<64xf16, "L1">
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

// The buffer's size is computed in the %m loop: the new buffer is allocated there too,
// before %n, with the same size.
// CHECK-LABEL: func.func @buffer_size_between_loops(
// CHECK:         scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[SIZE:.+]] = arith.addi %[[M]], %{{.+}} : index
// CHECK:           %[[NEW:.+]] = memref.alloc(%[[SIZE]]) : memref<?xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}}[0] size [64] to %[[NEW]][0] size [64]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               ktdf.private -> (memref<?xf16, "L1">, !ktdf.token) {
// CHECK:                 memref.alloc(%[[SIZE]]) : memref<?xf16, "L1">
func.func @buffer_size_between_loops(%x: memref<?xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %m = %c0 to %c4 step %c1 {
    %size = arith.addi %m, %c64 : index
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<?xf16, "L1">, !ktdf.token) {
          %a = memref.alloc(%size) : memref<?xf16, "L1">
          %tk = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %tk : memref<?xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<?xf16, "DDR">, memref<?xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.use"(%l) : (memref<?xf16, "L1">) -> ()
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  return
}
