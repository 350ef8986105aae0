// RUN: dfsched-opt %examples/causal_mask_heads.mlir --device=sample -ktir-to-dfir | filecheck %s

// A position in a compute body on the vector lanes (Decision 107): each `linalg.index d` of a
// 1x32 tile is the i32 vector constant of the lanes' positions along d (the row 0 everywhere,
// the columns 0..31), the tile's offsets (its row loop's variable, its column block times 32)
// are added to it lane-wise, and the mask the compare makes selects in the island of the select.

// CHECK-LABEL: func.func @causal_mask_heads
// CHECK-DAG:     %[[COLS:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : vector<32xi32>
// CHECK-DAG:     %[[ROWS:.*]] = arith.constant dense<0> : vector<32xi32>
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[BLOCK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[SCORES:.*]] = dataflow.receive %{{.*}} : vector<32xf16>
// CHECK-NEXT:        %[[ROW32:.*]] = arith.index_cast %[[ROW]] : index to i32
// CHECK-NEXT:        %[[COL0:.*]] = affine.apply #{{.*}}(%[[BLOCK]])
// CHECK-NEXT:        %[[COL32:.*]] = arith.index_cast %[[COL0]] : index to i32
// CHECK-NEXT:        builtin.unrealized_conversion_cast %[[ROWS]] : vector<32xi32> to tensor<32xi32>
// CHECK:               arith.addi %in, %[[ROW32]] : i32
// CHECK:             builtin.unrealized_conversion_cast %[[COLS]] : vector<32xi32> to tensor<32xi32>
// CHECK:               arith.addi %in, %[[COL32]] : i32
// CHECK:               arith.cmpi ule, %in, %in_2 : i32
// CHECK-NEXT:          arith.select %{{.*}}, %in_3, %{{.*}} : f16
