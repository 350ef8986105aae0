// RUN: dfsched-opt %s --bind-kernel-arguments | filecheck %s

// Without bindings nothing changes: unbound buffer addresses are run-time inputs, unused
// scalars and tensor arguments need no value, and runtime_arg scalars are run-time values.
// CHECK-LABEL: func.func @unchanged(%arg0: index, %arg1: index, %arg2: tensor<4xf16>, %arg3: !ktdp.runtime_arg<index, upperbound=64>) attributes {grid = [1]} {
// CHECK:         %[[C:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C]] : index
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @unchanged(%x_ptr: index, %unused: index, %t: tensor<4xf16>, %n: !ktdp.runtime_arg<index, upperbound = 64>) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %a = arith.addi %x_ptr, %c64 : index
  %x = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %v = ktdp.runtime_arg_extract value from %n : <index, upperbound = 64> -> index
  return
}
