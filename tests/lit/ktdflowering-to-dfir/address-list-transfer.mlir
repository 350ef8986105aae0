// RUN: dfsched-opt %examples/embedding_gather.mlir --device=sample -ktir-to-dfir | filecheck %s --check-prefix=GATHER
// RUN: dfsched-opt %examples/kv_cache_scatter.mlir --device=sample -ktir-to-dfir | filecheck %s --check-prefix=SCATTER

// A transfer from (gather) or to (scatter) a ktdf.indirect_view becomes one
// agen.composite_indirect_load_and_store on the DMA unit: the address list as the indirect
// side, subscripted by the view's list map (the row), and a view of the table's memory at the
// view's offset laid out by its strides (row stride 0: the list holds the row's address) as
// the direct side.

// GATHER-DAG:   #[[ROWS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// GATHER-LABEL: dataflow.program_unit
// GATHER:       scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// GATHER-NEXT:    %[[TABLE:.*]] = dataflow.get_logical_memory_view %{{.*}}, %{{.*}} {layout_map = #[[ROWS]]} : index, index, memref<8x64xf16>
// GATHER-NEXT:    agen.composite_indirect_load_and_store indirect_src:%{{.*}}[%[[R]]] direct_src:%[[TABLE]][%[[R]], %{{.*}} * 64] direct_dst:%{{.*}}[%[[R]], 0, 0]
// GATHER:         } : memref<8xi32>, memref<8x64xf16>, memref<8x1x64xf16>

// SCATTER:      agen.composite_indirect_load_and_store direct_src:%{{.*}}[%[[R:.*]], 0, 0] indirect_dst:%{{.*}}[%[[R]]] direct_dst:%{{.*}}[%[[R]], %{{.*}} * 64]
// SCATTER:      } : memref<8x1x64xf16>, memref<8xi32>, memref<8x64xf16>
