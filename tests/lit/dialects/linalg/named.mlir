// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=BODY

// Named linalg ops print as mlir-opt prints them: the attribute dictionary comes before
// `ins` (after `outs` and xDSL's `attrs = {...}` are read too).

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: tensor<4x64xf16>, %[[B:.*]]: tensor<4x64xf16>, %[[E:.*]]: tensor<4x64xf16>)
// CHECK: linalg.add ins(%[[A]], %[[B]] : tensor<4x64xf16>, tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.sub {tag = 1 : i64} ins(%[[A]], %[[B]] : tensor<4x64xf16>, tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.mul {tag = 2 : i64} ins(%[[A]], %[[B]] : tensor<4x64xf16>, tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.div {tag = 3 : i64} ins(%[[A]], %[[B]] : tensor<4x64xf16>, tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.max ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.min ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.powf ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.exp ins(%[[A]] : tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: linalg.log ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.sqrt ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.rsqrt ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.reciprocal ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.negf ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.abs ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.ceil ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.floor ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.round ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.square ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.tanh ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// CHECK: linalg.erf ins(%[[A]] : {{.*}}) -> tensor<4x64xf16>
// BODY-LABEL: sym_name = "elementwise"
// BODY: "linalg.div"
// BODY-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// BODY-NEXT: %[[Q:.*]] = "arith.divf"(%[[X]], %[[Y]])
// BODY-NEXT: "linalg.yield"(%[[Q]])
// BODY: "linalg.reciprocal"
// BODY-NEXT: ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// BODY-NEXT: %[[ONE:.*]] = "arith.constant"() <{value = 1.000000e+00 : f16}>
// BODY-NEXT: %[[R:.*]] = "arith.divf"(%[[ONE]], %[[X]])
// BODY: "linalg.square"
// BODY-NEXT: ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// BODY-NEXT: "arith.mulf"(%[[X]], %[[X]])
func.func @elementwise(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>, %e: tensor<4x64xf16>) {
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %1 = linalg.sub {tag = 1 : i64} ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %2 = linalg.mul ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {tag = 2 : i64} -> tensor<4x64xf16>
  %3 = linalg.div ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) attrs = {tag = 3 : i64} -> tensor<4x64xf16>
  %4 = linalg.max ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %5 = linalg.min ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %6 = linalg.powf ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %7 = linalg.exp ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %8 = linalg.log ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %9 = linalg.sqrt ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %10 = linalg.rsqrt ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %11 = linalg.reciprocal ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %12 = linalg.negf ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %13 = linalg.abs ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %14 = linalg.ceil ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %15 = linalg.floor ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %16 = linalg.round ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %17 = linalg.square ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %18 = linalg.tanh ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %19 = linalg.erf ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// Integer element types pick the integer arith ops for the hidden bodies.
// CHECK-LABEL: func.func @integers
// CHECK: linalg.div ins(%{{.*}}, %{{.*}} : tensor<8xi32>, tensor<8xi32>) outs(%{{.*}} : tensor<8xi32>) -> tensor<8xi32>
// CHECK: linalg.div_unsigned ins(%{{.*}}, %{{.*}} : tensor<8xi32>, tensor<8xi32>) outs(%{{.*}} : tensor<8xi32>) -> tensor<8xi32>
// BODY-LABEL: sym_name = "integers"
// BODY: "arith.divsi"
// BODY: "arith.divui"
func.func @integers(%a: tensor<8xi32>, %e: tensor<8xi32>) {
  %0 = linalg.div ins(%a, %a : tensor<8xi32>, tensor<8xi32>) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %1 = linalg.div_unsigned ins(%a, %a : tensor<8xi32>, tensor<8xi32>) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  return
}

// Buffers: no results, no arrow.
// CHECK-LABEL: func.func @buffers
// CHECK: linalg.add ins(%{{.*}}, %{{.*}} : memref<4x64xf16>, memref<4x64xf16>) outs(%{{.*}} : memref<4x64xf16>){{$}}
// CHECK: linalg.div ins(%{{.*}}, %{{.*}} : memref<4x64xf16>, memref<4x64xf16>) outs(%{{.*}} : memref<4x64xf16>){{$}}
// CHECK: linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : memref<4x64xf16>){{$}}
func.func @buffers(%a: memref<4x64xf16>, %o: memref<4x64xf16>) {
  linalg.add ins(%a, %a : memref<4x64xf16>, memref<4x64xf16>) outs(%o : memref<4x64xf16>)
  linalg.div ins(%a, %a : memref<4x64xf16>, memref<4x64xf16>) outs(%o : memref<4x64xf16>)
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%o : memref<4x64xf16>)
  return
}

// CHECK-LABEL: func.func @contractions
// CHECK: linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x64xf16>, tensor<64x8xf16>) outs(%{{.*}} : tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x64xf16>, tensor<2x64x8xf16>) outs(%{{.*}} : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
// BODY-LABEL: sym_name = "contractions"
// BODY: "linalg.batch_matmul"
// BODY-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[Z:.*]]: f16):
// BODY-NEXT: %[[P:.*]] = "arith.mulf"(%[[X]], %[[Y]])
// BODY-NEXT: %[[S:.*]] = "arith.addf"(%[[P]], %[[Z]])
func.func @contractions(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>, %ba: tensor<2x4x64xf16>, %bb: tensor<2x64x8xf16>) {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<4x8xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%init : tensor<4x8xf16>) -> tensor<4x8xf16>
  %c = linalg.matmul ins(%a, %b : tensor<4x64xf16>, tensor<64x8xf16>) outs(%acc : tensor<4x8xf16>) -> tensor<4x8xf16>
  %binit = tensor.empty() : tensor<2x4x8xf16>
  %bc = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x64xf16>, tensor<2x64x8xf16>) outs(%binit : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  return
}
