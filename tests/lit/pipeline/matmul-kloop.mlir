// A Triton K loop (examples/matmul_kloop.mlir: two chunks of 32 carried through iter_args) is
// folded into one contraction over K = 64 (Decision 44). The compute unit steps all 64 K steps
// in one loop, carrying the accumulator in a register (Decision 102), and stores it into a view of
// its register memory (sfu_reg) after the last step, then sends it on: the accumulator never
// leaves the unit between chunks.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/matmul_kloop.mlir | filecheck %s
// CHECK:         %[[REG:.*]] = dataflow.get_unit {name = "sfu_reg", type = "sfu_reg"} : index
// CHECK:         %[[ACC:.*]] = dataflow.get_logical_memory_view %[[REG]], %{{.*}} {{.*}} memref<1x64xf16>
// CHECK:         %[[INIT:.*]] = agen.vector_load %[[ACC]][%c0, %c0]
// CHECK-NEXT:    scf.for %[[K:.*]] = %{{.*}} to %c64 step %{{.*}} iter_args(%[[OLD:.*]] = %[[INIT]]) -> (vector<64xf16>) {
// CHECK:           dataflow.receive %{{.*}} : vector<1xf16>
// CHECK:           dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      vectorchain.shuffle
// CHECK-NEXT:      %[[P:.*]] = vectorchain.binary
// CHECK-NEXT:      %[[S:.*]] = vectorchain.binary %[[P]], %[[OLD]] {binary_op = #vectorchain<binary_operator add>
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi eq, %[[K]], %c63 : index
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK-NEXT:        agen.vector_store %[[S]], %[[ACC]][%c0, %c0]

// The chunked row sum (examples/row_sum_chunked.mlir, four chunks of 64 reduced into the
// carried sums) becomes one reduction over the 256 columns; its 4 rows fill 4 of the 64 lanes,
// so it steps lane-wide (Decision 65): 16 steps, each adding a 4x16 block into 4x16 partial
// sums carried in a register, stored to sfu_reg and folded into the 4 sums on the last step.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_sum_chunked.mlir | filecheck %s --check-prefix=ROWS
// ROWS:          %[[REG:.*]] = dataflow.get_unit {name = "sfu_reg", type = "sfu_reg"} : index
// ROWS:          %[[SUMS:.*]] = dataflow.get_logical_memory_view %[[REG]], %c0 {{.*}} memref<4xf16>
// ROWS-NEXT:     %[[LANES:.*]] = dataflow.get_logical_memory_view %[[REG]], %{{.*}} memref<4x16xf16>
// ROWS:          scf.for %[[J:.*]] = %c0 to %c16 step %c1 iter_args(%[[OLD:.*]] = %{{.*}}) -> (vector<64xf16>) {
// ROWS:            %[[BLOCK:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// ROWS-NEXT:       %[[NEW:.*]] = vectorchain.binary %[[OLD]], %[[BLOCK]] {binary_op = #vectorchain<binary_operator add>
// ROWS-NEXT:       arith.cmpi eq, %[[J]], %c15 : index
// ROWS-NEXT:       scf.if
// ROWS-NEXT:         agen.vector_store %[[NEW]], %[[LANES]][%c0, %c0]
