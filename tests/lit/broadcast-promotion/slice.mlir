// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion | filecheck %s

// What the new stage gets from the donor stage: the transfer, the ops computing its
// operands, and the skeleton around it. The donor keeps everything else.

// The transfer is guarded by an scf.if on a function argument and indexed through
// arithmetic computed in the stage: both come along (the else branch is emptied). The donor
// keeps its scf.if, now without the transfer, and its index arithmetic, now dead.
// CHECK-LABEL: func.func @guard_and_index(
// CHECK-SAME:      %[[X:[^:]+]]: memref<8x64xf16, "DDR">, %[[BASE:[^:]+]]: index, %[[GO:[^:]+]]: i1
// CHECK:         scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          %[[ROW:.+]] = arith.addi %[[M]], %[[BASE]] : index
// CHECK-NEXT:          scf.if %[[GO]] {
// CHECK-NEXT:            ktdf.data_transfer from %[[X]][%[[ROW]], 0] size [1, 64] to %[[NEW]][0] size [64]
// CHECK:               } else {
// CHECK:               }
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.+]]:3 = ktdf.private
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:            arith.addi %[[M]], %[[BASE]] : index
// CHECK-NEXT:            scf.if %[[GO]] {
// CHECK:                 } else {
// CHECK-NEXT:              "test.log"() : () -> ()
// CHECK:                 }
// CHECK-NEXT:            "test.other"(%[[P]]#1)
// CHECK:               } {applicable_units = ["MNILU"]}
func.func @guard_and_index(%x: memref<8x64xf16, "DDR">, %base: index, %go: i1, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %m = %c0 to %c4 step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %o, %t = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %b = memref.alloc() : memref<64xf16, "L1">
          %tk = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %b, %tk : memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          %row = arith.addi %m, %base : index
          scf.if %go {
            ktdf.data_transfer from %x[%row, 0] size [1, 64] to %l[0] size [64] : memref<8x64xf16, "DDR">, memref<64xf16, "L1">
          } else {
            "test.log"() : () -> ()
          }
          "test.other"(%o) : (memref<64xf16, "L1">) -> ()
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

// A loop inside the stage whose IV the transfer uses comes along with its bounds; a loop
// whose IV it does not use is left out and its body spliced in.
// CHECK-LABEL: func.func @stage_loops(
// CHECK-SAME:      %[[T:[^:]+]]: memref<4x64xf16, "DDR">
// CHECK:         %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        scf.for %[[R:.+]] = %{{.+}} to %[[C4]] step %{{.+}} {
// CHECK-NEXT:          ktdf.data_transfer from %[[T]][%[[R]], 0] size [1, 64] to %[[NEW]][%[[R]], 0] size [1, 64]
// CHECK:             }
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
// CHECK-NEXT:    scf.for
func.func @stage_loops(%table: memref<4x64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<4x64xf16, "L1">
        %tk = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %tk : memref<4x64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        scf.for %r = %c0 to %c4 step %c1 {
          scf.for %rep = %c0 to %c3 step %c1 {
            ktdf.data_transfer from %table[%r, 0] size [1, 64] to %l[%r, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<4x64xf16, "L1">
          }
        }
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<4x64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// The stage loop's IV reaches the transfer only through index arithmetic: the loop is
// still needed (upstream decides on the loop before it has seen that arithmetic, and drops
// it).
// CHECK-LABEL: func.func @iv_through_arithmetic(
// CHECK-SAME:      %[[T:[^:]+]]: memref<256xf16, "DDR">
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:          %[[OFF:.+]] = arith.muli %[[R]], %{{.+}} : index
// CHECK-NEXT:          ktdf.data_transfer from %[[T]][%[[OFF]]] size [64] to %[[NEW]][%{{.+}}, 0] size [1, 64]
// CHECK:             }
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
func.func @iv_through_arithmetic(%table: memref<256xf16, "DDR">, %slot: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<4x64xf16, "L1">
        %tk = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %tk : memref<4x64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        scf.for %r = %c0 to %c4 step %c1 {
          %off = arith.muli %r, %c64 : index
          ktdf.data_transfer from %table[%off] size [64] to %l[%slot, 0] size [1, 64] : memref<256xf16, "DDR">, memref<4x64xf16, "L1">
        }
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<4x64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// A stage without applicable_units gives a stage without them.
// CHECK-LABEL: func.func @no_units(
// CHECK:         memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK:           }{{$}}
// CHECK:         }
func.func @no_units(%x: memref<64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %tk = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %tk : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      }
    }
  }
  return
}

// -----

// Region ops around the transfer that yield values: what their terminators yield is
// computed in the copy too (an iteration argument, a branch result).
// CHECK-LABEL: func.func @yielding_regions(
// CHECK-SAME:      %[[T:[^:]+]]: memref<4x64xf16, "DDR">, %[[GO:[^:]+]]: i1
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        %{{.+}} = scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (index) {
// CHECK-NEXT:          %[[PICK:.+]] = scf.if %[[GO]] -> (index) {
// CHECK-NEXT:            ktdf.data_transfer from %[[T]][%[[R]], 0] size [1, 64] to %[[NEW]][%[[R]], 0] size [1, 64]
// CHECK-NEXT:            %[[ONE:.+]] = arith.addi %[[ACC]], %{{.+}} : index
// CHECK:                 scf.yield %[[ONE]] : index
// CHECK:               } else {
// CHECK:                 scf.yield %[[ACC]] : index
// CHECK:               }
// CHECK:               scf.yield %[[PICK]] : index
// CHECK:             }
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
func.func @yielding_regions(%table: memref<4x64xf16, "DDR">, %go: i1, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<4x64xf16, "L1">
        %tk = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %tk : memref<4x64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        %count = scf.for %r = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
          %picked = scf.if %go -> (index) {
            ktdf.data_transfer from %table[%r, 0] size [1, 64] to %l[%r, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<4x64xf16, "L1">
            %one = arith.addi %acc, %c1 : index
            scf.yield %one : index
          } else {
            scf.yield %acc : index
          }
          scf.yield %picked : index
        }
        "test.count"(%count) : (index) -> ()
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<4x64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}
