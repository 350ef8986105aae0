// RUN: dfsched-opt %s -split-input-file --device=sample --pass-pipeline='builtin.module(ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling}))),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking{chunk-size-threshold=32},reduction-loop-exposure{lane-wide=false},map-reduction-partials)' | filecheck %s

// From KTIR to reductions in place, through the frontend and the scheduling passes up to
// map-reduction-partials. Each of four tiles reduces a 3x64 f16 block into three sums, one
// per batch iteration; a 64-element reduction is 128 bytes, so a 32-byte chunk threshold splits it
// into 4 chunks of 16 elements, and each chunk runs 16 steps into an SFU_REG accumulator.
// (`lane-wide=false`: one column per step, the form these checks pin; lane-wide steps are
// pinned by reduction-loop-exposure/lane-wide.mlir.)

// Row sums with the named linalg.reduce (an empty init).
// CHECK-LABEL: module @local_schedule_0
// CHECK:         ktdf.stage depends_in(%[[O:.*]]#2) depends_out(%[[O]]#3) {
// CHECK-NEXT:      scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[NC:.*]] = arith.constant 4 : index
// CHECK:             scf.for %[[CHUNK:.*]] = %{{.*}} to %[[NC]] step %{{.*}} {
// CHECK-NEXT:          %[[FIRST:.*]] = arith.cmpi eq, %[[CHUNK]], %{{.*}} : index
// CHECK:               ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token)
// CHECK:               scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            ktdf.data_transfer from %[[O]]#0[%{{.*}}, %{{.*}}, %[[CHUNK]] * 16 + %[[J]]] size [1, 1, 1] to %{{.*}}#0 size [1] : memref<3x1x64xf16, "L1">
// CHECK:               %[[ACC:.*]] = memref.alloc() : memref<1xf16, "SFU_REG">
// CHECK-NEXT:          scf.if %[[FIRST]] {
// CHECK:                 %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:            linalg.fill ins(%[[ZERO]] : f16) outs(%[[ACC]] : memref<1xf16, "SFU_REG">)
// CHECK:               } else {
// CHECK-NEXT:            %[[PART:.*]] = ktdf.read_from_fifo %{{.*}}#1 : <"L1LU" -> "SFU", 1xf16> -> memref<1xf16>
// CHECK-NEXT:            memref.copy %[[PART]], %[[ACC]]
// CHECK:               }
// CHECK:               scf.for
// CHECK:                 linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : memref<1x1xf16>) outs(%[[ACC]] : memref<1xf16, "SFU_REG">)
// CHECK:                 ktdf.write_to_fifo %[[ACC]]
// CHECK-NOT:     tensor<

#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 11 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#three = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
module {
  func.func @row_sums() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %a_address = arith.constant 0 : index
    %s_address = arith.constant 1024 : index
    %tile = ktdp.get_compute_tile_id : index
    %first = arith.muli %tile, %c3 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [12, 64], strides: [64, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
    %s = ktdp.construct_memory_view %s_address, sizes: [12], strides: [1] {coordinate_set = #sums, memory_space = #ktdp.memory_space<global>} : memref<12xf16>
    %rows = ktdp.construct_access_tile %a[%first, %c0] {access_tile_set = #tile, access_tile_order = #row_major} : memref<12x64xf16> -> !ktdp.access_tile<3x64xindex>
    %x = ktdp.load %rows : <3x64xindex> -> tensor<3x64xf16>
    %init = tensor.empty() : tensor<3xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<3x64xf16>) outs(%init : tensor<3xf16>) dimensions = [1]
    %out = ktdp.construct_access_tile %s[%first] {access_tile_set = #three, access_tile_order = #in_order} : memref<12xf16> -> !ktdp.access_tile<3xindex>
    ktdp.store %r, %out : tensor<3xf16>, <3xindex>
    return
  }
}

// -----

// Column sums with a linalg.generic initialised by a zero fill (folded into the empty
// init by construct-three-stage-pipeline): the same schedule, along the first dim.
// CHECK-LABEL: module @local_schedule_0
// CHECK:         ktdf.stage depends_in(%[[O:.*]]#2) depends_out(%[[O]]#3) {
// CHECK-NEXT:      scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[NC:.*]] = arith.constant 4 : index
// CHECK:             scf.for %[[CHUNK:.*]] = %{{.*}} to %[[NC]] step %{{.*}} {
// CHECK:               scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            ktdf.data_transfer from %[[O]]#0[%{{.*}}, %[[CHUNK]] * 16 + %[[J]], %{{.*}}] size [1, 1, 1] to %{{.*}}#0 size [1] : memref<3x64x1xf16, "L1">
// CHECK:               %[[ACC:.*]] = memref.alloc() : memref<1xf16, "SFU_REG">
// CHECK-NEXT:          scf.if
// CHECK:                 %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:            linalg.fill ins(%[[ZERO]] : f16) outs(%[[ACC]] : memref<1xf16, "SFU_REG">)
// CHECK:                 linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : memref<1x1xf16>) outs(%[[ACC]] : memref<1xf16, "SFU_REG">)
// CHECK-NOT:     tensor<

#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 11 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 11 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#three = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#by_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @column_sums() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %a_address = arith.constant 0 : index
    %s_address = arith.constant 1024 : index
    %tile = ktdp.get_compute_tile_id : index
    %first = arith.muli %tile, %c3 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [64, 12], strides: [12, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<64x12xf16>
    %s = ktdp.construct_memory_view %s_address, sizes: [12], strides: [1] {coordinate_set = #sums, memory_space = #ktdp.memory_space<global>} : memref<12xf16>
    %cols = ktdp.construct_access_tile %a[%c0, %first] {access_tile_set = #tile, access_tile_order = #row_major} : memref<64x12xf16> -> !ktdp.access_tile<64x3xindex>
    %x = ktdp.load %cols : <64x3xindex> -> tensor<64x3xf16>
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<3xf16>
    %init = linalg.fill ins(%zero : f16) outs(%e : tensor<3xf16>) -> tensor<3xf16>
    %r = linalg.generic {indexing_maps = [#row_major, #by_col], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<64x3xf16>) outs(%init : tensor<3xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %n = arith.addf %acc, %in : f16
      linalg.yield %n : f16
    } -> tensor<3xf16>
    %out = ktdp.construct_access_tile %s[%first] {access_tile_set = #three, access_tile_order = #in_order} : memref<12xf16> -> !ktdp.access_tile<3xindex>
    ktdp.store %r, %out : tensor<3xf16>, <3xindex>
    return
  }
}
