// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>

// linalg.generic keeps every attribute: the trait attributes in the leading dictionary
// (sorted by name, as MLIR prints it), any other in `attrs = {...}`.
// CHECK-LABEL: func.func @generics
// CHECK-SAME: (%[[A:.*]]: tensor<4x64xf16>, %[[B:.*]]: tensor<64xf16>, %[[M:.*]]: memref<4x64xf16>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x64xf16>
// CHECK: linalg.generic {doc = "row bias", indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"], library_call = "bias_add"} ins(%[[A]], %[[B]] : tensor<4x64xf16>, tensor<64xf16>) outs(%[[E]] : tensor<4x64xf16>) attrs =  {origin = "frontend", stage = 1 : i64} {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f16
// CHECK-NEXT: linalg.yield %[[S]] : f16
// CHECK-NEXT: } -> tensor<4x64xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<4x64xf16>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f16):
// CHECK-NEXT: %[[I:.*]] = linalg.index 0 : index
// CHECK: } -> tensor<4x64xf16>
// CHECK: %{{.*}}:2 = linalg.generic {{.*}} outs(%[[E]], %[[E]] : tensor<4x64xf16>, tensor<4x64xf16>) {
// CHECK: } -> (tensor<4x64xf16>, tensor<4x64xf16>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[M]] : memref<4x64xf16>) outs(%{{.*}} : memref<4xf16>) {
// CHECK: linalg.yield %{{.*}} : f16
// CHECK-NEXT: }{{$}}
// GENERIC-LABEL: sym_name = "generics"
// GENERIC: "linalg.generic"(%{{.*}}, %{{.*}}, %{{.*}}) <{doc = "row bias", indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], library_call = "bias_add"
// GENERIC: }) {origin = "frontend", stage = 1 : i64} : (tensor<4x64xf16>, tensor<64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
func.func @generics(%a: tensor<4x64xf16>, %b: tensor<64xf16>, %m: memref<4x64xf16>) {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.generic {library_call = "bias_add", iterator_types = ["parallel", "parallel"], origin = "frontend",
                       indexing_maps = [#id, #row, #id], doc = "row bias"}
      ins(%a, %b : tensor<4x64xf16>, tensor<64xf16>) outs(%e : tensor<4x64xf16>) attrs = {stage = 1 : i64} {
  ^bb0(%x: f16, %y: f16, %out: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<4x64xf16>
  %1 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x64xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    linalg.yield %out : f16
  } -> tensor<4x64xf16>
  %2:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf16>) outs(%e, %e : tensor<4x64xf16>, tensor<4x64xf16>) {
  ^bb0(%x: f16, %o1: f16, %o2: f16):
    linalg.yield %x, %x : f16, f16
  } -> (tensor<4x64xf16>, tensor<4x64xf16>)
  %sums = memref.alloc() : memref<4xf16>
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<4x64xf16>) outs(%sums : memref<4xf16>) {
  ^bb0(%x: f16, %acc: f16):
    %s = arith.addf %x, %acc : f16
    linalg.yield %s : f16
  }
  return
}

// CHECK-LABEL: func.func @broadcast_transpose
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<64xf16>) outs(%{{.*}} : tensor<4x64xf16>) dimensions = [0]{{$}}
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<4xf16>) outs(%{{.*}} : tensor<4x64xf16>) dimensions = [1] {tag}{{$}}
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x64xf16>) outs(%{{.*}} : tensor<64x4xf16>) permutation = [1, 0]{{$}}
// GENERIC-LABEL: sym_name = "broadcast_transpose"
// GENERIC: "linalg.broadcast"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0>}>
// GENERIC: "linalg.transpose"(%{{.*}}, %{{.*}}) <{permutation = array<i64: 1, 0>}>
func.func @broadcast_transpose(%a: tensor<4x64xf16>, %b: tensor<64xf16>, %c: tensor<4xf16>) {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.broadcast ins(%b : tensor<64xf16>) outs(%e : tensor<4x64xf16>) dimensions = [0]
  %1 = linalg.broadcast ins(%c : tensor<4xf16>) outs(%e : tensor<4x64xf16>) dimensions = [1] {tag}
  %et = tensor.empty() : tensor<64x4xf16>
  %2 = linalg.transpose ins(%a : tensor<4x64xf16>) outs(%et : tensor<64x4xf16>) permutation = [1, 0]
  return
}

// linalg.reduce prints MLIR's short form when its body is one payload op applied to
// (accumulator, input), the region form otherwise.
// CHECK-LABEL: func.func @reductions
// CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<4x64xf16>) outs(%{{.*}} : tensor<4xf16>) dimensions = [1]{{$}}
// CHECK: linalg.reduce { arith.maximumf {fastmath = #arith.fastmath<fast>} } ins(%{{.*}} : tensor<4x64xf16>) outs(%{{.*}} : tensor<4xf16>) dimensions = [1]{{$}}
// CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<4x64xf16>) outs(%{{.*}} : tensor<4xf16>) dimensions = [1]{{$}}
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x64xf16>) outs(%{{.*}} : tensor<4xf16>) dimensions = [1]{{$}}
// CHECK-NEXT: {{^      }}(%[[IN:.*]]: f16, %[[ACC:.*]]: f16) {
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[IN]], %[[ACC]] : f16
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[S]], %[[S]] : f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK-NEXT: {{^      }}}
// CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : memref<4x64xf16>) outs(%{{.*}} : memref<4xf16>) dimensions = [1]{{$}}
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC: "linalg.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f16):
// GENERIC-NEXT: %[[S:.*]] = "arith.addf"(%[[ACC]], %[[IN]])
func.func @reductions(%a: tensor<4x64xf16>, %m: memref<4x64xf16>, %o: memref<4xf16>) {
  %init = tensor.empty() : tensor<4xf16>
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
  %1 = linalg.reduce { arith.maximumf {fastmath = #arith.fastmath<fast>} } ins(%a : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
  %2 = linalg.reduce ins(%a : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %acc, %in : f16
      linalg.yield %s : f16
    }
  %3 = linalg.reduce ins(%a : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      %t = arith.mulf %s, %s : f16
      linalg.yield %t : f16
    }
  linalg.reduce { arith.addf } ins(%m : memref<4x64xf16>) outs(%o : memref<4xf16>) dimensions = [1]
  return
}
