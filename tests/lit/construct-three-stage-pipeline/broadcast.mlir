// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bias = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#order2 = affine_map<(d0, d1) -> (d0, d1)>
#order1 = affine_map<(d0) -> (d0)>

// Y = X + bias: the bias row is read through a broadcast map (d0, d1) -> (d1). Its FIFO
// holds the 64 bias values of one tile, its transfer keeps only the column loop index
// (the row loop does not index it), and the compute stage reads it as a tensor<64xf16>.
// CHECK-DAG: #[[ID:[a-z0-9]+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:[a-z0-9]+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @bias_add(
// CHECK:         %[[BIAS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [128], strides: [1] : memref<128xf16, "DDR"> to memref<128xf16, strided<[1], offset: ?>, "DDR">
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.*]]:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:                 ktdf.data_transfer from %{{.*}}[%[[I]], %[[J]]] size [1, 64] to %[[P]]#0 size [1, 64]
// CHECK-NEXT:            ktdf.data_transfer from %[[BIAS]][%[[J]]] size [64] to %[[P]]#1 size [64] : memref<128xf16, strided<[1], offset: ?>, "DDR">
// CHECK:                 %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:            %[[B:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK:                 %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:            linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[B]] : tensor<1x64xf16>, tensor<64xf16>) outs(%[[E]] : tensor<1x64xf16>)

// Z = X * s with s a broadcast scalar (tensor.splat of the program's argument): not a
// load, so it gets no FIFO; the compute stage cuts the tile it needs out of the splat.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME:      %[[S:[a-zA-Z0-9_]+]]: f16
// CHECK:         %[[SPLAT:.*]] = tensor.splat %[[S]] : tensor<4x128xf16>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:             %[[X:.*]] = ktdf.read_from_fifo
// CHECK:             %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:        %[[T:.*]] = tensor.extract_slice %[[SPLAT]][%[[I]], %[[J]]] [1, 64] [1, 1] : tensor<4x128xf16> to tensor<1x64xf16>
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[X]], %[[T]] : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>)

module {
  module @local_schedule_0 {
    func.func @bias_add(%r: index) {
      %c0 = arith.constant 0 : index
      %b_addr = arith.constant 2048 : index
      %y_addr = arith.constant 4096 : index
      %x = ktdp.construct_memory_view %c0, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [128], strides: [1] {coordinate_set = #bias, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %y = ktdp.construct_memory_view %y_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %tx = ktdp.construct_access_tile %x[%r, %c0] {access_tile_set = #rows, access_tile_order = #order2} : memref<8x128xf16> -> !ktdp.access_tile<4x128xindex>
      %tb = ktdp.construct_access_tile %b[%c0] {access_tile_set = #bias, access_tile_order = #order1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %vx = ktdp.load %tx : !ktdp.access_tile<4x128xindex> -> tensor<4x128xf16>
      %vb = ktdp.load %tb : !ktdp.access_tile<128xindex> -> tensor<128xf16>
      %init = tensor.empty() : tensor<4x128xf16>
      %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
          ins(%vx, %vb : tensor<4x128xf16>, tensor<128xf16>) outs(%init : tensor<4x128xf16>) {
      ^bb0(%a: f16, %c: f16, %o: f16):
        %s = arith.addf %a, %c : f16
        linalg.yield %s : f16
      } -> tensor<4x128xf16>
      %ty = ktdp.construct_access_tile %y[%r, %c0] {access_tile_set = #rows, access_tile_order = #order2} : memref<8x128xf16> -> !ktdp.access_tile<4x128xindex>
      ktdp.store %sum, %ty : tensor<4x128xf16>, !ktdp.access_tile<4x128xindex>
      return
    }
  }
  module @local_schedule_1 {
    func.func @scale(%s: f16, %r: index) {
      %c0 = arith.constant 0 : index
      %z_addr = arith.constant 4096 : index
      %x = ktdp.construct_memory_view %c0, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %z = ktdp.construct_memory_view %z_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %tx = ktdp.construct_access_tile %x[%r, %c0] {access_tile_set = #rows, access_tile_order = #order2} : memref<8x128xf16> -> !ktdp.access_tile<4x128xindex>
      %vx = ktdp.load %tx : !ktdp.access_tile<4x128xindex> -> tensor<4x128xf16>
      %splat = tensor.splat %s : tensor<4x128xf16>
      %init = tensor.empty() : tensor<4x128xf16>
      %prod = linalg.mul ins(%vx, %splat : tensor<4x128xf16>, tensor<4x128xf16>) outs(%init : tensor<4x128xf16>) -> tensor<4x128xf16>
      %tz = ktdp.construct_access_tile %z[%r, %c0] {access_tile_set = #rows, access_tile_order = #order2} : memref<8x128xf16> -> !ktdp.access_tile<4x128xindex>
      ktdp.store %prod, %tz : tensor<4x128xf16>, !ktdp.access_tile<4x128xindex>
      return
    }
  }
}
