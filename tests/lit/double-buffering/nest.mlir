// RUN: dfsched-opt %s --device=sample -double-buffering | filecheck %s

// The shape stage coarsening leaves behind a tiled loop nest: the tile loops %ti, %tj stay
// around the outer pipeline, whose private holds three scratchpad tiles sized by the tile
// placeholders. Both inputs are filled by the MNILU stage and read inside the coarse stage's
// nested pipeline; the result is written inside that nested pipeline and stored by the
// MNISU stage. All three alternate between two copies:
// * the copies are allocated before the outermost tile loop, with the placeholder sizes
//   (they are defined before it), and freed after it, the last buffer's copies first;
// * one phase of both tile IVs (outermost first) selects all three buffers;
// * the nested pipeline reads and writes the selected buffers; its private only holds
//   FIFOs, so it is left alone.

// CHECK-LABEL: func.func @tiled_add(
// CHECK:         %[[R0:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[R1:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[N0:.+]] = arith.ceildivui
// CHECK:         %[[X0:.+]] = memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x64xf16, "L1">
// CHECK:         %[[X1:.+]] = memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x64xf16, "L1">
// CHECK:         %[[Y0:.+]] = memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x64xf16, "L1">
// CHECK:         %[[Y1:.+]] = memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x64xf16, "L1">
// CHECK:         %[[Z0:.+]] = memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x64xf16, "L1">
// CHECK:         %[[Z1:.+]] = memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x64xf16, "L1">
// CHECK-NEXT:    scf.for %[[TI:.+]] = %{{.+}} to %[[N0]] step
// CHECK-NEXT:      arith.ceildivui
// CHECK-NEXT:      ktdf.tiling.derive_size
// CHECK-NEXT:      scf.for %[[TJ:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:        ktdf.tiling.derive_size
// CHECK-NEXT:        %[[PHASE:.+]] = ktdf.buffer_phase(%[[TI]], %[[TJ]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[X:.+]] = ktdf.select_memref %[[PHASE]][%[[X0]], %[[X1]]] : memref<?x?x64xf16, "L1">
// CHECK-NEXT:        %[[Y:.+]] = ktdf.select_memref %[[PHASE]][%[[Y0]], %[[Y1]]] : memref<?x?x64xf16, "L1">
// CHECK-NEXT:        %[[Z:.+]] = ktdf.select_memref %[[PHASE]][%[[Z0]], %[[Z1]]] : memref<?x?x64xf16, "L1">
// CHECK-NEXT:        ktdf.pipeline modulo(size : 2) {
// CHECK:               %[[TOK:.+]]:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
// CHECK-NOT:             memref.alloc
// CHECK:               ktdf.private_yield
// CHECK:               }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[TOK]]#0) {
// CHECK:                 ktdf.data_transfer from %{{.+}} to %[[X]][
// CHECK:                 ktdf.data_transfer from %{{.+}} to %[[Y]][
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[TOK]]#0) depends_out(%[[TOK]]#1) {
// CHECK:                 ktdf.pipeline {
// CHECK:                   ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
// CHECK:                   ktdf.data_transfer from %[[X]][
// CHECK:                   ktdf.data_transfer from %[[Y]][
// CHECK:                   ktdf.data_transfer from %{{.+}} to %[[Z]][
// CHECK:               } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[TOK]]#1) depends_out(none) {
// CHECK:                 ktdf.data_transfer from %[[Z]][
// CHECK:               } {applicable_units = ["MNISU"]}
// CHECK:             }
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    memref.dealloc %[[Z0]]
// CHECK-NEXT:    memref.dealloc %[[Z1]]
// CHECK-NEXT:    memref.dealloc %[[Y0]]
// CHECK-NEXT:    memref.dealloc %[[Y1]]
// CHECK-NEXT:    memref.dealloc %[[X0]]
// CHECK-NEXT:    memref.dealloc %[[X1]]
// CHECK:         return

func.func @tiled_add(%a: memref<6x128xf16, "DDR">, %b: memref<6x128xf16, "DDR">, %c: memref<6x128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %cols = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %row_tiles = arith.ceildivui %c6, %rows : index
  scf.for %ti = %c0 to %row_tiles step %c1 {
    %col_tiles = arith.ceildivui %c2, %cols : index
    %m = ktdf.tiling.derive_size [%ti : %rows], total_size = %c6 : index
    scf.for %tj = %c0 to %col_tiles step %c1 {
      %n = ktdf.tiling.derive_size [%tj : %cols], total_size = %c2 : index
      ktdf.pipeline {
        %x, %y, %z, %loaded, %added = ktdf.private -> (memref<?x?x64xf16, "L1">, memref<?x?x64xf16, "L1">, memref<?x?x64xf16, "L1">, !ktdf.token, !ktdf.token) {
          %xa = memref.alloc(%rows, %cols) : memref<?x?x64xf16, "L1">
          %ya = memref.alloc(%rows, %cols) : memref<?x?x64xf16, "L1">
          %za = memref.alloc(%rows, %cols) : memref<?x?x64xf16, "L1">
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %xa, %ya, %za, %t0, %t1 : memref<?x?x64xf16, "L1">, memref<?x?x64xf16, "L1">, memref<?x?x64xf16, "L1">, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%loaded) {
          scf.for %i = %c0 to %m step %c1 {
            %row = ktdf.tiling.linearize_index [%ti : %rows], [%i : %c1] : index
            scf.for %j = %c0 to %n step %c1 {
              %col = ktdf.tiling.linearize_index [%tj : %cols], [%j : %c1] : index
              ktdf.data_transfer from %a[%row, %col * 64] size [1, 64] to %x[%i, %j, 0] size [1, 1, 64] : memref<6x128xf16, "DDR">, memref<?x?x64xf16, "L1">
              ktdf.data_transfer from %b[%row, %col * 64] size [1, 64] to %y[%i, %j, 0] size [1, 1, 64] : memref<6x128xf16, "DDR">, memref<?x?x64xf16, "L1">
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%loaded) depends_out(%added) {
          scf.for %i = %c0 to %m step %c1 {
            scf.for %j = %c0 to %n step %c1 {
              ktdf.pipeline {
                %qx, %qy, %qz, %u0, %u1 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
                  %f0, %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                  %f2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
                  %k0 = ktdf.create_token : !ktdf.token
                  %k1 = ktdf.create_token : !ktdf.token
                  ktdf.private_yield %f0, %f1, %f2, %k0, %k1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%u0) {
                  ktdf.data_transfer from %x[%i, %j, 0] size [1, 1, 64] to %qx size [64] : memref<?x?x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                  ktdf.data_transfer from %y[%i, %j, 0] size [1, 1, 64] to %qy size [64] : memref<?x?x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                } {applicable_units = ["L1LU"]}
                ktdf.stage depends_in(%u0) depends_out(%u1) {
                  %vx = ktdf.read_from_fifo %qx : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
                  %vy = ktdf.read_from_fifo %qy : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
                  %vz = arith.addf %vx, %vy : tensor<64xf16>
                  ktdf.write_to_fifo %vz, %qz : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
                } {applicable_units = ["SFU"]}
                ktdf.stage depends_in(%u1) depends_out(none) {
                  ktdf.data_transfer from %qz size [64] to %z[%i, %j, 0] size [1, 1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<?x?x64xf16, "L1">
                } {applicable_units = ["L1SU"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {applicable_units = ["L1LU", "SFU", "L1SU"]}
        ktdf.stage depends_in(%added) depends_out(none) {
          scf.for %i = %c0 to %m step %c1 {
            %row = ktdf.tiling.linearize_index [%ti : %rows], [%i : %c1] : index
            scf.for %j = %c0 to %n step %c1 {
              %col = ktdf.tiling.linearize_index [%tj : %cols], [%j : %c1] : index
              ktdf.data_transfer from %z[%i, %j, 0] size [1, 1, 64] to %c[%row, %col * 64] size [1, 64] : memref<?x?x64xf16, "L1">, memref<6x128xf16, "DDR">
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// Pipelines at two levels both qualify. The outer one alternates %staged over %i. The
// inner one, in a loop inside the outer pipeline's second stage, alternates %line over %j:
// its scope ends at that stage, so its copies live inside the stage, around the %j loop.

// CHECK-LABEL: func.func @two_levels(
// CHECK:         %[[S0:.+]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK:         %[[S1:.+]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK-NEXT:    scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:      %[[P:.+]] = ktdf.buffer_phase(%[[I]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:      %[[S:.+]] = ktdf.select_memref %[[P]][%[[S0]], %[[S1]]] : memref<4x64xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
// CHECK:             %[[T:.+]] = ktdf.private -> (!ktdf.token) {
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[T]]) {
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} to %[[S]][0, 0] size [4, 64]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[T]]) depends_out(none) {
// CHECK:               %[[L0:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK:               %[[L1:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:          scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:            %[[Q:.+]] = ktdf.buffer_phase(%[[J]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:            %[[L:.+]] = ktdf.select_memref %[[Q]][%[[L0]], %[[L1]]] : memref<64xf16, "L1">
// CHECK-NEXT:            ktdf.pipeline modulo(size : 2) {
// CHECK:                   %[[U:.+]] = ktdf.private -> (!ktdf.token) {
// CHECK:                   ktdf.stage depends_in(none) depends_out(%[[U]]) {
// CHECK-NEXT:                ktdf.data_transfer from %[[S]][%[[J]], 0] size [1, 64] to %[[L]][0] size [64]
// CHECK:                   }
// CHECK-NEXT:              ktdf.stage depends_in(%[[U]]) depends_out(none) {
// CHECK-NEXT:                ktdf.data_transfer from %[[L]][0] size [64] to
// CHECK:                   }
// CHECK:                 }
// CHECK:               }
// CHECK-NEXT:          memref.dealloc %[[L0]] : memref<64xf16, "L1">
// CHECK-NEXT:          memref.dealloc %[[L1]] : memref<64xf16, "L1">
// CHECK:             } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[S0]] : memref<4x64xf16, "L1">
// CHECK-NEXT:    memref.dealloc %[[S1]] : memref<4x64xf16, "L1">
// CHECK:         return

func.func @two_levels(%src: memref<16x64xf16, "DDR">, %dst: memref<64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c4 {
    ktdf.pipeline {
      %staged, %t = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<4x64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<4x64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %src[%i, 0] size [4, 64] to %staged[0, 0] size [4, 64] : memref<16x64xf16, "DDR">, memref<4x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        scf.for %j = %c0 to %c4 step %c1 {
          ktdf.pipeline {
            %line, %u = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
              %b = memref.alloc() : memref<64xf16, "L1">
              %v = ktdf.create_token : !ktdf.token
              ktdf.private_yield %b, %v : memref<64xf16, "L1">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%u) {
              ktdf.data_transfer from %staged[%j, 0] size [1, 64] to %line[0] size [64] : memref<4x64xf16, "L1">, memref<64xf16, "L1">
            }
            ktdf.stage depends_in(%u) depends_out(none) {
              ktdf.data_transfer from %line[0] size [64] to %dst[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "L1">
            }
          }
        }
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    }
  }
  return
}
