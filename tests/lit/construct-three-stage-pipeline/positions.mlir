// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s

// A body that reads its element's position (linalg.index; Decision 107): the index arithmetic
// that depends on it runs in i32 (the compute unit has i32 lanes, no index lanes), and each tile
// of the loop nest adds its offset (the loop's induction variable, cast to i32 before the
// generic) to the position within the tile. The captured scalar and the constant it is combined
// with are cast where they are read; the compare and the select stay element-wise.

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @causal
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             ktdf.read_from_fifo %{{.*}} -> tensor<1x32xf16>
// CHECK-NEXT:        tensor.empty() : tensor<1x32xf16>
// CHECK-NEXT:        %[[ROW_OFFSET:.*]] = arith.index_cast %[[ROW]] : index to i32
// CHECK-NEXT:        %[[COL_OFFSET:.*]] = arith.index_cast %[[COL]] : index to i32
// CHECK-NEXT:        linalg.generic
// CHECK-NEXT:        ^bb0(%{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT:          %[[R:.*]] = linalg.index 0 : index
// CHECK-NEXT:          %[[R32:.*]] = arith.index_cast %[[R]] : index to i32
// CHECK-NEXT:          %[[ROW_AT:.*]] = arith.addi %[[R32]], %[[ROW_OFFSET]] : i32
// CHECK-NEXT:          %[[C:.*]] = linalg.index 1 : index
// CHECK-NEXT:          %[[C32:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK-NEXT:          %[[COL_AT:.*]] = arith.addi %[[C32]], %[[COL_OFFSET]] : i32
// CHECK-NEXT:          %[[FOUR:.*]] = arith.index_cast %c4 : index to i32
// CHECK-NEXT:          %[[SHIFTED:.*]] = arith.muli %[[ROW_AT]], %[[FOUR]] : i32
// CHECK-NEXT:          %[[FIRST:.*]] = arith.index_cast %arg0 : index to i32
// CHECK-NEXT:          %[[POSITION:.*]] = arith.addi %[[FIRST]], %[[SHIFTED]] : i32
// CHECK-NEXT:          %[[VISIBLE:.*]] = arith.cmpi ule, %[[COL_AT]], %[[POSITION]] : i32
// CHECK-NEXT:          arith.select %[[VISIBLE]], %{{.*}}, %{{.*}} : f16

func.func @causal(%first: index) {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %c4 = arith.constant 4 : index
  %neg_inf = arith.constant 0xFC00 : f16
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %masked = linalg.generic {indexing_maps = [#order, #order], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %shifted = arith.muli %row, %c4 : index
    %position = arith.addi %first, %shifted : index
    %visible = arith.cmpi ule, %col, %position : index
    %kept = arith.select %visible, %v, %neg_inf : f16
    linalg.yield %kept : f16
  } -> tensor<4x64xf16>
  ktdp.store %masked, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
