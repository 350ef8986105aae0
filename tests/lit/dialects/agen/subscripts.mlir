// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s

// Affine subscripts written with SSA names are printed back the way mlir-opt prints
// them: constants and symbolic terms on the right, subtraction for negative terms,
// products folded, `symbol(...)` kept, and a repeated name read as one map input.
// (`%i - %i` folds to 0; MLIR would print `%i * 0`, which only becomes 0 when re-read.)

// CHECK-LABEL: func.func @forms
// CHECK-SAME:    (%[[M:[^:]*]]: memref<8x8x8x8xf16>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[S:[^:]*]]: index)
// CHECK-NEXT:    agen.vector_load %[[M]][%[[I]] + 3, %[[I]] - %[[J]], %[[J]] * 4 - 1, -%[[I]]]
// CHECK-NEXT:    agen.vector_load %[[M]][%[[I]] * -4, %[[I]] + %[[J]] + 3, %[[I]] * 2, %[[I]] - (%[[J]] + 1)]
// CHECK-NEXT:    agen.vector_load %[[M]][%[[I]] floordiv 4 + %[[J]] mod 8, (%[[I]] + 1) ceildiv 2, %[[J]] * 6, 0]
// CHECK-NEXT:    agen.vector_load %[[M]][%[[I]] + symbol(%[[S]]), %[[I]] * symbol(%[[S]]), symbol(%[[S]]) floordiv 2, %[[I]] - %[[J]] * 3]
// CHECK-NEXT:    agen.vector_load %[[M]][%[[I]], %[[I]], %[[I]], %[[I]]]
// CHECK-NEXT:    agen.vector_load %[[M]][%[[J]] * 2, %[[I]] * 3 + 1, 5, -(%[[J]] + 2)]
func.func @forms(%m: memref<8x8x8x8xf16>, %i: index, %j: index, %s: index) {
  %0 = agen.vector_load %m[3 + %i, %i - %j, 4 * %j - 1, -%i] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<8x8x8x8xf16>, vector<1xf16>
  %1 = agen.vector_load %m[-%i * 4, %i + 3 + %j, %i + %i, %i - (%j + 1)] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<8x8x8x8xf16>, vector<1xf16>
  %2 = agen.vector_load %m[%i floordiv 4 + %j mod 8, (%i + 1) ceildiv 2, %j * 2 * 3, %i - %i] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<8x8x8x8xf16>, vector<1xf16>
  %3 = agen.vector_load %m[%i + symbol(%s), %i * symbol(%s), symbol(%s) floordiv 2, %i - 3 * %j] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<8x8x8x8xf16>, vector<1xf16>
  %4 = agen.vector_load %m[%i, %i, (%i), ((%i))] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<8x8x8x8xf16>, vector<1xf16>
  %5 = agen.vector_load %m[2 * %j, (%i * 6 + 2) floordiv 2, 10 floordiv 2, -(%j + 2)] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<8x8x8x8xf16>, vector<1xf16>
  return
}
