// The example kernels in examples/ parse, verify, print, and read back: one RUN line per
// example (each re-parses its own output), with checks on what each one computes.

// RUN: dfsched-opt %examples/add.mlir | dfsched-opt | filecheck %s --check-prefix=ADD
// ADD-LABEL: func.func @add() attributes {grid = [32]}
// ADD: %[[T:.*]] = ktdp.get_compute_tile_id : index
// ADD: %[[ROW:.*]] = arith.muli %[[T]], %{{.*}} : index
// ADD-COUNT-3: ktdp.construct_memory_view %{{.*}}, sizes: [96, 64], strides: [64, 1] {coordinate_set = #{{.*}}, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
// ADD-COUNT-2: ktdp.construct_access_tile %{{.*}}[%[[ROW]], %{{.*}}] {{.*}} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
// ADD: %[[X:.*]] = ktdp.load %{{.*}} : <3x64xindex> -> tensor<3x64xf16>
// ADD: %[[Y:.*]] = ktdp.load %{{.*}} : <3x64xindex> -> tensor<3x64xf16>
// ADD: %[[S:.*]] = linalg.add ins(%[[X]], %[[Y]] : tensor<3x64xf16>, tensor<3x64xf16>)
// ADD: ktdp.store %[[S]], %{{.*}} : tensor<3x64xf16>, <3x64xindex>

// RUN: dfsched-opt %examples/add_2tile.mlir | dfsched-opt | filecheck %s --check-prefix=ADD2
// ADD2-LABEL: func.func @add2() attributes {grid = [2]}
// ADD2: %[[T:.*]] = ktdp.get_compute_tile_id : index
// ADD2-COUNT-3: ktdp.construct_access_tile %{{.*}}[%[[T]], %{{.*}}] {{.*}} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
// ADD2: linalg.add ins(%{{.*}}, %{{.*}} : tensor<1x64xf16>, tensor<1x64xf16>)
// ADD2: ktdp.store %{{.*}}, %{{.*}} : tensor<1x64xf16>, <1x64xindex>

// RUN: dfsched-opt %examples/fused_chain.mlir | dfsched-opt | filecheck %s --check-prefix=CHAIN
// CHAIN-LABEL: func.func @add_mul() attributes {grid = [32]}
// CHAIN: %[[X:.*]] = ktdp.load
// CHAIN: %[[Y:.*]] = ktdp.load
// CHAIN: %[[Z:.*]] = ktdp.load
// CHAIN: %[[S:.*]] = linalg.add ins(%[[X]], %[[Y]] :
// CHAIN: %[[P:.*]] = linalg.mul ins(%[[S]], %[[Z]] :
// CHAIN: ktdp.store %[[P]]

// RUN: dfsched-opt %examples/loop_nest.mlir | dfsched-opt | filecheck %s --check-prefix=NEST
// NEST-LABEL: func.func @three_groups() attributes {grid = [4]}
// NEST: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NEST: linalg.add
// NEST: ktdp.store
// NEST: scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NEST: linalg.mul
// NEST: ktdp.store
// NEST-NEXT: }
// NEST: linalg.sub
// NEST: ktdp.store
// NEST-NEXT: }
// NEST-NEXT: return

// RUN: dfsched-opt %examples/row_bias.mlir | dfsched-opt | filecheck %s --check-prefix=BIAS
// BIAS-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// BIAS-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// BIAS-LABEL: func.func @row_bias() attributes {grid = [32]}
// BIAS: %[[B:.*]] = ktdp.load %{{.*}} : <64xindex> -> tensor<64xf16>
// BIAS: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[B]] : tensor<3x64xf16>, tensor<64xf16>)
// BIAS: arith.addf

// RUN: dfsched-opt %examples/row_sum.mlir | dfsched-opt | filecheck %s --check-prefix=SUM
// SUM-LABEL: func.func @row_sum() attributes {grid = [32]}
// SUM: %[[X:.*]] = ktdp.load %{{.*}} : <3x64xindex> -> tensor<3x64xf16>
// SUM: %[[R:.*]] = linalg.reduce { arith.addf } ins(%[[X]] : tensor<3x64xf16>) outs(%{{.*}} : tensor<3xf16>) dimensions = [1]
// SUM: ktdp.store %[[R]], %{{.*}} : tensor<3xf16>, <3xindex>

// RUN: dfsched-opt %examples/intrinsic.mlir | dfsched-opt | filecheck %s --check-prefix=INTRINSIC
// INTRINSIC-LABEL: func.func @gated_product() attributes {grid = [32]}
// INTRINSIC: linalg.generic
// INTRINSIC: ^bb0(%[[G:.*]]: f16, %[[V:.*]]: f16, %{{.*}}: f16):
// INTRINSIC-NEXT: %[[S:.*]] = spyreop.sigmoid %[[G]] : f16
// INTRINSIC-NEXT: %[[P:.*]] = arith.mulf %[[S]], %[[V]] : f16
// INTRINSIC-NEXT: linalg.yield %[[P]] : f16

// Every example is legal KTIR for the scheduler.
// RUN: dfsched-opt %examples/add.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// RUN: dfsched-opt %examples/add_2tile.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// RUN: dfsched-opt %examples/fused_chain.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// RUN: dfsched-opt %examples/loop_nest.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// RUN: dfsched-opt %examples/row_bias.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// RUN: dfsched-opt %examples/row_sum.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// RUN: dfsched-opt %examples/intrinsic.mlir --ktir-legality-check | filecheck %s --check-prefix=LEGAL
// LEGAL: ktdp.store
