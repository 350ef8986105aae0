// A 2-D grid over buffers whose addresses are kernel arguments (the corpus' Triton kernels):
// normalize-grid-to-1d rebuilds tile (i, j) from the flat id as (id divui 2, id remui 2), and
// each tile's start address, argument + (i * 128 + j * 64) elements, becomes a symbol defined
// once per tile from the argument (Decision 45: the corpus' Triton kernels need the unsigned division and
// remainder evaluated per unit).
// RUN: dfsched-opt --device=sample -ktir-to-dfir %s | filecheck %s
// CHECK-LABEL: func.func @local_schedule_0(%
// CHECK-SAME:      [[X:arg[0-9]+]]: index, %[[Z:.*]]: index) {
// CHECK:         symbol.create_id %[[X]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[Z]] {symbol_id = -2 : si64} : index
// CHECK-NEXT:    %[[T1:.*]] = arith.addi %[[X]], %c128 : index
// CHECK-NEXT:    symbol.create_id %[[T1]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:    %[[T2:.*]] = arith.addi %[[X]], %c256 : index
// CHECK-NEXT:    symbol.create_id %[[T2]] {symbol_id = -4 : si64} : index
// CHECK-NEXT:    %[[T3:.*]] = arith.addi %[[X]], %c384 : index
// CHECK-NEXT:    symbol.create_id %[[T3]] {symbol_id = -5 : si64} : index

module {
  func.func @copy_blocks(%x: index, %z: index) attributes {grid = [2, 2]} {
    %c64 = arith.constant 64 : index
    %i, %j = ktdp.get_compute_tile_id : index, index
    %col = arith.muli %j, %c64 : index
    %vx = ktdp.construct_memory_view %x, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
    %vz = ktdp.construct_memory_view %z, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
    %tx = ktdp.construct_access_tile %vx[%i, %col] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x128xf16> -> !ktdp.access_tile<1x64xindex>
    %tz = ktdp.construct_access_tile %vz[%i, %col] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x128xf16> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %s = linalg.add ins(%a, %a : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %s, %tz : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
