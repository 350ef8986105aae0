// RUN: dfsched-opt %s --device=sample --pass-pipeline='builtin.module(ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling}))),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure{lane-wide=false},map-reduction-partials)' | filecheck %s
// RUN: not dfsched-opt %s --device=sample --pass-pipeline='builtin.module(ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling}))),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking{chunk-size-threshold=32})' 2>&1 | filecheck %s --check-prefix=CHUNK

// Two rows of 64 per tile fit one tile of the loop nest, so no loop is left around the
// pipeline and stage-coarsening builds no nested one: a single-level pipeline of five
// stages. With the default threshold the reduction needs no chunking; the loop exposure
// gives every stage 64 steps (the DMA stages too, as upstream: their body is repeated) and
// the accumulator is a 2-element SFU_REG buffer. Forcing chunks is an error: there is no
// batch loop to index the scratchpad with.
// (`lane-wide=false`: one column per step, the form these checks pin; lane-wide steps are
// pinned by reduction-loop-exposure/lane-wide.mlir.)

// CHUNK: error: reduction-dim-chunking: reduction needs chunking, but its pipeline is not nested in a batch scf.for

// CHECK-LABEL: module @local_schedule_0
// CHECK:         %[[P:.*]]:8 = ktdf.private -> (memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf16>, memref<2xf16, "L1">,
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK:           scf.for
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}} size [2, 64] to %[[P]]#0[0, 0] size [2, 64]
// CHECK:         ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.data_transfer from %[[P]]#0[0, %[[J]]] size [2, 1] to %[[P]]#1 size [2]
// CHECK:         ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK:           %[[ACC:.*]] = memref.alloc() : memref<2xf16, "SFU_REG">
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:      linalg.fill ins(%[[ZERO]] : f16) outs(%[[ACC]] : memref<2xf16, "SFU_REG">)
// CHECK:           %[[N:.*]] = arith.constant 64 : index
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        %[[X:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 2xf16> -> memref<2x1xf16>
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[X]] : memref<2x1xf16>) outs(%[[ACC]] : memref<2xf16, "SFU_REG">)
// CHECK-NOT:     tensor<

#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
module {
  func.func @row_sums() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %a_address = arith.constant 0 : index
    %s_address = arith.constant 1024 : index
    %tile = ktdp.get_compute_tile_id : index
    %first = arith.muli %tile, %c2 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #block, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %s = ktdp.construct_memory_view %s_address, sizes: [8], strides: [1] {coordinate_set = #sums, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
    %rows = ktdp.construct_access_tile %a[%first, %c0] {access_tile_set = #tile, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %rows : <2x64xindex> -> tensor<2x64xf16>
    %init = tensor.empty() : tensor<2xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<2x64xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
    %out = ktdp.construct_access_tile %s[%first] {access_tile_set = #two, access_tile_order = #in_order} : memref<8xf16> -> !ktdp.access_tile<2xindex>
    ktdp.store %r, %out : tensor<2xf16>, <2xindex>
    return
  }
}

