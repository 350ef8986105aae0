// RUN: dfsched-opt %s --device=sample --ktdflowering-to-dfir | filecheck %s

// Decision 111: the lane combine of a lane-wide `arith.maxnumf` reduction folds its lanes with
// the op itself (an island: fmax's rule, a NaN loses to a number), never with the vector
// unit's max (`maximumf`'s rule, a NaN wins): log2(4) = 2 rounds of a lane rotation and an
// island, then the shuffle picking each row's first lane, combined into the result the same way.

// CHECK-LABEL: func.func @lane_combine_of_maxnum
// CHECK-NOT:     binary_operator max
// CHECK:         %[[P0:.*]] = agen.vector_load
// CHECK-NEXT:    %[[S1:.*]] = vectorchain.shuffle input(%[[P0]]) {indices = [2 : i32, 3 : i32, 0 : i32, 1 : i32, 6 : i32, 7 : i32, 4 : i32, 5 : i32]
// CHECK-NEXT:    %[[A1:.*]] = builtin.unrealized_conversion_cast %[[P0]] : vector<8xf16> to tensor<8xf16>
// CHECK-NEXT:    %[[B1:.*]] = builtin.unrealized_conversion_cast %[[S1]] : vector<8xf16> to tensor<8xf16>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<8xf16>
// CHECK-NEXT:    %[[G1:.*]] = linalg.generic {{.*}} ins(%[[A1]], %[[B1]] : tensor<8xf16>, tensor<8xf16>) outs(%[[E1]] : tensor<8xf16>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[M:.*]] = arith.maxnumf %[[X]], %[[Y]] : f16
// CHECK-NEXT:      linalg.yield %[[M]] : f16
// CHECK:         vectorchain.shuffle {{.*}} {indices = [1 : i32, 2 : i32, 3 : i32, 0 : i32, 5 : i32, 6 : i32, 7 : i32, 4 : i32]
// CHECK:         arith.maxnumf
// CHECK:         vectorchain.shuffle {{.*}} {indices = [0 : i32, 4 : i32]
// CHECK:         arith.maxnumf
// CHECK-NOT:     binary_operator max
// CHECK:         return
func.func @lane_combine_of_maxnum(%partials: memref<2x4xf16, "SFU_REG">, %out: memref<2xf16, "SFU_REG">) attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%partials : memref<2x4xf16, "SFU_REG">) outs(%out : memref<2xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 4 : index} {
    ^bb0(%in: f16, %acc: f16):
      %r = arith.maxnumf %acc, %in : f16
      linalg.yield %r : f16
    }
  }
  return
}
