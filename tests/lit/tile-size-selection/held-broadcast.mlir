// The cost model charges a splat held by its receiver once per loop (Decision 90). One tile of
// the 4096x1024 softmax on spyre: its last pipeline (sub, exp, div by the broadcast row
// maximum and sum) was tiled 64 rows x 64 columns, rows innermost, so both broadcasts were
// sent at every step; charged once per row, a tile of whole rows (4 x 16 column blocks) wins,
// and the backend sends each row's maximum and sum once. (Since Decision 101 the exp pipeline is
// fused into the sum reduction, which holds the row maximum: only the last pipeline is tiled.)
// RUN: dfsched-opt --device=spyre -ktir-to-dfir --report %S/../../../benchmarks/kernels/softmax_4096_tile.mlir -o /dev/null 2>&1 | filecheck %s

// CHECK-LABEL: tile sizes
// CHECK-NEXT:    size  loop totals
// CHECK-NEXT:    4     128          cost model
// CHECK-NEXT:    16    16           loop extent
