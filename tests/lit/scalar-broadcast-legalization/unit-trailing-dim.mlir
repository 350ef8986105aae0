// A map ending in a constant is a broadcast only when the innermost loop is not read:
// `(d0) -> (d0, 0)` reads a Nx1 operand along its first dimension (the address program of a
// paged gather: one page number per sequence, Inputs/paged_copy.mlir). Nothing is
// splatted or widened; before the fix the page numbers were repeated to fill a vector and the
// address list received twice as many entries as it holds.
// RUN: dfsched-opt %S/Inputs/paged_copy.mlir --device=spyre -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization | filecheck %s
// CHECK:     #[[COLUMN:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-NOT: transfer_mode = "splat"
// CHECK:     ktdf.read_from_fifo %{{.*}} : <"LXLU" -> "PE", 2xi32> -> tensor<2x1xi32>
// CHECK:     linalg.generic {indexing_maps = [#[[COLUMN]], #{{.*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<2x1xi32>)
// CHECK-NOT: transfer_mode = "splat"
