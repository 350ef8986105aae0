// RUN: dfsched-opt %s --allow-unregistered-dialect --bind-kernel-arguments="bind=block=128,alpha=0.5,n=7,flag=true,x_ptr=256" | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect --bind-kernel-arguments --bind block=128 --bind alpha=0.5 --bind n=7 --bind flag=true --bind x_ptr=256 | filecheck %s

// Bound arguments leave the signature and become constants of their types; the body is
// folded (the multiplication by the bound block size stays, the addition of 0 goes).
// CHECK-LABEL: func.func @specialised(%arg0: index) -> (f16, i32, i1) attributes {grid = [2, 1]} {
// CHECK-DAG:     %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f16
// CHECK-DAG:     %[[N:.*]] = arith.constant 7 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[B:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[X:.*]] = arith.constant 256 : index
// CHECK:         %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[T]], %[[B]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[OFF]], %[[X]] : index
// CHECK-NEXT:    %[[VX:.*]] = ktdp.construct_memory_view %[[A]],
// CHECK-NEXT:    %[[VY:.*]] = ktdp.construct_memory_view %arg0,
// CHECK-NEXT:    "test.use"(%[[VX]], %[[VY]])
// CHECK:         return %[[ALPHA]], %[[N]], %[[TRUE]] : f16, i32, i1
#all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
func.func @specialised(%x_ptr: index, %y_ptr: index, %block: index, %alpha: f16, %n: i32, %flag: i1)
    -> (f16, i32, i1) attributes {grid = [2, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %off = arith.muli %t, %block : index
  %c0 = arith.constant 0 : index
  %off0 = arith.addi %off, %c0 : index
  %a = arith.addi %x_ptr, %off0 : index
  %x = ktdp.construct_memory_view %a, sizes: [128], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %y = ktdp.construct_memory_view %y_ptr, sizes: [128], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  "test.use"(%x, %y) : (memref<128xf16>, memref<128xf16>) -> ()
  return %alpha, %n, %flag : f16, i32, i1
}
