// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion | filecheck %s

// Hierarchical pipelines, as stage coarsening leaves them.

// The shape of a tiled row scaling Y[r][c] = X[r][c] * s[r] after stage coarsening: tile
// loops %ti (4 rows) and %tj (2 column chunks) around the outer pipeline; its MNILU stage
// loads the tile through a loop nest, the coarse stage runs a nested pipeline per element.
// s depends on %ti but not on %tj, so its loads (one per row of the tile) leave %tj: the
// new stage keeps the row loop (the transfer uses its IV) and drops the column loop (it
// does not). The nested pipeline reads the new buffer; the donor stage keeps the X load
// and s's now dead index arithmetic.
// CHECK-LABEL: func.func @tiled_row_scale(
// CHECK-SAME:      %[[X:[^:]+]]: memref<16x128xf16, "DDR">, %[[S:[^:]+]]: memref<16xf16, "DDR">
// CHECK:         scf.for %[[TI:.+]] = %[[C0:[^ ]+]] to %{{.+}} step %[[C1:[^ ]+]] {
// CHECK-NEXT:      %[[ROW0:.+]] = arith.muli %[[TI]], %[[C4:[^ ]+]] : index
// CHECK:           %[[NEW:.+]] = memref.alloc() : memref<4x1xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          scf.for %[[R:.+]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:            %[[ROW:.+]] = arith.addi %[[ROW0]], %[[R]] : index
// CHECK-NEXT:            ktdf.data_transfer from %[[S]][%[[ROW]]] size [1] to %[[NEW]][%[[R]], 0] size [1, 1] : memref<16xf16, "DDR">, memref<4x1xf16, "L1">
// CHECK:               }
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %[[TJ:.+]] = %[[C0]] to %{{.+}} step %[[C1]] {
// CHECK-NEXT:        %[[COL0:.+]] = arith.muli %[[TJ]], %{{.+}} : index
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.+]]:4 = ktdf.private -> (memref<4x1x64xf16, "L1">, memref<4x1xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:            scf.for %[[R1:.+]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:              %[[XROW:.+]] = arith.addi %[[ROW0]], %[[R1]] : index
// CHECK-NEXT:              scf.for %[[CC:.+]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:                %[[COL:.+]] = arith.addi %[[COL0]], %[[CC]] : index
// CHECK-NEXT:                ktdf.data_transfer from %[[X]][%[[XROW]], %[[COL]]] size [1, 64] to %[[P]]#0[%[[R1]], %[[CC]], 0]
// CHECK-NEXT:                arith.addi %[[ROW0]], %[[R1]] : index
// CHECK:                   }
// CHECK:                 }
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK:                     ktdf.data_transfer from %[[P]]#0[%{{.+}}, %{{.+}}, 0] size [1, 1, 64] to %{{.+}}#0 size [64]
// CHECK-NEXT:                ktdf.data_transfer from %[[NEW]][%{{.+}}, 0] size [1, 1] to %{{.+}}#1 size [1] : memref<4x1xf16, "L1">
// CHECK:               } {applicable_units = ["L1LU", "SFU"]}
// CHECK-NOT:       ktdf.data_transfer from %[[S]]
func.func @tiled_row_scale(%x: memref<16x128xf16, "DDR">, %s: memref<16xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %ti = %c0 to %c4 step %c1 {
    %row0 = arith.muli %ti, %c4 : index
    scf.for %tj = %c0 to %c2 step %c1 {
      %col0 = arith.muli %tj, %c64 : index
      ktdf.pipeline {
        %lx, %ls, %t0, %t1 = ktdf.private -> (memref<4x1x64xf16, "L1">, memref<4x1xf16, "L1">, !ktdf.token, !ktdf.token) {
          %a = memref.alloc() : memref<4x1x64xf16, "L1">
          %b = memref.alloc() : memref<4x1xf16, "L1">
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %b, %k0, %k1 : memref<4x1x64xf16, "L1">, memref<4x1xf16, "L1">, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          scf.for %r = %c0 to %c4 step %c1 {
            %xrow = arith.addi %row0, %r : index
            scf.for %cc = %c0 to %c1 step %c1 {
              %col = arith.addi %col0, %cc : index
              ktdf.data_transfer from %x[%xrow, %col] size [1, 64] to %lx[%r, %cc, 0] size [1, 1, 64] : memref<16x128xf16, "DDR">, memref<4x1x64xf16, "L1">
              %srow = arith.addi %row0, %r : index
              ktdf.data_transfer from %s[%srow] size [1] to %ls[%r, 0] size [1, 1] : memref<16xf16, "DDR">, memref<4x1xf16, "L1">
            }
          }
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          scf.for %r = %c0 to %c4 step %c1 {
            scf.for %cc = %c0 to %c1 step %c1 {
              ktdf.pipeline {
                %fx, %fs, %u = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.token) {
                  %f:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
                  %k = ktdf.create_token : !ktdf.token
                  ktdf.private_yield %f#0, %f#1, %k : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%u) {
                  ktdf.data_transfer from %lx[%r, %cc, 0] size [1, 1, 64] to %fx size [64] : memref<4x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                  ktdf.data_transfer from %ls[%r, 0] size [1, 1] to %fs size [1] : memref<4x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
                } {applicable_units = ["L1LU"]}
                ktdf.stage depends_in(%u) depends_out(none) {
                  "test.scale"(%fx, %fs) : (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>) -> ()
                } {applicable_units = ["SFU"]}
              }
            }
          }
        } {applicable_units = ["L1LU", "SFU"]}
        ktdf.stage depends_in(%t1) depends_out(none) {
          "test.store"(%lx) : (memref<4x1x64xf16, "L1">) -> ()
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A nested pipeline's scope ends at its stage: the invariant load moves in front of the
// inner loop, inside the outer stage, never outside it.
// CHECK-LABEL: func.func @inside_outer_stage(
// CHECK-SAME:      %[[X:[^:]+]]: memref<8x64xf16, "DDR">
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           %[[T:.+]] = ktdf.private -> (!ktdf.token) {
// CHECK:             ktdf.create_token
// CHECK:             ktdf.private_yield
// CHECK:           }
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[T]]) {
// CHECK-NEXT:        scf.for %[[M:.+]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK:               %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:          ktdf.pipeline {
// CHECK-NEXT:            ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:              ktdf.data_transfer from %[[X]][%[[M]], 0] size [1, 64] to %[[NEW]][0] size [64]
// CHECK:                 } {applicable_units = ["MNILU"]}
// CHECK:               }
// CHECK-NEXT:          scf.for %{{.+}} = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   "test.use"(%[[NEW]])
// CHECK:             } {applicable_units = ["MNILU", "L1LU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T]]) depends_out(none) {
// CHECK-NEXT:        "test.done"
func.func @inside_outer_stage(%x: memref<8x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  ktdf.pipeline {
    %outer = ktdf.private -> (!ktdf.token) {
      %k = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%outer) {
      scf.for %m = %c0 to %c8 step %c1 {
        scf.for %n = %c0 to %c8 step %c1 {
          ktdf.pipeline {
            %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
              %a = memref.alloc() : memref<64xf16, "L1">
              %k = ktdf.create_token : !ktdf.token
              ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t) {
              ktdf.data_transfer from %x[%m, 0] size [1, 64] to %l[0] size [64] : memref<8x64xf16, "DDR">, memref<64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%t) depends_out(none) {
              "test.use"(%l) : (memref<64xf16, "L1">) -> ()
            } {applicable_units = ["L1LU"]}
          }
        }
      }
    } {applicable_units = ["MNILU", "L1LU"]}
    ktdf.stage depends_in(%outer) depends_out(none) {
      "test.done"() : () -> ()
    } {applicable_units = ["MNISU"]}
  }
  return
}

// -----

// The candidate of the outer pipeline sits in a pipeline nested in its coarse stage (the
// nested pipeline's own scope, %r, does not allow it: the transfer uses %r); it depends on
// neither %n nor %m and leaves both. The copy keeps the row loop and the nested pipeline
// around the transfer, with one stage that waits for nothing and signals nothing, and no
// private. The donor's nested stages keep their tokens.
// CHECK-LABEL: func.func @nested_candidate(
// CHECK-SAME:      %[[T:[^:]+]]: memref<4x64xf16, "DDR">
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:          ktdf.pipeline {
// CHECK-NEXT:            ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:              ktdf.data_transfer from %[[T]][%[[R]], 0] size [1, 64] to %[[NEW]][%[[R]], 0] size [1, 64]
// CHECK:                 } {applicable_units = ["L1LU"]}
// CHECK:               }
// CHECK:             }
// CHECK:           } {applicable_units = ["L1LU", "SFU"]}
// CHECK:         }
// CHECK-NEXT:    scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[OUT:.+]]) {
// CHECK-NEXT:            scf.for
// CHECK-NEXT:              ktdf.pipeline {
// CHECK:                     %[[U:.+]] = ktdf.private
// CHECK:                       ktdf.create_token
// CHECK:                       ktdf.private_yield
// CHECK:                     }
// CHECK-NEXT:                ktdf.stage depends_in(none) depends_out(%[[U]]) {
// CHECK:                     } {applicable_units = ["L1LU"]}
// CHECK-NEXT:                ktdf.stage depends_in(%[[U]]) depends_out(none) {
// CHECK-NEXT:                  "test.use"(%[[NEW]])
func.func @nested_candidate(%table: memref<4x64xf16, "DDR">, %m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %m = %c0 to %m_end step %c1 {
    %row = arith.addi %m, %c1 : index
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<4x64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<4x64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          scf.for %r = %c0 to %c4 step %c1 {
            ktdf.pipeline {
              %u = ktdf.private -> (!ktdf.token) {
                %k = ktdf.create_token : !ktdf.token
                ktdf.private_yield %k : !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%u) {
                ktdf.data_transfer from %table[%r, 0] size [1, 64] to %l[%r, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<4x64xf16, "L1">
              } {applicable_units = ["L1LU"]}
              ktdf.stage depends_in(%u) depends_out(none) {
                "test.use"(%l) : (memref<4x64xf16, "L1">) -> ()
              } {applicable_units = ["SFU"]}
            }
          }
        } {applicable_units = ["L1LU", "SFU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.store"(%l, %row) : (memref<4x64xf16, "L1">, index) -> ()
        } {applicable_units = ["MNISU"]}
      }
    }
  }
  return
}
