// RUN: not dfsched-opt %s 2>&1 | filecheck %s

// A product of two dimensions is not affine: MLIR's message, located at the operator.
// CHECK: non-affine-invalid.mlir:[[# @LINE + 2]]:48: error: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic
func.func @non_affine(%i: index, %j: index) {
  %0 = affine.apply affine_map<(d0, d1) -> (d0 * d1)>(%i, %j)
  return
}
