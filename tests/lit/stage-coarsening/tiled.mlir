// RUN: dfsched-opt %s --device=sample -p stage-coarsening | filecheck %s --check-prefix=TWO
// RUN: dfsched-opt %s --device=sample -p 'stage-coarsening{loop-nest-depth=1}' | filecheck %s --check-prefix=ONE
// RUN: dfsched-opt %s --device=sample -p 'stage-coarsening{loop-nest-depth=4}' | filecheck %s --check-prefix=FOUR
// RUN: dfsched-opt %s --device=sample -p 'stage-coarsening{loop-nest-depth=0}' | filecheck %s --check-prefix=ZERO

// Tile loops (%i0 over 8 rows in tiles of 4, %j0 over 256 columns in tiles of 128) around
// point loops (%i1, %j1 step 64). `loop-nest-depth` says how many loops around the pipeline
// are sunk into it: by default the two point loops, so each buffer holds one 4x2 tile of
// vectors and the tile loops stay around the new pipeline.

func.func @sub_tiles(%x: memref<8x256xf16, "DDR">, %z: memref<8x256xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  scf.for %i0 = %c0 to %c8 step %c4 {
    scf.for %j0 = %c0 to %c256 step %c128 {
      scf.for %i1 = %c0 to %c4 step %c1 {
        scf.for %j1 = %c0 to %c128 step %c64 {
          ktdf.pipeline {
            %lx, %lz, %rx, %qx, %qz, %t0, %t1, %t2, %t3 = ktdf.private -> (
                memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "SFU_REG">,
                !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
                !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %a0 = memref.alloc() : memref<64xf16, "L1">
              %a1 = memref.alloc() : memref<64xf16, "L1">
              %r0 = memref.alloc() : memref<64xf16, "SFU_REG">
              %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
              %k0 = ktdf.create_token : !ktdf.token
              %k1 = ktdf.create_token : !ktdf.token
              %k2 = ktdf.create_token : !ktdf.token
              %k3 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %a0, %a1, %r0, %f0, %f1, %k0, %k1, %k2, %k3 :
                  memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "SFU_REG">,
                  !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
                  !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              %row = arith.addi %i0, %i1 : index
              %col = arith.addi %j0, %j1 : index
              ktdf.data_transfer from %x[%row, %col] size [1, 64] to %lx[0] size [64] : memref<8x256xf16, "DDR">, memref<64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              ktdf.data_transfer from %lx[0] size [64] to %qx size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%t1) depends_out(%t2) {
              ktdf.data_transfer from %qx to %rx[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
              linalg.sub ins(%rx, %rx : memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">) outs(%rx : memref<64xf16, "SFU_REG">)
              ktdf.data_transfer from %rx[0] size [64] to %qz size [64] : memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%t2) depends_out(%t3) {
              ktdf.data_transfer from %qz size [64] to %lz[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%t3) depends_out(none) {
              %row = arith.addi %i0, %i1 : index
              %col = arith.addi %j0, %j1 : index
              ktdf.data_transfer from %lz[0] size [64] to %z[%row, %col] size [1, 64] : memref<64xf16, "L1">, memref<8x256xf16, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// Default depth 2: the tile loops stay outside, the point loops are sunk. The buffers hold
// the 4 rows x 2 vectors of one tile; the tile IVs still feed the DDR indices.
// TWO-LABEL: func.func @sub_tiles(
// TWO:         scf.for %[[I0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// TWO-NEXT:      scf.for %[[J0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// TWO-NEXT:        ktdf.pipeline {
// TWO:               %[[P:.+]]:4 = ktdf.private -> (memref<4x2x64xf16, "L1">, memref<4x2x64xf16, "L1">, !ktdf.token, !ktdf.token)
// TWO:             ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// TWO-NEXT:          scf.for %[[I1:.+]] = %[[C0:.+]] to %[[C4:.+]] step %[[C1:[^ ]+]] {
// TWO-NEXT:            scf.for %[[J1:.+]] = %[[C0]] to %[[C128:.+]] step %[[C64:[^ ]+]] {
// TWO-NEXT:              %[[ROW:.+]] = arith.addi %[[I0]], %[[I1]] : index
// TWO-NEXT:              %[[COL:.+]] = arith.addi %[[J0]], %[[J1]] : index
// TWO-NEXT:              arith.subi %[[I1]], %[[C0]]
// TWO-NEXT:              %[[A:.+]] = arith.divsi %{{.+}}, %[[C1]]
// TWO-NEXT:              arith.subi %[[J1]], %[[C0]]
// TWO-NEXT:              %[[B:.+]] = arith.divsi %{{.+}}, %[[C64]]
// TWO-NEXT:              ktdf.data_transfer from %{{.+}}[%[[ROW]], %[[COL]]] size [1, 64] to %[[P]]#0[%[[A]], %[[B]], 0] size [1, 1, 64]
// TWO:             } {applicable_units = ["MNILU"]}
// TWO-NEXT:        ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// TWO-NEXT:          scf.for
// TWO-NEXT:            scf.for
// TWO-NEXT:              ktdf.pipeline {
// TWO:                     ktdf.private -> (memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token)
// TWO:             } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// TWO-NEXT:        ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// TWO:             ktdf.data_transfer from %[[P]]#1[{{.+}}] size [1, 1, 64] to %{{.+}} size [1, 64] : memref<4x2x64xf16, "L1">, memref<8x256xf16, "DDR">
// TWO:           } {applicable_units = ["MNISU"]}
// TWO:           }
// TWO:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// TWO:       } {loop_type = #ktdf.loop_type<parallel_loop>}

// Depth 1: only the vector loop is sunk; a buffer holds the 2 vectors of one row.
// ONE-LABEL: func.func @sub_tiles(
// ONE:         scf.for
// ONE-NEXT:      scf.for
// ONE-NEXT:        scf.for %[[I1:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// ONE-NEXT:          ktdf.pipeline {
// ONE:                 %[[P:.+]]:4 = ktdf.private -> (memref<2x64xf16, "L1">, memref<2x64xf16, "L1">, !ktdf.token, !ktdf.token)
// ONE:               ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// ONE-NEXT:            scf.for %[[J1:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// ONE-NEXT:              arith.addi %{{.+}}, %[[I1]]
// ONE-NEXT:              arith.addi %{{.+}}, %[[J1]]
// ONE-NEXT:              arith.subi %[[J1]]
// ONE-NEXT:              %[[B:.+]] = arith.divsi
// ONE-NEXT:              ktdf.data_transfer from %{{.+}} size [1, 64] to %[[P]]#0[%[[B]], 0] size [1, 64] : memref<8x256xf16, "DDR">, memref<2x64xf16, "L1">
// ONE:               ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// ONE-NEXT:            scf.for
// ONE-NEXT:              ktdf.pipeline {
// ONE:                     ktdf.data_transfer from %[[P]]#0[%{{.+}}, 0] size [1, 64] to %{{.+}} size [64]

// Depth 4: the whole nest is sunk; the new pipeline replaces it in the function and the
// buffers hold the whole 8x256 block (2 x 2 tiles of 4 x 2 vectors).
// FOUR-LABEL: func.func @sub_tiles(
// FOUR-NOT:    scf.for
// FOUR:        ktdf.pipeline {
// FOUR:          %[[P:.+]]:4 = ktdf.private -> (memref<2x2x4x2x64xf16, "L1">, memref<2x2x4x2x64xf16, "L1">, !ktdf.token, !ktdf.token)
// FOUR:          ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// FOUR-NEXT:       scf.for
// FOUR-NEXT:         scf.for
// FOUR-NEXT:           scf.for
// FOUR-NEXT:             scf.for
// FOUR-NEXT:               arith.addi
// FOUR-NEXT:               arith.addi
// FOUR-COUNT-8:            arith.
// FOUR-NEXT:               ktdf.data_transfer from %{{.+}} size [1, 64] to %[[P]]#0[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, 0] size [1, 1, 1, 1, 64]
// FOUR:          ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// FOUR-COUNT-4:    scf.for
// FOUR-NEXT:               ktdf.pipeline {

// Depth 0 sinks nothing.
// ZERO:        scf.for
// ZERO-NEXT:     scf.for
// ZERO-NEXT:       scf.for
// ZERO-NEXT:         scf.for
// ZERO-NEXT:           ktdf.pipeline {
// ZERO:                  ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
