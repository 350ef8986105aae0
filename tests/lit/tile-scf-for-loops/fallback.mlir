// RUN: dfsched-opt %s --allow-unregistered-dialect --tile-scf-for-loops="tile-sizes=8,2 fallback-scf-tiling=true normalize-loops=false" | filecheck %s --check-prefix=DENORM
// RUN: dfsched-opt %s --allow-unregistered-dialect --tile-scf-for-loops="tile-sizes=8,2 fallback-scf-tiling=true" | filecheck %s --check-prefix=NORM
// RUN: dfsched-opt %s --allow-unregistered-dialect --tile-scf-for-loops | filecheck %s --check-prefix=DYN

// MLIR's tiling (fallback-scf-tiling, or any nest that does not run from 0 by 1): the loops
// keep their bounds and step by step*size; the point loops run iv .. minsi(ub, iv + step*size)
// by the original step and inherit loop_type.

// DENORM-LABEL: func.func @offset_rows(
// DENORM-SAME:      %[[N:[^:]*]]: index) {
// DENORM:         %[[C1:.*]] = arith.constant 1 : index
// DENORM:         %[[C2:.*]] = arith.constant 2 : index
// DENORM:         %[[C64:.*]] = arith.constant 64 : index
// DENORM:         %[[S8:.*]] = arith.constant 8 : index
// DENORM:         %[[S2:.*]] = arith.constant 2 : index
// DENORM-NEXT:    %[[STEPI:.*]] = arith.muli %[[C1]], %[[S8]] : index
// DENORM-NEXT:    scf.for %[[I:.*]] = %[[C2]] to %[[N]] step %[[STEPI]] {
// DENORM-NEXT:      %[[STEPJ:.*]] = arith.muli %[[C2]], %[[S2]] : index
// DENORM-NEXT:      scf.for %[[J:.*]] = %[[C1]] to %[[C64]] step %[[STEPJ]] {
// DENORM-NEXT:        %[[NEXTI:.*]] = arith.addi %[[I]], %[[STEPI]] : index
// DENORM-NEXT:        %[[UBI:.*]] = arith.minsi %[[N]], %[[NEXTI]] : index
// DENORM-NEXT:        scf.for %[[PI:.*]] = %[[I]] to %[[UBI]] step %[[C1]] {
// DENORM-NEXT:          %[[NEXTJ:.*]] = arith.addi %[[J]], %[[STEPJ]] : index
// DENORM-NEXT:          %[[UBJ:.*]] = arith.minsi %[[C64]], %[[NEXTJ]] : index
// DENORM-NEXT:          scf.for %[[PJ:.*]] = %[[J]] to %[[UBJ]] step %[[C2]] {
// DENORM-NEXT:            "test.use"(%[[PI]], %[[PJ]]) : (index, index) -> ()
// DENORM:               } {loop_type = #ktdf.loop_type<parallel_loop>}
// DENORM:             } {loop_type = #ktdf.loop_type<reduction_loop>}
// DENORM:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// DENORM:         } {loop_type = #ktdf.loop_type<reduction_loop>}

// With normalize-loops (the default) every loop then runs from 0 by 1 and each use of an
// induction variable reads an affine.apply of the normalized ones.

// NORM-LABEL: func.func @offset_rows(
// NORM:         %[[STEPI:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// NORM-NEXT:    %[[TRIPI:.*]] = affine.apply #{{.*}}()[%{{.*}}, %[[STEPI]]]
// NORM:         %[[Z0:.*]] = arith.constant 0 : index
// NORM:         %[[O0:.*]] = arith.constant 1 : index
// NORM-NEXT:    scf.for %[[I:.*]] = %[[Z0]] to %[[TRIPI]] step %[[O0]] {
// NORM:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NORM:             arith.minsi
// NORM:             scf.for %[[PI:.*]] = %[[Z2:c0[_0-9]*]] to %{{.*}} step %{{.*}} {
// NORM:               arith.minsi
// NORM:               scf.for %[[PJ:.*]] = %[[Z3:c0[_0-9]*]] to %{{.*}} step %{{.*}} {
// NORM-NEXT:            %[[USEJ:.*]] = affine.apply #{{.*}}(%[[PJ]], %[[J]])[%{{.*}}]
// NORM-NEXT:            %[[USEI:.*]] = affine.apply #{{.*}}(%[[PI]], %[[I]])[%{{.*}}]
// NORM-NEXT:            "test.use"(%[[USEI]], %[[USEJ]]) : (index, index) -> ()
// NORM:               } {loop_type = #ktdf.loop_type<parallel_loop>}
// NORM:             } {loop_type = #ktdf.loop_type<reduction_loop>}
// NORM:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// NORM:         } {loop_type = #ktdf.loop_type<reduction_loop>}

// Dynamic mode on this nest: the outer loop is a reduction, so it closes a nest of depth one
// (strip-mining, not tiling) and the inner loop is a single loop inside another: untouched.

// DYN-LABEL: func.func @offset_rows(
// DYN-NOT:     ktdf.tiling
// DYN-NOT:     arith.minsi
// DYN:         return
func.func @offset_rows(%n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c2 to %n step %c1 {
    scf.for %j = %c1 to %c64 step %c2 {
      "test.use"(%i, %j) : (index, index) -> ()
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}

// The same nest with parallel loops in dynamic mode: the custom scheme needs loops from 0 by 1,
// so placeholders feed MLIR's tiling and the loops are normalized.

// DYN-LABEL: func.func @offset_parallel(
// DYN:         %[[C1:.*]] = arith.constant 1 : index
// DYN:         %[[C2:.*]] = arith.constant 2 : index
// DYN:         %[[C64:.*]] = arith.constant 64 : index
// DYN-NEXT:    %[[RI:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// DYN-NEXT:    %[[RJ:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// DYN-NEXT:    %[[STEPI:.*]] = arith.muli %[[C1]], %[[RI]] : index
// DYN-NEXT:    affine.apply #{{.*}}()[%{{.*}}, %[[STEPI]]]
// DYN:         %[[STEPJ:.*]] = arith.muli %[[C2]], %[[RJ]] : index
// DYN-NOT:     ktdf.tiling.derive_size
// DYN:         return
func.func @offset_parallel(%n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c2 to %n step %c1 {
    scf.for %j = %c1 to %c64 step %c2 {
      "test.use"(%i, %j) : (index, index) -> ()
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
