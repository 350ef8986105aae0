// RUN: dfsched-opt %s -p dce | filecheck %s
// RUN: dfsched-opt %s -p cse | filecheck %s --check-prefix=CSE

// `affine.min` is Pure (xDSL's op has no effect information): DCE drops an unused one,
// CSE merges two identical ones.

#map = affine_map<(d0) -> (64, -d0 + 100)>

// CHECK-LABEL: func.func @unused_min
// CHECK-NOT:     affine.min
// CHECK:         return
func.func @unused_min(%i: index) {
  %0 = affine.min #map(%i)
  return
}

// CSE-LABEL: func.func @twin_mins
// CSE:         %[[M:.*]] = affine.min #{{.*}}(%{{.*}})
// CSE-NOT:     affine.min
// CSE:         return %[[M]], %[[M]] : index, index
func.func @twin_mins(%i: index) -> (index, index) {
  %0 = affine.min #map(%i)
  %1 = affine.min #map(%i)
  return %0, %1 : index, index
}
