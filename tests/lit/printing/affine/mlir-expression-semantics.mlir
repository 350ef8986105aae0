// RUN: dfsched-opt %s | filecheck %s
// (Re-parsing the printed `#map` aliases needs the MLIR affine parser hooked into compat.LocatingParser:
// xDSL's own attribute parser rejects `d0 * s0`.)

// Maps written in affine ops are built with MLIR's rules, not xDSL's: semi-affine products are
// accepted, `(d0 + 1) * 2` is not distributed, constants and symbols move right, and `<=`
// constraints become `rhs - lhs >= 0`.

// CHECK-DAG: #[[SEMI:.+]] = affine_map<(d0)[s0] -> (d0 * s0 + (d0 + 1) * 2)>
// CHECK-DAG: #[[SWAP:.+]] = affine_map<(d0)[s0] -> (d0 * 4 + s0 + 3)>
// CHECK-DAG: #[[NEG:.+]] = affine_map<(d0, d1) -> (-(d0 + d1), d0 - (d1 + 1))>
// CHECK-DAG: #[[LE:.+]] = affine_set<(d0)[s0] : (-d0 + s0 * 2 >= 0)>
// CHECK-LABEL: func.func @semantics(%arg0: index, %arg1: index) {
// CHECK-NEXT:    %0 = affine.apply #[[SEMI]](%arg0)[%arg1]
// CHECK-NEXT:    %1 = affine.apply #[[SWAP]](%arg0)[%arg1]
// CHECK-NEXT:    %2 = affine.min #[[NEG]](%arg0, %arg1)
// CHECK-NEXT:    affine.if #[[LE]](%arg0)[%arg1] {
func.func @semantics(%i: index, %n: index) {
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 * s0 + (d0 + 1) * 2)>(%i)[%n]
  %1 = affine.apply affine_map<(d0)[s0] -> (3 + s0 + 4 * d0)>(%i)[%n]
  %2 = affine.min affine_map<(d0, d1) -> (-(d0 + d1), d0 - (d1 + 1))>(%i, %n)
  affine.if affine_set<(d0)[s0] : (d0 <= s0 * 2)>(%i)[%n] {
  }
  return
}
