// RUN: env DFSCHED_DEBUG_ONLY=parallelize-loops-across-instances dfsched-opt %s -allow-unregistered-dialect --device=sample -parallelize-loops-across-instances 2>&1 >/dev/null | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect --device=sample -parallelize-loops-across-instances 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// Upstream's debug lines (`--debug-only=parallelize-loops-across-instances`): the group
// enclosing each pipeline's units, the number of instances, and the loop chosen with its
// trip count and split (an uneven split gives the chunk sizes: ceil(T/N), then the rest).

// CHECK:      pipeline at loc("{{.*}}debug.mlir":{{[0-9]+}}:5) is enclosed by loc("{{.*}}sample_device.mlir":{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT: pipeline at loc("{{.*}}debug.mlir":{{[0-9]+}}:5) has 2 applicable groups
// CHECK-NEXT: [parallelize-loops-across-instances {{.*}}] balanced candidate at loc("{{.*}}debug.mlir":{{[0-9]+}}:3): trip=4, num_instances=2
// CHECK:      [parallelize-loops-across-instances {{.*}}] imbalanced (fallback) at loc("{{.*}}debug.mlir":{{[0-9]+}}:3): trip=5, num_instances=2, chunks=3,2
// CHECK:      [parallelize-loops-across-instances {{.*}}] imbalanced (fallback) at loc("{{.*}}debug.mlir":{{[0-9]+}}:3): trip=9, num_instances=2, chunks=5,4
// CHECK:      [parallelize-loops-across-instances {{.*}}] dynamic candidate at loc("{{.*}}debug.mlir":{{[0-9]+}}:3): trip count is dynamic, num_instances=2
// CHECK:      [parallelize-loops-across-instances {{.*}}] units ['MNILU'] are shared by a whole core

// QUIET-NOT: parallelize-loops-across-instances

func.func @logged(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c17 = arith.constant 17 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %i = %c0 to %c5 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %i = %c0 to %c17 step %c2 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %i = %c0 to %n step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %i = %c0 to %n step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["MNILU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
