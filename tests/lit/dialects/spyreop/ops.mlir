// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every Spyre intrinsic, in each of its syntactic shapes.

// CHECK-LABEL: func.func @float_intrinsics
// CHECK-SAME: (%[[H:.*]]: f16, %[[D:.*]]: !spyreop.df16, %[[S:.*]]: f32)
// CHECK: spyreop.exp %[[H]] : f16
// CHECK: spyreop.gelu %[[D]] : !spyreop.df16
// CHECK: spyreop.sigmoid %[[S]] : f32
// CHECK: spyreop.silu %[[H]] : f16
// CHECK: spyreop.sqrt %[[D]] : !spyreop.df16
// CHECK: spyreop.rsqrt %[[S]] : f32
// CHECK: spyreop.reciprocal %[[H]] {hint = "fast"} : f16
// CHECK: spyreop.realdiv %[[S]], %[[S]] : f32
// CHECK: spyreop.select %[[D]], %[[D]], %[[D]] : !spyreop.df16
// CHECK: spyreop.softplus %[[H]] beta 2.000000e-01 threshold 1.000000e-01 : f16
// CHECK: spyreop.softplus %[[D]] beta -1.500000e+00 threshold 2.000000e+01 : !spyreop.df16
// GENERIC-LABEL: sym_name = "float_intrinsics"
// GENERIC: "spyreop.softplus"(%{{.*}}) <{beta = 2.000000e-01 : f32, threshold = 1.000000e-01 : f32}> : (f16) -> f16
func.func @float_intrinsics(%h: f16, %d: !spyreop.df16, %s: f32) {
  %0 = spyreop.exp %h : f16
  %1 = spyreop.gelu %d : !spyreop.df16
  %2 = spyreop.sigmoid %s : f32
  %3 = spyreop.silu %h : f16
  %4 = spyreop.sqrt %d : !spyreop.df16
  %5 = spyreop.rsqrt %s : f32
  %6 = spyreop.reciprocal %h {hint = "fast"} : f16
  %7 = spyreop.realdiv %s, %s : f32
  %8 = spyreop.select %d, %d, %d : !spyreop.df16
  %9 = spyreop.softplus %h beta 0.2 threshold 0.1 : f16
  %10 = spyreop.softplus %d beta -1.5 threshold 20.0 : !spyreop.df16
  return
}

// CHECK-LABEL: func.func @normalisation
// CHECK-SAME: (%[[D:.*]]: !spyreop.df16, %[[H:.*]]: f16, %[[S:.*]]: f32, %[[P:.*]]: !spyreop.fp16_fused, %[[Q:.*]]: !spyreop.df16_fused, %[[R:.*]]: !spyreop.fp32_fused)
// CHECK: %[[M:.*]]:2 = spyreop.exx2 %[[D]] : !spyreop.df16
// CHECK: spyreop.exx2_fused %[[H]] : f16 -> !spyreop.fp16_fused
// CHECK: spyreop.exx2_fused %[[D]] : !spyreop.df16 -> !spyreop.df16_fused
// CHECK: spyreop.exx2_zeromean_fused %[[S]] : f32 -> !spyreop.fp32_fused
// CHECK: spyreop.layernormscale %[[M]]#0 squares %[[M]]#1 : !spyreop.df16
// CHECK: spyreop.layernormscale_fused %[[P]] : !spyreop.fp16_fused -> f16
// CHECK: spyreop.layernormscale_fused %[[Q]] : !spyreop.df16_fused -> !spyreop.df16
// CHECK: spyreop.layernormscale_fused %[[R]] : !spyreop.fp32_fused -> f32
// CHECK: spyreop.layernormnorm %[[D]] squares %[[M]]#1 scale %[[D]] weight %[[D]] bias %[[D]] : !spyreop.df16
// GENERIC-LABEL: sym_name = "normalisation"
// GENERIC: "spyreop.exx2"(%{{.*}}) : (!spyreop.df16) -> (!spyreop.df16, !spyreop.df16)
func.func @normalisation(%d: !spyreop.df16, %h: f16, %s: f32, %p: !spyreop.fp16_fused,
                         %q: !spyreop.df16_fused, %r: !spyreop.fp32_fused) {
  %mean, %squares = spyreop.exx2 %d : !spyreop.df16
  %0 = spyreop.exx2_fused %h : f16 -> !spyreop.fp16_fused
  %1 = spyreop.exx2_fused %d : !spyreop.df16 -> !spyreop.df16_fused
  %2 = spyreop.exx2_zeromean_fused %s : f32 -> !spyreop.fp32_fused
  %3 = spyreop.layernormscale %mean squares %squares : !spyreop.df16
  %4 = spyreop.layernormscale_fused %p : !spyreop.fp16_fused -> f16
  %5 = spyreop.layernormscale_fused %q : !spyreop.df16_fused -> !spyreop.df16
  %6 = spyreop.layernormscale_fused %r : !spyreop.fp32_fused -> f32
  %7 = spyreop.layernormnorm %d squares %squares scale %d weight %d bias %d : !spyreop.df16
  return
}

// The integer intrinsics spell no type: it is implied by the op.
// CHECK-LABEL: func.func @integer_intrinsics
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32, %[[L:.*]]: i64)
// CHECK: spyreop.addi32toi32 %[[A]], %[[B]]{{$}}
// CHECK: spyreop.addi64toi64 %[[L]], %[[L]]{{$}}
// CHECK: spyreop.muli32toi32 %[[A]], %[[B]]{{$}}
// CHECK: spyreop.idx32toaddr %[[A]] base %[[B]] stride %[[A]]{{$}}
// GENERIC-LABEL: sym_name = "integer_intrinsics"
// GENERIC: "spyreop.addi32toi32"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC: "spyreop.addi64toi64"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// GENERIC: "spyreop.idx32toaddr"(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> i32
func.func @integer_intrinsics(%a: i32, %b: i32, %l: i64) {
  %0 = spyreop.addi32toi32 %a, %b
  %1 = spyreop.addi64toi64 %l, %l
  %2 = spyreop.muli32toi32 %a, %b
  %3 = spyreop.idx32toaddr %a base %b stride %a
  return
}

// The enum attributes print stripped inside the op syntax and in full in a dictionary.
// CHECK-LABEL: func.func @compare_reduce_constant
// CHECK-SAME: (%[[S:.*]]: f32, %[[D:.*]]: !spyreop.df16, %[[H:.*]]: f16, %[[ROW:.*]]: tensor<64xf16>)
// CHECK: spyreop.compare <equal> %[[S]], %[[S]] : f32
// CHECK: spyreop.compare <notequal> %[[H]], %[[H]] : f16
// CHECK: spyreop.compare <greaterthan> %[[D]], %[[D]] : !spyreop.df16
// CHECK: spyreop.compare <greaterequal> %[[S]], %[[S]] : f32
// CHECK: spyreop.compare <lesserthan> %[[D]], %[[D]] : !spyreop.df16
// CHECK: spyreop.compare <lesserequal> %[[S]], %[[S]] : f32
// CHECK: spyreop.slice_reduction %[[ROW]] {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
// CHECK: spyreop.slice_reduction %[[ROW]] {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<64xf16> -> tensor<64xf16>
// CHECK: spyreop.constant 1.500000e+00 : f16
// CHECK: spyreop.constant {{0x7c00|0x7C00}} : f16
// CHECK: spyreop.constant -2.500000e-01 : f32
// GENERIC-LABEL: sym_name = "compare_reduce_constant"
// GENERIC: "spyreop.compare"(%{{.*}}, %{{.*}}) <{predicate = #spyreop.compare_predicate<equal>}> : (f32, f32) -> f32
// GENERIC: "spyreop.constant"() <{value = 1.500000e+00 : f16}> : () -> f16
func.func @compare_reduce_constant(%s: f32, %d: !spyreop.df16, %h: f16, %row: tensor<64xf16>) {
  %0 = spyreop.compare <equal> %s, %s : f32
  %1 = spyreop.compare <notequal> %h, %h : f16
  %2 = spyreop.compare <greaterthan> %d, %d : !spyreop.df16
  %3 = spyreop.compare <greaterequal> %s, %s : f32
  %4 = spyreop.compare <lesserthan> %d, %d : !spyreop.df16
  %5 = spyreop.compare <lesserequal> %s, %s : f32
  %6 = spyreop.slice_reduction %row {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  %7 = spyreop.slice_reduction %row {reduction_scope = #spyreop.reduction_scope<across_slice>, reduction_kind = #spyreop.reduction_kind<abs_max>} : tensor<64xf16> -> tensor<64xf16>
  %8 = spyreop.constant 1.5 : f16
  %9 = spyreop.constant 0x7C00 : f16
  %10 = spyreop.constant -0.25 : f32
  return
}

// The df16 and fused types work as element types, and intrinsics sit in linalg bodies.
// CHECK-LABEL: func.func @in_a_generic
// CHECK-SAME: memref<4x!spyreop.df16>
// CHECK: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[E:.*]] = spyreop.exp %[[X]] : f16
// CHECK-NEXT: %[[Q:.*]] = spyreop.realdiv %[[E]], %[[Y]] : f16
// CHECK-NEXT: linalg.yield %[[Q]] : f16
#map = affine_map<(d0) -> (d0)>
func.func @in_a_generic(%a: tensor<4xf16>, %b: tensor<4xf16>, %o: tensor<4xf16>, %m: memref<4x!spyreop.df16>) -> tensor<4xf16> {
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xf16>, tensor<4xf16>) outs(%o : tensor<4xf16>) {
  ^bb0(%x: f16, %y: f16, %out: f16):
    %e = spyreop.exp %x : f16
    %q = spyreop.realdiv %e, %y : f16
    linalg.yield %q : f16
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}
