// RUN: dfsched-opt %s -split-input-file --affine-min-canonicalization --allow-unregistered-dialect | filecheck %s

// min(iv + step, ub) - iv becomes affine.min over (iv)[ub, step]; the constant step folds into
// the map while the operand list stays; the dead addi and minsi go.
// CHECK-DAG:   #[[MIN2:.*]] = affine_map<(d0)[s0, s1] -> (-d0 + s0, 2)>
// CHECK-LABEL: func.func @basic
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[C10:.*]] = arith.constant 10 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C10]] step %[[C2]] {
// CHECK-NEXT:      %[[M:.*]] = affine.min #[[MIN2]](%[[I]])[%[[C10]], %[[C2]]]
// CHECK-NEXT:      "test.use"(%[[M]]) : (index) -> ()
// CHECK:         }
#sub = affine_map<()[s0, s1] -> (s1 - s0)>
func.func @basic() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c10 step %c2 {
    %sum = arith.addi %i, %c2 : index
    %lim = arith.minsi %sum, %c10 : index
    %size = affine.apply #sub()[%i, %lim]
    "test.use"(%size) : (index) -> ()
  }
  return
}

// -----

// Either operand order of minsi and addi; a dynamic step stays a symbol. The upper bound
// result keeps s0 even when the bound is a constant, since d0 is not.
// CHECK-DAG:   #[[MIN3:.*]] = affine_map<(d0)[s0, s1] -> (-d0 + s0, 3)>
// CHECK-DAG:   #[[MIND:.*]] = affine_map<(d0)[s0, s1] -> (-d0 + s0, s1)>
// CHECK-LABEL: func.func @operand_orders
// CHECK-SAME:    (%[[N:[^:]*]]: index, %[[S:[^:]*]]: index)
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      %[[A:.*]] = affine.min #[[MIN3]](%[[I]])[%[[N]], %{{.*}}]
// CHECK-NEXT:      %[[B:.*]] = affine.min #[[MIN3]](%[[I]])[%[[N]], %{{.*}}]
// CHECK-NEXT:      %[[C:.*]] = affine.min #[[MIND]](%[[I]])[%[[N]], %[[S]]]
// CHECK-NEXT:      "test.use"(%[[A]], %[[B]], %[[C]]) : (index, index, index) -> ()
#sub = affine_map<()[s0, s1] -> (-s0 + s1)>
func.func @operand_orders(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c3 {
    %a1 = arith.addi %c3, %i : index
    %m1 = arith.minsi %a1, %n : index
    %r1 = affine.apply #sub()[%i, %m1]
    %a2 = arith.addi %i, %c3 : index
    %m2 = arith.minsi %n, %a2 : index
    %r2 = affine.apply #sub()[%i, %m2]
    %a3 = arith.addi %i, %s : index
    %m3 = arith.minsi %n, %a3 : index
    %r3 = affine.apply #sub()[%i, %m3]
    "test.use"(%r1, %r2, %r3) : (index, index, index) -> ()
  }
  return
}

// -----

// Other users of the minsi keep it (and the addi) alive. The driver also folds what it visits:
// constants of a commutative op move to its right.
// CHECK-LABEL: func.func @shared_min
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      %[[ADD:.*]] = arith.addi %[[I]], %[[C4:.*]] : index
// CHECK-NEXT:      %[[MIN:.*]] = arith.minsi %[[ADD]], %{{.*}} : index
// CHECK-NEXT:      %[[M:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK-NEXT:      "test.use"(%[[M]], %[[MIN]]) : (index, index) -> ()
#sub = affine_map<()[s0, s1] -> (s1 - s0)>
func.func @shared_min(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {
    %sum = arith.addi %c4, %i : index
    %lim = arith.minsi %sum, %n : index
    %size = affine.apply #sub()[%i, %lim]
    "test.use"(%size, %lim) : (index, index) -> ()
  }
  return
}

// -----

// Not the pattern: another map, a maxsi, an addi that does not involve the IV.
// CHECK-LABEL: func.func @negative
// CHECK-NOT:     affine.min
// CHECK-COUNT-3: affine.apply
// CHECK-NOT:     affine.min
#add = affine_map<()[s0, s1] -> (s0 + s1)>
#sub = affine_map<()[s0, s1] -> (s1 - s0)>
func.func @negative(%n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {
    %sum = arith.addi %i, %c4 : index
    %lim = arith.minsi %sum, %n : index
    %r1 = affine.apply #add()[%i, %lim]
    %max = arith.maxsi %sum, %n : index
    %r2 = affine.apply #sub()[%i, %max]
    %other = arith.addi %k, %c4 : index
    %lim2 = arith.minsi %other, %n : index
    %r3 = affine.apply #sub()[%i, %lim2]
    "test.use"(%r1, %r2, %r3) : (index, index, index) -> ()
  }
  return
}
