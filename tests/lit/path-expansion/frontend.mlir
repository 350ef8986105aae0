// The frontend's pipelines, expanded: KTIR kernels through ensure-device-declaration,
// ktir-legality-check, compute-group-extraction and construct-three-stage-pipeline.
// RUN: dfsched-opt %examples/add.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %examples/add.mlir --device=quad_corelet -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt %s --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion | filecheck %s --check-prefix=LOCAL

// The add example: five stages on the sample device, in route order, and the same shape
// with quad_corelet's own units (its VPU has 32 f16 lanes, so 32-element tiles).
// SAMPLE-LABEL: func.func @local_schedule_0(
// SAMPLE:         ktdf.private -> (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">,
// SAMPLE:         } {applicable_units = ["MNILU"]}
// SAMPLE:         } {applicable_units = ["L1LU"]}
// SAMPLE:         } {applicable_units = ["SFU"]}
// SAMPLE:         } {applicable_units = ["L1SU"]}
// SAMPLE:         } {applicable_units = ["MNISU"]}
// SAMPLE-NOT:     ktdf.stage

// QUAD-LABEL: func.func @local_schedule_0(
// QUAD:         ktdf.private -> (memref<1x32xf16, "SPAD">, memref<1x32xf16, "SPAD">, !ktdf.fifo.slot<"VLD" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VLD" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "VST", 32xf16>, memref<1x32xf16, "SPAD">,
// QUAD:         } {applicable_units = ["DMARD"]}
// QUAD:         } {applicable_units = ["VLD"]}
// QUAD:         } {applicable_units = ["VPU"]}
// QUAD:         } {applicable_units = ["VST"]}
// QUAD:         } {applicable_units = ["DMAWR"]}
// QUAD-NOT:     ktdf.stage

// A kernel whose first operand is a ct_local view (already in the core's scratchpad): only
// the global operand has a DMA (MNILU) transfer; the scratchpad operand is streamed to the
// SFU by the L1LU stage straight from its view.
// LOCAL-LABEL: func.func @local_schedule_0(
// LOCAL:         %[[X:.*]] = memref.reinterpret_cast %{{.*}} : memref<32x64xf16, "L1"> to memref<4x64xf16, strided<[64, 1], offset: ?>, "L1">
// LOCAL:         %[[Y:.*]] = memref.reinterpret_cast %{{.*}} : memref<32x64xf16, "DDR"> to memref<4x64xf16, strided<[64, 1], offset: ?>, "DDR">
// LOCAL:         %[[P:.*]]:9 = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">,
// LOCAL:         ktdf.stage depends_in(none)
// LOCAL-NEXT:      ktdf.data_transfer from %[[Y]][{{.*}}] size [1, 64] to %[[P]]#0[0, 0] size [1, 64]
// LOCAL:         } {applicable_units = ["MNILU"]}
// LOCAL-NEXT:    ktdf.stage
// LOCAL-NEXT:      ktdf.data_transfer from %[[X]][{{.*}}] size [1, 64] to %[[P]]#1 size [1, 64]
// LOCAL-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 64] to %[[P]]#2 size [64]
// LOCAL:         } {applicable_units = ["L1LU"]}
// LOCAL:         } {applicable_units = ["SFU"]}
// LOCAL:         } {applicable_units = ["L1SU"]}
// LOCAL:         } {applicable_units = ["MNISU"]}

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_by_local() attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %x_addr = arith.constant 0 : index
    %y_addr = arith.constant 4096 : index
    %z_addr = arith.constant 8192 : index
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %c4 : index
    %x = ktdp.construct_memory_view %x_addr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<32x64xf16, #ktdp.memory_space<ct_local>>
    %y = ktdp.construct_memory_view %y_addr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %z = ktdp.construct_memory_view %z_addr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %xt = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<32x64xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<4x64xindex>
    %yt = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
    %zt = ktdp.construct_access_tile %z[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
    %a = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
    %b = ktdp.load %yt : <4x64xindex> -> tensor<4x64xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %p = linalg.mul ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
    ktdp.store %p, %zt : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
