// RUN: dfsched-opt %s --affine-min-canonicalization="max-iterations=1" --verify-diagnostics --allow-unregistered-dialect
// RUN: dfsched-opt %s --affine-min-canonicalization --allow-unregistered-dialect | filecheck %s

// When the rewrites have not settled within the iteration limit, the pass fails on the module.
// (The limit of 1 makes any change fail; with the default limit the rewrite goes through.)
// CHECK: affine.min

// expected-error @below {{affine-min canonicalization: pattern application failed}}
module {
  func.func @f(%n: index) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %n step %c4 {
      %sum = arith.addi %i, %c4 : index
      %lim = arith.minsi %sum, %n : index
      %size = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%i, %lim]
      "test.use"(%size) : (index) -> ()
    }
    return
  }
}
