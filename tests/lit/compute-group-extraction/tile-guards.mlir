// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// A tile guard (an scf.if on the compute tile id) becomes the grid of the programs inside it:
// the tiles it lets through are the grid's first tiles, which a program with that grid runs on,
// each keeping its coordinates. The guard leaves the orchestrator (the host cannot read the
// tile id); a guard every tile passes is inlined, one no tile passes is erased.

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @first_rows
// CHECK-NEXT:    call @local_schedule_0(%arg0) : (index) -> ()
// CHECK-NEXT:    call @local_schedule_1(%arg0) : (index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_0(%arg0: index) attributes {grid = [3, 2]}
// CHECK:       func.func @local_schedule_1(%arg0: index) attributes {grid = [1, 2]}
func.func @first_rows(%a: index) attributes {grid = [4, 2]} {
  %t:2 = ktdp.get_compute_tile_id : index, index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %a, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %below = arith.cmpi slt, %t#0, %c3 : index
  scf.if %below {
    %ti = ktdp.construct_access_tile %v[%t#0, %c1] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ti : <1x64xindex> -> tensor<1x64xf16>
    %y = arith.addf %x, %x : tensor<1x64xf16>
    ktdp.store %y, %ti : tensor<1x64xf16>, <1x64xindex>
  }
  %first = arith.cmpi eq, %t#0, %c1 : index
  %c0 = arith.constant 0 : index
  %top = arith.cmpi eq, %t#0, %c0 : index
  scf.if %top {
    %ti = ktdp.construct_access_tile %v[%t#0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<4x128xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ti : <1x64xindex> -> tensor<1x64xf16>
    %y = arith.mulf %x, %x : tensor<1x64xf16>
    ktdp.store %y, %ti : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @every_tile_or_none
// CHECK-NEXT:    call @local_schedule_0(%arg0) : (index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func @local_schedule_0(%arg0: index) attributes {grid = [2]}
// CHECK-NOT:   local_schedule_1
func.func @every_tile_or_none(%a: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %always = arith.cmpi slt, %t, %c2 : index
  scf.if %always {
    %ti = ktdp.construct_access_tile %v[%t] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    %y = arith.addf %x, %x : tensor<64xf16>
    ktdp.store %y, %ti : tensor<64xf16>, <64xindex>
  }
  %never = arith.cmpi sge, %t, %c2 : index
  scf.if %never {
    %ti = ktdp.construct_access_tile %v[%t] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    %y = arith.mulf %x, %x : tensor<64xf16>
    ktdp.store %y, %ti : tensor<64xf16>, <64xindex>
  }
  return
}
