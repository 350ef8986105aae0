// RUN: dfsched-opt %s --strip-mine-scf-for-loops="strip-mine-size=16 normalize-loops=false" | filecheck %s --check-prefix=DENORM
// RUN: dfsched-opt %s --strip-mine-scf-for-loops="strip-mine-size=16" | filecheck %s --check-prefix=NORM
// RUN: dfsched-opt %s --strip-mine-scf-for-loops="strip-mine-size=16,4" | filecheck %s --check-prefix=NORM

// Every loop, nested ones included, is strip-mined by the static size (only the first entry of
// the list counts): the loop steps by step*16 and its body moves into an inner loop
// iv .. minsi(ub, iv + step*16) by the original step, which inherits loop_type. A size that
// does not divide the trip count (16 into 40) leaves a short last strip.

// DENORM-LABEL: func.func @rows(
// DENORM-SAME:      %[[A:[^:]*]]: memref<40x8xf16>) {
// DENORM:         %[[C1:.*]] = arith.constant 1 : index
// DENORM:         %[[C8:.*]] = arith.constant 8 : index
// DENORM:         %[[C40:.*]] = arith.constant 40 : index
// DENORM:         %[[S16:.*]] = arith.constant 16 : index
// DENORM-NEXT:    %[[STEPI:.*]] = arith.muli %[[C1]], %[[S16]] : index
// DENORM-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[C40]] step %[[STEPI]] {
// DENORM-NEXT:      %[[NEXTI:.*]] = arith.addi %[[I]], %[[STEPI]] : index
// DENORM-NEXT:      %[[UBI:.*]] = arith.minsi %[[C40]], %[[NEXTI]] : index
// DENORM-NEXT:      scf.for %[[II:.*]] = %[[I]] to %[[UBI]] step %[[C1]] {
// DENORM:             %[[S16J:.*]] = arith.constant 16 : index
// DENORM-NEXT:        %[[STEPJ:.*]] = arith.muli %[[C1]], %[[S16J]] : index
// DENORM-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %[[C8]] step %[[STEPJ]] {
// DENORM-NEXT:          %[[NEXTJ:.*]] = arith.addi %[[J]], %[[STEPJ]] : index
// DENORM-NEXT:          %[[UBJ:.*]] = arith.minsi %[[C8]], %[[NEXTJ]] : index
// DENORM-NEXT:          scf.for %[[JJ:.*]] = %[[J]] to %[[UBJ]] step %[[C1]] {
// DENORM-NEXT:            memref.load %[[A]][%[[II]], %[[JJ]]] : memref<40x8xf16>
// DENORM:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// DENORM:             } {loop_type = #ktdf.loop_type<reduction_loop>}
// DENORM:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// DENORM:         } {loop_type = #ktdf.loop_type<parallel_loop>}

// With normalize-loops (the default) only the inner loops are normalized: they run from 0 by 1
// over the strip's length, and the index reads iv + strip start. The outer loops keep their
// steps (upstream's choice).

// NORM:       #[[LEN:.*]] = affine_map<()[s0, s1] -> (-s0 + s1)>
// NORM:       #[[AT:.*]] = affine_map<(d0)[s0] -> (d0 + s0)>
// NORM-LABEL: func.func @rows(
// NORM-SAME:      %[[A:[^:]*]]: memref<40x8xf16>) {
// NORM:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[STEPI:.*]] {
// NORM-NEXT:      %[[NEXTI:.*]] = arith.addi %[[I]], %[[STEPI]] : index
// NORM-NEXT:      %[[UBI:.*]] = arith.minsi %{{.*}}, %[[NEXTI]] : index
// NORM-NEXT:      %[[LENI:.*]] = affine.apply #[[LEN]]()[%[[I]], %[[UBI]]]
// NORM:           %[[Z:.*]] = arith.constant 0 : index
// NORM:           %[[O:.*]] = arith.constant 1 : index
// NORM-NEXT:      scf.for %[[II:.*]] = %[[Z]] to %[[LENI]] step %[[O]] {
// NORM:             scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NORM:               %[[LENJ:.*]] = affine.apply #[[LEN]]()[%[[J]], %{{.*}}]
// NORM-NEXT:          scf.for %[[JJ:.*]] = %{{.*}} to %[[LENJ]] step %{{.*}} {
// NORM-NEXT:            %[[ROW:.*]] = affine.apply #[[AT]](%[[II]])[%[[I]]]
// NORM-NEXT:            %[[COL:.*]] = affine.apply #[[AT]](%[[JJ]])[%[[J]]]
// NORM-NEXT:            memref.load %[[A]][%[[ROW]], %[[COL]]] : memref<40x8xf16>
// NORM:               } {loop_type = #ktdf.loop_type<reduction_loop>}
func.func @rows(%A: memref<40x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c40 = arith.constant 40 : index
  scf.for %i = %c0 to %c40 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %A[%i, %j] : memref<40x8xf16>
    } {loop_type = #ktdf.loop_type<reduction_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// A loop with a step keeps it as the inner step; the outer step is step*size.

// DENORM-LABEL: func.func @strided(
// DENORM:         %[[C3:.*]] = arith.constant 3 : index
// DENORM:         %[[S:.*]] = arith.constant 16 : index
// DENORM-NEXT:    %[[STEP:.*]] = arith.muli %[[C3]], %[[S]] : index
// DENORM-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[STEP]] {
// DENORM:           scf.for %{{.*}} = %[[I]] to %{{.*}} step %[[C3]] {
func.func @strided(%n: index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c2 to %n step %c3 {
    %x = arith.addi %i, %i : index
  }
  return
}
