// The lane combine of a lane-wide reduction (Decision 65), lowered by ktdflowering-to-dfir.
// examples/row_sum.mlir reduces rows of 64 f16 one row at a time on the sample device: one
// step carries the whole row into 64 partial sums; on the last step the partials are folded
// by log2(64) = 6 rounds of a shuffle that rotates the lanes by 32, 16, ..., 1 and an add,
// after which every lane holds the row's total; a shuffle takes lane 0 and the reduction's
// body adds it to the result buffer, which is then sent.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_sum.mlir | filecheck %s

// CHECK:         %[[IN:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:    %[[LANES:.*]] = agen.vector_load %[[PARTIALS:.*]][%{{.*}}, %{{.*}}] {{.*}} : memref<1x64xf16>, vector<64xf16>
// CHECK-NEXT:    %[[STEP:.*]] = vectorchain.binary %[[LANES]], %[[IN]] {binary_op = #vectorchain<binary_operator add>
// CHECK-NEXT:    agen.vector_store %[[STEP]], %[[PARTIALS]]
// CHECK:         %[[P0:.*]] = agen.vector_load %[[PARTIALS]]
// CHECK-NEXT:    %[[S1:.*]] = vectorchain.shuffle input(%[[P0]]) {indices = [32 : i32, 33 : i32,
// CHECK-NEXT:    %[[P1:.*]] = vectorchain.binary %[[P0]], %[[S1]] {binary_op = #vectorchain<binary_operator add>
// CHECK-NEXT:    vectorchain.shuffle input(%[[P1]]) {indices = [16 : i32, 17 : i32,
// CHECK-NEXT:    vectorchain.binary
// CHECK-NEXT:    vectorchain.shuffle {{.*}} {indices = [8 : i32,
// CHECK-NEXT:    vectorchain.binary
// CHECK-NEXT:    vectorchain.shuffle {{.*}} {indices = [4 : i32,
// CHECK-NEXT:    vectorchain.binary
// CHECK-NEXT:    vectorchain.shuffle {{.*}} {indices = [2 : i32,
// CHECK-NEXT:    vectorchain.binary
// CHECK-NEXT:    vectorchain.shuffle {{.*}} {indices = [1 : i32, 2 : i32,
// CHECK-SAME:      63 : i32, 0 : i32], repetition = 1 : i32} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    %[[P6:.*]] = vectorchain.binary
// CHECK-NEXT:    %[[TOTAL:.*]] = vectorchain.shuffle input(%[[P6]]) {indices = [0 : i32], repetition = 1 : i32} : vector<64xf16>, vector<1xf16>
// CHECK-NEXT:    %[[ACC:.*]] = agen.vector_load %[[RESULT:.*]][%{{.*}}] {{.*}} : memref<1xf16>, vector<1xf16>
// CHECK-NEXT:    %[[SUM:.*]] = vectorchain.binary %[[ACC]], %[[TOTAL]] {binary_op = #vectorchain<binary_operator add>
// CHECK-NEXT:    agen.vector_store %[[SUM]], %[[RESULT]]
