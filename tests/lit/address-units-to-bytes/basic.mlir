// RUN: dfsched-opt %s --allow-unregistered-dialect --address-units-to-bytes="address-unit=element" | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect --address-units-to-bytes --unit element | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect --address-units-to-bytes | filecheck %s --check-prefix=BYTE

// Element addresses become bytes: each term of a view's offset is scaled by the element size
// (f16: 2, f32: 4), constants folded; a buffer's base address argument is kept (the runtime
// hands over bytes); i8 views need nothing.
// CHECK-LABEL: func.func @offsets(%arg0: index)
// CHECK:         %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %arg0, %[[OFF]] : index
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[OFFB:.*]] = arith.muli %[[OFF]], %[[TWO]] : index
// CHECK-NEXT:    %[[SUMB:.*]] = arith.addi %arg0, %[[OFFB]] : index
// CHECK-NEXT:    %{{.*}} = ktdp.construct_memory_view %[[SUMB]], sizes: [128]
// CHECK:         %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-NEXT:    %{{.*}} = ktdp.construct_memory_view %[[C4096]], sizes: [128]{{.*}} : memref<128xf32>
// CHECK-NEXT:    %{{.*}} = ktdp.construct_memory_view %{{.*}}, sizes: [128]{{.*}} : memref<128xi8>
// BYTE-LABEL: func.func @offsets(%arg0: index)
// BYTE-NOT:     arith.constant 2 : index
#all = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
func.func @offsets(%base: index) attributes {grid = [2]} {
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %t = ktdp.get_compute_tile_id : index
  %off = arith.muli %t, %c128 : index
  %a = arith.addi %base, %off : index
  %x = ktdp.construct_memory_view %a, sizes: [128], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %y = ktdp.construct_memory_view %c1024, sizes: [128], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
  %z = ktdp.construct_memory_view %c1024, sizes: [128], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<128xi8>
  "test.use"(%x, %y, %z) : (memref<128xf16>, memref<128xf32>, memref<128xi8>) -> ()
  return
}
