// A contraction on a matrix unit (examples/matmul.mlir, a linalg.matmul, on spyre: an 8x8x8
// unit tile). Each grid tile's 4x64 rows of C are one 4x64 output block (M limited by the 4
// rows; the f32 accumulator and its f16 copy fit PE_REG), reduced over K = 128 in 16 steps of
// 8: per step the PE receives a 4x8 block of A and an 8x64 block of B (eight unit tiles: the
// A block is reused by each) and runs one matrix-multiply island on the f32 accumulator it
// carries through the K loop in a register (Decision 102), marked with the block so the
// simulator costs it by the unit's cycles_per_tile per unit tile. After the last step the block
// is stored to PE_REG, rounded to f16 once (vectorchain.cast) and sent. No vectorchain multiply
// or K-step shuffle is left.
// RUN: dfsched-opt --device=spyre -ktir-to-dfir %examples/matmul.mlir | filecheck %s
// CHECK-DAG:   #[[A_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[B_MAP:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[C_MAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NOT:   binary_operator mul
// CHECK:       scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<256xf32>) {
// CHECK:         %[[A:.*]] = dataflow.receive %{{.*}} : vector<32xf16>
// CHECK:         %[[B:.*]] = dataflow.receive %{{.*}} : vector<512xf16>
// CHECK:         %[[AT:.*]] = builtin.unrealized_conversion_cast %[[A]] : vector<32xf16> to tensor<4x8xf16>
// CHECK:         %[[BT:.*]] = builtin.unrealized_conversion_cast %[[B]] : vector<512xf16> to tensor<8x64xf16>
// CHECK-NEXT:    %[[ACCT:.*]] = builtin.unrealized_conversion_cast %[[ACC]] : vector<256xf32> to tensor<4x64xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[A_MAP]], #[[B_MAP]], #[[C_MAP]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[AT]], %[[BT]] : tensor<4x8xf16>, tensor<8x64xf16>) outs(%[[ACCT]] : tensor<4x64xf32>) attrs = {dfsched.matrix_tile = array<i64: 4, 64, 8>}
// CHECK:         %[[RV:.*]] = builtin.unrealized_conversion_cast %[[R]] : tensor<4x64xf32> to vector<256xf32>
// CHECK:         scf.if
// CHECK-NEXT:      agen.vector_store %[[RV]]
// CHECK-NEXT:      %[[WIDE:.*]] = agen.vector_load
// CHECK-NEXT:      %[[NARROW:.*]] = vectorchain.cast %[[WIDE]] : vector<256xf32>, vector<256xf16>
// CHECK-NOT:   binary_operator mul
