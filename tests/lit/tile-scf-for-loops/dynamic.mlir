// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --tile-scf-for-loops | filecheck %s

// Dynamic mode (the pipeline's): perfect nests of two or more parallel loops get one
// ktdf.tiling.reserve_size per loop, before the outermost loop and in loop order, and are
// tiled with them.

// An imperfect nest: the outer loop holds another op, so it is a nest of its own (a single
// outermost loop: strip-mining, not tiling); the perfect 2-deep nest inside it is tiled.

// CHECK-LABEL: func.func @imperfect(
// CHECK-SAME:      %[[A:.*]]: memref<8x16x64xf16>) {
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         scf.for %[[B:[^ ]*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      "test.prologue"(%[[B]]) : (index) -> ()
// CHECK-NEXT:      %[[RI:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:      %[[RJ:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:           %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[NI:.*]] = arith.ceildivui %[[C16]], %[[RI]] : index
// CHECK-NEXT:      scf.for %[[TI:.*]] = %[[ZERO]] to %[[NI]] step %[[ONE]] {
// CHECK-NEXT:        %[[NJ:.*]] = arith.ceildivui %[[C64]], %[[RJ]] : index
// CHECK-NEXT:        scf.for %[[TJ:.*]] = %[[ZERO]] to %[[NJ]] step %[[ONE]] {
// CHECK-NEXT:          %[[SI:.*]] = ktdf.tiling.derive_size [%[[TI]] : %[[RI]]], total_size = %[[C16]] : index
// CHECK-NEXT:          %[[SJ:.*]] = ktdf.tiling.derive_size [%[[TJ]] : %[[RJ]]], total_size = %[[C64]] : index
// CHECK-NEXT:          scf.for %[[PI:.*]] = %[[ZERO]] to %[[SI]] step %[[ONE]] {
// CHECK-NEXT:            scf.for %[[PJ:.*]] = %[[ZERO]] to %[[SJ]] step %[[ONE]] {
// CHECK-NEXT:              %[[J:.*]] = ktdf.tiling.linearize_index [%[[TJ]] : %[[RJ]]], [%[[PJ]] : %[[ONE]]] : index
// CHECK-NEXT:              %[[I:.*]] = ktdf.tiling.linearize_index [%[[TI]] : %[[RI]]], [%[[PI]] : %[[ONE]]] : index
// CHECK-NEXT:              memref.load %[[A]][%[[B]], %[[I]], %[[J]]] : memref<8x16x64xf16>
// CHECK:                 } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:               } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @imperfect(%A: memref<8x16x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %b = %c0 to %c8 step %c1 {
    "test.prologue"(%b) : (index) -> ()
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = memref.load %A[%b, %i, %j] : memref<8x16x64xf16>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A sub-nest ends at (and includes) its first reduction loop (upstream's rule), so the
// innermost reduction loop is tiled with the two parallel loops around it.

// CHECK-LABEL: func.func @reduction_innermost(
// CHECK-COUNT-3: ktdf.tiling.reserve_size
// CHECK:         ktdf.tiling.derive_size
// CHECK-NEXT:    ktdf.tiling.derive_size
// CHECK-NEXT:    ktdf.tiling.derive_size
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         return
func.func @reduction_innermost(%A: memref<8x16x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %b = %c0 to %c8 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = memref.load %A[%b, %i, %j] : memref<8x16x64xf16>
      } {loop_type = #ktdf.loop_type<reduction_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Nothing to tile: an outer reduction loop closes a nest of depth one, and the parallel loop
// inside it is then a single loop with a loop around it; a lone loop, parallel or not, and
// loops without loop_type (not parallel) are left as they are.

// CHECK-LABEL: func.func @untouched(
// CHECK-NOT:     ktdf.tiling
// CHECK-NOT:     arith.ceildivui
// CHECK:         return
func.func @untouched(%A: memref<8x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %b = %c0 to %c8 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %A[%b, %i] : memref<8x16xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %A[%c0, %i] : memref<8x16xf16>
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %b = %c0 to %c8 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %A[%b, %i] : memref<8x16xf16>
    }
  }
  return
}

// -----

// The pipeline's shape: a parallel nest around a ktdf.pipeline whose transfers index with the
// induction variables. The pipeline moves into the point loops unchanged, its indices read
// the linearize_index values.

// CHECK-LABEL: func.func @pipeline_nest(
// CHECK-SAME:      %[[A:[^:]*]]: memref<32x128xf16>
// CHECK:         %[[RI:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[RJ:.*]] = ktdf.tiling.reserve_size
// CHECK:               %[[J:.*]] = ktdf.tiling.linearize_index [%{{.*}} : %[[RJ]]], [%{{.*}} : %{{.*}}] : index
// CHECK-NEXT:          %[[I:.*]] = ktdf.tiling.linearize_index [%{{.*}} : %[[RI]]], [%{{.*}} : %{{.*}}] : index
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 ktdf.data_transfer from %[[A]][%[[I]], %[[J]] * 64] size [1, 64] to %{{.*}} size [64]
func.func @pipeline_nest(%A: memref<32x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      ktdf.pipeline {
        %slot = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>) {
          %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          ktdf.private_yield %s : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(none) depends_out(none) {
          ktdf.data_transfer from %A[%i, %j * 64] size [1, 64] to %slot size [64]
            : memref<32x128xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        } {applicable_units = ["MNILU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Perfect nests deeper than four loops are analysed as their outermost four: four
// placeholders; the custom scheme needs one size per loop of the whole perfect nest, so this
// nest takes MLIR's tiling of its first four loops (steps multiplied by the sizes).

// CHECK-LABEL: func.func @five_deep(
// CHECK-COUNT-4: ktdf.tiling.reserve_size
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK-NOT:     ktdf.tiling.derive_size
// CHECK-COUNT-4: arith.minsi
// CHECK-NOT:     arith.minsi
// CHECK:         return
func.func @five_deep(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %a = %c0 to %n step %c1 {
    scf.for %b = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        scf.for %d = %c0 to %n step %c1 {
          scf.for %e = %c0 to %n step %c1 {
            "test.use"(%a, %b, %c, %d, %e) : (index, index, index, index, index) -> ()
          } {loop_type = #ktdf.loop_type<parallel_loop>}
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
