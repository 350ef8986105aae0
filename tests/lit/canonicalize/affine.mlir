// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// affine.apply folds: all-constant operands give a constant, a lone dim or symbol is its operand.
// CHECK-LABEL: func.func @apply_fold
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NEXT:    %[[C23:.*]] = arith.constant 23 : index
// CHECK-NEXT:    "test.use"(%[[C23]], %[[N]], %[[N]]) : (index, index, index) -> ()
#fold = affine_map<(d0, d1) -> (d0 * 4 + d1 floordiv 2)>
func.func @apply_fold(%n: index) {
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %a = affine.apply #fold(%c5, %c7)
  %b = affine.apply affine_map<(d0) -> (d0)>(%n)
  %c = affine.apply affine_map<()[s0, s1] -> (s1)>()[%c5, %n]
  "test.use"(%a, %b, %c) : (index, index, index) -> ()
  return
}

// -----

// Chains of affine.apply compose into one; constant operands fold into the map and repeated
// operands are merged.
// CHECK-DAG:   #[[MAP0:.*]] = affine_map<(d0) -> (d0 * 12 + 7)>
// CHECK-DAG:   #[[MAP1:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1)>
// CHECK-LABEL: func.func @apply_compose
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[J:[^ ]*]] =
// CHECK-NEXT:        %[[A:.*]] = affine.apply #[[MAP0]](%[[I]])
// CHECK-NEXT:        %[[B:.*]] = affine.apply #[[MAP1]](%[[I]], %[[J]])
// CHECK-NEXT:        "test.use"(%[[A]], %[[B]]) : (index, index) -> ()
func.func @apply_compose(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%i)
      %y = affine.apply affine_map<(d0)[s0] -> (d0 * s0 + 1)>(%x)[%c3]
      %z = affine.apply affine_map<(d0, d1, d2) -> (d0 + d1 + d2)>(%i, %j, %i)
      "test.use"(%y, %z) : (index, index) -> ()
    }
  }
  return
}

// -----

// affine.min: all-constant results fold to the smallest; otherwise the constant results are
// replaced in the map and the operands stay; a single result is an affine.apply.
// CHECK-DAG:   #[[MIN:.*]] = affine_map<(d0)[s0] -> (-d0 + s0, 16)>
// CHECK-DAG:   #[[ONE:.*]] = affine_map<(d0) -> (d0 + 2)>
// CHECK-LABEL: func.func @min
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NEXT:    %[[C12:.*]] = arith.constant 12 : index
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      %[[M:.*]] = affine.min #[[MIN]](%[[I]])[%[[N]]]
// CHECK-NEXT:      %[[O:.*]] = affine.apply #[[ONE]](%[[I]])
// CHECK-NEXT:      "test.use"(%[[C12]], %[[M]], %[[O]]) : (index, index, index) -> ()
func.func @min(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = affine.min affine_map<(d0, d1) -> (d0 + d1, 12)>(%c4, %c8)
    %b = affine.min affine_map<(d0)[s0, s1] -> (s0 - d0, s1 * 4)>(%i)[%n, %c4]
    %c = affine.min affine_map<(d0) -> (d0 + 2)>(%i)
    "test.use"(%a, %b, %c) : (index, index, index) -> ()
  }
  return
}
