// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Custom syntax of the affine ops as mlir-opt prints it: `#map(dims)[symbols]` with no space,
// `()` always printed, the condition of affine.if, `affine.max`, and subscripts written with
// SSA names (`symbol(%n)` for symbols). The generic form parses back to the same IR.

// CHECK-DAG: #[[SHIFT:.+]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-DAG: #[[DIFF:.+]] = affine_map<()[s0, s1] -> (s1 - s0)>
// CHECK-DAG: #[[MINMAP:.+]] = affine_map<(d0)[s0] -> (d0 * 2, s0 - 1)>
// CHECK-DAG: #[[BOUND:.+]] = affine_map<(d0) -> (d0 + 8)>
// CHECK-DAG: #[[INSIDE:.+]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>

// CHECK-LABEL: func.func @affine_ops(%arg0: index, %arg1: index, %arg2: memref<64xf32>) -> index {
// CHECK-NEXT:    %0 = affine.apply #[[SHIFT]](%arg0)
// CHECK-NEXT:    %1 = affine.apply #[[DIFF]]()[%arg0, %arg1]
// CHECK-NEXT:    %2 = affine.min #[[MINMAP]](%0)[%1]
// CHECK-NEXT:    %3 = affine.max #[[MINMAP]](%0)[%1] {dfs.tag}
// CHECK-NEXT:    affine.for %arg3 = 0 to 64 step 4 {
// CHECK-NEXT:      affine.for %arg4 = #[[SHIFT]](%arg3) to #[[BOUND]](%arg3) {
// CHECK-NEXT:        affine.if #[[INSIDE]](%arg4)[%arg1] {
// CHECK-NEXT:          %5 = affine.load %arg2[%arg4 * 2 - 1] : memref<64xf32>
// CHECK-NEXT:          affine.store %5, %arg2[%arg4 + symbol(%arg1)] : memref<64xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %4 = affine.if #[[INSIDE]](%2)[%arg1] -> index {
// CHECK-NEXT:      affine.yield %2 : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      affine.yield %3 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %4 : index
// GENERIC:      "affine.max"(%0, %1) <{map = #map2}> {dfs.tag} : (index, index) -> index
// GENERIC:      "affine.if"(%arg4, %arg1) <{condition = #set}> ({
// GENERIC-NEXT:   "affine.load"(%arg2, %arg4) <{map = #map3}> : (memref<64xf32>, index) -> f32
// GENERIC-NEXT:   "affine.store"(%5, %arg2, %arg4, %arg1) <{map = #map4}> : (f32, memref<64xf32>, index, index) -> ()
// GENERIC-NEXT:   "affine.yield"() : () -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (index, index) -> ()
func.func @affine_ops(%i: index, %n: index, %m: memref<64xf32>) -> index {
  %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  %b = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%i, %n]
  %lo = affine.min affine_map<(d0)[s0] -> (2 * d0, s0 - 1)>(%a)[%b]
  %hi = affine.max affine_map<(d0)[s0] -> (d0 * 2, s0 - 1)>(%a)[%b] {dfs.tag}
  affine.for %x = 0 to 64 step 4 {
    affine.for %y = affine_map<(d0) -> (d0 + 1)>(%x) to affine_map<(d0) -> (d0 + 8)>(%x) {
      affine.if affine_set<(d0)[s0] : (d0 >= 0, d0 <= s0 - 1)>(%y)[%n] {
        %v = affine.load %m[2 * %y - 1] : memref<64xf32>
        affine.store %v, %m[%y + symbol(%n)] : memref<64xf32>
      }
    }
  }
  %r = affine.if affine_set<(d0)[s0] : (d0 >= 0, d0 <= s0 - 1)>(%lo)[%n] -> index {
    affine.yield %lo : index
  } else {
    affine.yield %hi : index
  }
  return %r : index
}
