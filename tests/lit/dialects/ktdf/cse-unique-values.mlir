// RUN: dfsched-opt %s -cse | filecheck %s
// RUN: dfsched-opt %s -canonicalize | filecheck %s --check-prefix=DCE

// Two create_token or reserve_size ops are distinct values even when they look alike:
// CSE keeps every one of them, while ordinary pure ops next to them are merged.

// CHECK-LABEL: func.func @tokens
// CHECK-NEXT:    %[[A:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    %[[B:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    %[[C:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]]
func.func @tokens() -> (!ktdf.token, !ktdf.token, !ktdf.token) {
  %a = ktdf.create_token : !ktdf.token
  %b = ktdf.create_token : !ktdf.token
  %c = ktdf.create_token : !ktdf.token
  return %a, %b, %c : !ktdf.token, !ktdf.token, !ktdf.token
}

// CHECK-LABEL: func.func @tile_sizes
// CHECK-NEXT:    %[[X:.*]] = ktdf.tiling.reserve_size {divisibility = 2 : index, min_value = 4 : index} : index
// CHECK-NEXT:    %[[Y:.*]] = ktdf.tiling.reserve_size {divisibility = 2 : index, min_value = 4 : index} : index
// CHECK-NEXT:    %[[L:.*]] = ktdf.tiling.linearize_index [%[[X]] : %[[Y]]] : index
// CHECK-NEXT:    return %[[X]], %[[Y]], %[[L]], %[[L]]
func.func @tile_sizes() -> (index, index, index, index) {
  %x = ktdf.tiling.reserve_size {min_value = 4 : index, divisibility = 2 : index} : index
  %y = ktdf.tiling.reserve_size {min_value = 4 : index, divisibility = 2 : index} : index
  %l1 = ktdf.tiling.linearize_index [%x : %y] : index
  %l2 = ktdf.tiling.linearize_index [%x : %y] : index
  return %x, %y, %l1, %l2 : index, index, index, index
}

// Inside a private region too: the pipeline's three tokens stay three.
// CHECK-LABEL: func.func @private_tokens
// CHECK:         ktdf.create_token
// CHECK-NEXT:    ktdf.create_token
// CHECK-NEXT:    ktdf.create_token
// CHECK-NEXT:    ktdf.private_yield
func.func @private_tokens() {
  ktdf.pipeline {
    %t:3 = ktdf.private -> (!ktdf.token, !ktdf.token, !ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      %b = ktdf.create_token : !ktdf.token
      %c = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %b, %c : !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t#0, %t#1, %t#2) {
    }
  }
  return
}

// Unused, they are still dead code like any pure op.
// DCE-LABEL: func.func @unused
// DCE-NEXT:    return
func.func @unused() {
  %a = ktdf.create_token : !ktdf.token
  %x = ktdf.tiling.reserve_size {min_value = 4 : index, divisibility = 2 : index} : index
  return
}

// Upstream's hidden `unique_id` property, if present in generic input, is accepted and
// dropped: identity comes from the op itself, so two such ops still stay apart.
// CHECK-LABEL: func.func @generic_unique_ids
// CHECK-NEXT:    %[[A:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    %[[B:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @generic_unique_ids() -> (!ktdf.token, !ktdf.token) {
  %a = "ktdf.create_token"() <{unique_id = 1 : index}> : () -> !ktdf.token
  %b = "ktdf.create_token"() <{unique_id = 1 : index}> : () -> !ktdf.token
  return %a, %b : !ktdf.token, !ktdf.token
}
