// A contraction on a matrix unit (examples/matmul.mlir, a linalg.matmul, on spyre: an 8x8x8
// tile step). Each grid tile's 4x64 rows of C become 8 output tiles of 4x8 (M limited by the
// 4 rows), each reduced over K = 128 in 16 steps of 8: per step the PE receives a 4x8 block of
// A and an 8x8 block of B and runs one matrix-multiply island on the accumulator it keeps in
// its registers, marked with the tile so the simulator costs it by the unit's cycles_per_tile.
// No vectorchain multiply or K-step shuffle is left.
// RUN: dfsched-opt --device=spyre -ktir-to-dfir %examples/matmul.mlir | filecheck %s
// CHECK-DAG:   #[[A_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[B_MAP:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[C_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NOT:   binary_operator mul
// CHECK:       scf.for %{{.*}} = %c0 to %c16 step %c1 {
// CHECK:         %[[A:.*]] = dataflow.receive %{{.*}} : vector<32xf16>
// CHECK:         %[[B:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:    %[[AT:.*]] = builtin.unrealized_conversion_cast %[[A]] : vector<32xf16> to tensor<4x8xf16>
// CHECK-NEXT:    %[[BT:.*]] = builtin.unrealized_conversion_cast %[[B]] : vector<64xf16> to tensor<8x8xf16>
// CHECK-NEXT:    %[[ACC:.*]] = agen.vector_load
// CHECK-NEXT:    %[[ACCT:.*]] = builtin.unrealized_conversion_cast %[[ACC]] : vector<32xf16> to tensor<4x8xf16>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[A_MAP]], #[[B_MAP]], #[[C_MAP]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[AT]], %[[BT]] : tensor<4x8xf16>, tensor<8x8xf16>) outs(%[[ACCT]] : tensor<4x8xf16>) attrs = {dfsched.matrix_tile = array<i64: 4, 8, 8>}
// CHECK:         %[[RV:.*]] = builtin.unrealized_conversion_cast %[[R]] : tensor<4x8xf16> to vector<32xf16>
// CHECK-NEXT:    agen.vector_store %[[RV]]
// CHECK-NOT:   binary_operator mul
