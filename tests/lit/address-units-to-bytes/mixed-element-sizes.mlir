// RUN: dfsched-opt %s --allow-unregistered-dialect --address-units-to-bytes="address-unit=element" | filecheck %s

// One memory space, views of 2- and 4-byte elements: element addresses count slots of the
// widest element (4 bytes), so a buffer starting at element r starts at byte 4r, and its
// views' elements keep their own size from there (f16 at 100: bytes 400.., its second half
// at 400 + 64 * 2). Scaling each view by its own size would put the f16 buffer's 256
// elements (bytes 200..711) over the i32 view at element 150 (bytes 600..).
// CHECK-LABEL: func.func @paged
// CHECK:         %[[A:.*]] = arith.constant 400 : index
// CHECK-NEXT:    ktdp.construct_memory_view %[[A]], sizes: [128]{{.*}} : memref<128xf16>
// CHECK:         %[[B:.*]] = arith.constant 528 : index
// CHECK-NEXT:    ktdp.construct_memory_view %[[B]], sizes: [64]{{.*}} : memref<64xf16>
// CHECK:         %[[C:.*]] = arith.constant 1400 : index
// CHECK-NEXT:    ktdp.construct_memory_view %[[C]], sizes: [16]{{.*}} : memref<16xi32>
// A space holding one element size is scaled as before (ct_local: 2 bytes each).
// CHECK:         %[[L:.*]] = arith.constant 2000 : index
// CHECK-NEXT:    ktdp.construct_memory_view %[[L]], sizes: [16]{{.*}} : memref<16xf16>
#s128 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#s64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#s16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @paged() {
  %c100 = arith.constant 100 : index
  %c164 = arith.constant 164 : index
  %c350 = arith.constant 350 : index
  %c1000 = arith.constant 1000 : index
  %x = ktdp.construct_memory_view %c100, sizes: [128], strides: [1] {coordinate_set = #s128, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %h = ktdp.construct_memory_view %c164, sizes: [64], strides: [1] {coordinate_set = #s64, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %i = ktdp.construct_memory_view %c350, sizes: [16], strides: [1] {coordinate_set = #s16, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %l = ktdp.construct_memory_view %c1000, sizes: [16], strides: [1] {coordinate_set = #s16, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
  "test.use"(%x, %h, %i, %l) : (memref<128xf16>, memref<64xf16>, memref<16xi32>, memref<16xf16>) -> ()
  return
}
