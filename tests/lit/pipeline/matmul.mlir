// A contraction on the vector unit (examples/matmul.mlir, a linalg.matmul). Each step of K
// receives one element of A's row and one 64-element row of B, spreads the element over the
// row with a vectorchain.shuffle (indices [0], 64 repetitions), multiplies, and adds into the
// accumulator, carried through the K loop in a register (Decision 102) and stored to the SFU's
// register memory on the last step.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/matmul.mlir | filecheck %s
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[K:c128.*]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<64xf16>) {
// CHECK:         %[[A:.*]] = dataflow.receive %{{.*}} : vector<1xf16>
// CHECK:         %[[B:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:    %[[SPREAD:.*]] = vectorchain.shuffle input(%[[A]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK-NEXT:    %[[P:.*]] = vectorchain.binary %[[SPREAD]], %[[B]] {binary_op = #vectorchain<binary_operator mul>
// CHECK-NEXT:    %[[S:.*]] = vectorchain.binary %[[P]], %[[ACC]] {binary_op = #vectorchain<binary_operator add>
// CHECK-NEXT:    arith.cmpi eq
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      agen.vector_store %[[S]]
// CHECK:         scf.yield %[[S]] : vector<64xf16>

// The same contraction in f32: the sample device's vector unit has no f32 lanes, so it cannot
// produce the f32 accumulator; the error is on the contraction and names the type and unit.
// RUN: not dfsched-opt --device=sample -ktir-to-dfir %S/Inputs/matmul_f32.mlir -o %t.out 2>&1 | filecheck %s --check-prefix=F32
// RUN: not test -e %t.out
// F32: matmul_f32.mlir:30:16: error: exec_unit 'SFU' declares no SIMD lanes for element type f32
// F32-NEXT: %product = linalg.matmul
