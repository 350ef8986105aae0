// RUN: dfsched-opt %examples/kv_cache_scatter.mlir --device=sample -ktir-to-dfir --disable-ktdflowering-to-dfir --disable-wrap-program-dfir | filecheck %s

// The address program's store (L1SU) and the scatter's address-list transfer (MNISU) are in
// two pipelines, which tokens do not order: ktdf-to-ktdflowering adds the edge, and its
// signal sits between the two pipelines, where both units' programs see it. The program has
// an address program, so it runs on one corelet (no ktdf.parallel, single units).

// CHECK-LABEL: module @local_schedule_0
// CHECK:       dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1su", type = "l1su"}
// CHECK-NEXT:  dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnisu", type = "mnisu"}
// CHECK:         ktdf.data_transfer from %{{.*}} size [8] to %[[LIST:[0-9]+]][%{{.*}}] size [8] : !ktdf.fifo.slot<"SFU" -> "L1SU", 8xi32>, memref<8xi32, "L1">
// CHECK:       }
// CHECK:       }
// CHECK-NEXT:  ktdf_lowering.signal %{{[0-9]+}}, %[[MNISU:[0-9]+]]
// CHECK:       %[[ROWS:.*]] = ktdf.indirect_view %{{.*}}[%[[LIST]]]
// CHECK-NOT:   ktdf.parallel
// CHECK:       ktdf_lowering.execute_on %[[MNISU]] {
// CHECK:         ktdf.data_transfer from %{{.*}} to %[[ROWS]]
