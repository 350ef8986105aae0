// A KTIR kernel with a scalar broadcast along the vector dimension, through the frontend,
// path-expansion and scalar-broadcast-legalization, on the sample device (64 f16 lanes) and
// on quad_corelet (32 lanes, whose VLD unit splats).
// RUN: dfsched-opt %s --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %s --device=quad_corelet -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization | filecheck %s --check-prefix=QUAD

// Y[r, :] = X[r, :] * S[r]: S is a 16x1 column, read through (d0, d1) -> (d0, 0). Its rows are
// one element wide, so the DMA moves one element (a wider read would run into the next rows).
// SAMPLE-LABEL: func.func @local_schedule_0(
// SAMPLE:         ktdf.private -> (memref<1x64xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>,
// SAMPLE:         ktdf.data_transfer from %{{.*}}[%{{.*}}, 0] size [1, 1] to %{{.*}}[0, 0] size [1, 1] : memref<4x1xf16, strided<[1, 1], offset: ?>, "DDR">, memref<1x1xf16, "L1">
// SAMPLE:       } {applicable_units = ["MNILU"]}
// SAMPLE:         ktdf.data_transfer from %{{.*}}[0, 0] size [1, 1] to %{{.*}} size [64] {transfer_mode = "splat"} : memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// SAMPLE:       } {applicable_units = ["L1LU"]}
// SAMPLE:         ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// SAMPLE-NEXT:    %[[S:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// SAMPLE:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]]], {{.*}} ins(%{{.*}}, %[[S]] : tensor<1x64xf16>, tensor<1x64xf16>)

// QUAD-LABEL: func.func @local_schedule_0(
// QUAD:         ktdf.data_transfer from %{{.*}}[%{{.*}}, 0] size [1, 1] to %{{.*}}[0, 0] size [1, 1] : memref<4x1xf16, strided<[1, 1], offset: ?>, "GMEM">, memref<1x1xf16, "SPAD">
// QUAD:       } {applicable_units = ["DMARD"]}
// QUAD:         ktdf.data_transfer from %{{.*}}[0, 0] size [1, 1] to %{{.*}} size [32] {transfer_mode = "splat"} : memref<1x1xf16, "SPAD">, !ktdf.fifo.slot<"VLD" -> "VPU", 32xf16>
// QUAD:       } {applicable_units = ["VLD"]}
// QUAD:         ktdf.read_from_fifo %{{.*}} : <"VLD" -> "VPU", 32xf16> -> tensor<1x32xf16>

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#column = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows_column = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#scalar_per_row = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @scale_rows() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %x_addr = arith.constant 0 : index
    %s_addr = arith.constant 2048 : index
    %y_addr = arith.constant 4096 : index
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %c4 : index
    %x = ktdp.construct_memory_view %x_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %s = ktdp.construct_memory_view %s_addr, sizes: [16, 1], strides: [1, 1] {coordinate_set = #column, memory_space = #ktdp.memory_space<global>} : memref<16x1xf16>
    %y = ktdp.construct_memory_view %y_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %xt = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %st = ktdp.construct_access_tile %s[%row, %c0] {access_tile_set = #rows_column, access_tile_order = #order} : memref<16x1xf16> -> !ktdp.access_tile<4x1xindex>
    %yt = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %a = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
    %b = ktdp.load %st : <4x1xindex> -> tensor<4x1xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %r = linalg.generic {indexing_maps = [#order, #scalar_per_row, #order], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<4x64xf16>, tensor<4x1xf16>) outs(%e : tensor<4x64xf16>) {
    ^bb0(%u: f16, %v: f16, %o: f16):
      %m = arith.mulf %u, %v : f16
      linalg.yield %m : f16
    } -> tensor<4x64xf16>
    ktdp.store %r, %yt : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
