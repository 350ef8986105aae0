// RUN: dfsched-opt %s --device=test_patterns -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline --pass-pipeline='builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling})))' | filecheck %s --check-prefix=PRE
// RUN: dfsched-opt %s --device=test_patterns -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline --pass-pipeline='builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling,expand_sigmoid,features})))' | filecheck %s --check-prefix=ALL
// RUN: dfsched-opt %s --device=test_patterns -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline --pass-pipeline='builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=post_lowering})))' | filecheck %s --check-prefix=OTHER

// The pre_scheduling checkpoint as the frontend pipeline runs it: on every function of the
// programs, with the patterns of the device the kernel runs on (arch/devices/
// test_patterns.mlir). That device has no SiLU instruction: its pre_scheduling pattern
// rewrites the intrinsic into x * sigmoid(x) inside the program's compute stage. Further
// groups expand the sigmoid into 1 / (1 + e^-x), map the exponential onto the VEC unit (an
// ungrouped pattern, which only then finds an exp) and record a lookup table for the
// reciprocal as a feature before mapping it to that table.

// PRE-LABEL: func.func @local_schedule_0()
// PRE:         ktdf.stage depends_in(%{{.*}}) depends_out(%{{.*}}) {
// PRE:           linalg.generic
// PRE:           ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// PRE-NEXT:        %[[S:.*]] = spyreop.sigmoid %[[X]] : f16
// PRE-NEXT:        %[[Y:.*]] = arith.mulf %[[X]], %[[S]] : f16
// PRE:             linalg.yield %[[Y]] : f16
// PRE:         } {applicable_units = ["VEC"]}

// ALL-LABEL: func.func @local_schedule_0()
// ALL:           linalg.generic
// ALL:           ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// ALL-NEXT:        %[[N:.*]] = arith.negf %[[X]] : f16
// ALL-NEXT:        %[[E:.*]] = spyreop.exp %[[N]] {ktdf_arch.maps_to = "VEC"} : f16
// ALL-NEXT:        %[[ONE:.*]] = spyreop.constant 1.000000e+00 : f16
// ALL-NEXT:        %[[D:.*]] = arith.addf %[[ONE]], %[[E]] : f16
// ALL-NEXT:        %[[R:.*]] = spyreop.reciprocal %[[D]] {ktdf_arch.features = {dfsched.table = "recip_lut"}, ktdf_arch.maps_to = "recip_lut"} : f16
// ALL-NEXT:        %[[Y:.*]] = arith.mulf %[[X]], %[[R]] : f16
// ALL:             linalg.yield %[[Y]] : f16

// A group the device does not use leaves the intrinsic alone.
// OTHER-LABEL: func.func @local_schedule_0()
// OTHER:         linalg.generic
// OTHER:         ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// OTHER-NEXT:      %[[Y:.*]] = spyreop.silu %[[X]] : f16
// OTHER:           linalg.yield %[[Y]] : f16

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

module {
  // Y = silu(X) on an 8x32 f16 matrix, 4 rows per compute tile.
  func.func @silu_rows() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %rows = arith.constant 4 : index
    %y_addr = arith.constant 4096 : index
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %rows : index
    %x = ktdp.construct_memory_view %c0, sizes: [8, 32], strides: [32, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %y = ktdp.construct_memory_view %y_addr, sizes: [8, 32], strides: [32, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %tx = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
    %vx = ktdp.load %tx : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf16>
    %init = tensor.empty() : tensor<4x32xf16>
    %vy = linalg.generic {indexing_maps = [#order, #order], iterator_types = ["parallel", "parallel"]}
        ins(%vx : tensor<4x32xf16>) outs(%init : tensor<4x32xf16>) {
    ^bb0(%a: f16, %o: f16):
      %s = spyreop.silu %a : f16
      linalg.yield %s : f16
    } -> tensor<4x32xf16>
    %ty = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #rows, access_tile_order = #order} : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %vy, %ty : tensor<4x32xf16>, !ktdp.access_tile<4x32xindex>
    return
  }
}
