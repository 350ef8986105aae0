// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// An element-wise spyreop intrinsic in a linalg.generic body. vectorchain has no op that
// carries an intrinsic (its sigmoid_estimate, exp_estimate, ... are auxiliary estimates), so
// the intrinsic stays as itself, on scalars, in a one-op element-wise linalg.generic over the
// flattened 64-lane vector, bridged by unrealized_conversion_casts; the other body ops become
// vectorchain.binary as usual.

// CHECK-LABEL: func.func @sigmoid_gate(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}) : {
// CHECK:           %[[X:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK:           %[[Y:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK:           %[[XT:.*]] = builtin.unrealized_conversion_cast %[[X]] : vector<64xf16> to tensor<64xf16>
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:      %[[GT:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[XT]] : tensor<64xf16>) outs(%[[E]] : tensor<64xf16>) {
// CHECK:           ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[S:.*]] = spyreop.sigmoid %[[IN]] : f16
// CHECK:             linalg.yield %[[S]] : f16
// CHECK:           } -> tensor<64xf16>
// CHECK:           %[[G:.*]] = builtin.unrealized_conversion_cast %[[GT]] : tensor<64xf16> to vector<64xf16>
// CHECK-NEXT:      %[[P:.*]] = vectorchain.binary %[[G]], %[[Y]] {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #[[ID]]} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK:           dataflow.send %{{.*}}, %[[P]] : vector<64xf16>
// CHECK:         }
// CHECK-NOT:     ktdf.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @sigmoid_gate() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %su = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  %m3 = uniform.def_immutable_mapping([%k -> %su]):index
  %q3 = uniform.query_map(map:%m3, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2, %q3 {
    %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      %x = ktdf.read_from_fifo %in#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
      %y = ktdf.read_from_fifo %in#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %g = spyreop.sigmoid %a : f16
        %p = arith.mulf %g, %b : f16
        linalg.yield %p : f16
      } -> tensor<1x64xf16>
      ktdf.write_to_fifo %r, %out : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
    }
    ktdf_lowering.execute_on %q3 {
      "test.consumer"() : () -> ()
    }
  }
  return
}

// -----

// Intrinsics chained and with two operands: exp(x) / y, one generic per intrinsic, the
// second taking the first's result (cast back to a tensor) and y.

// CHECK-LABEL: func.func @exp_div(
// CHECK:           %[[X:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK:           %[[Y:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK:           %[[XT:.*]] = builtin.unrealized_conversion_cast %[[X]] : vector<64xf16> to tensor<64xf16>
// CHECK:           %[[E1:.*]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:      %[[ET:.*]] = linalg.generic {{.*}} ins(%[[XT]] : tensor<64xf16>) outs(%[[E1]] : tensor<64xf16>) {
// CHECK:           ^bb0(%[[A:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[EX:.*]] = spyreop.exp %[[A]] : f16
// CHECK:             linalg.yield %[[EX]] : f16
// CHECK:           } -> tensor<64xf16>
// CHECK:           %[[EV:.*]] = builtin.unrealized_conversion_cast %[[ET]] : tensor<64xf16> to vector<64xf16>
// CHECK:           %[[EVT:.*]] = builtin.unrealized_conversion_cast %[[EV]] : vector<64xf16> to tensor<64xf16>
// CHECK:           %[[YT:.*]] = builtin.unrealized_conversion_cast %[[Y]] : vector<64xf16> to tensor<64xf16>
// CHECK:           %[[E2:.*]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:      %[[DT:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[EVT]], %[[YT]] : tensor<64xf16>, tensor<64xf16>) outs(%[[E2]] : tensor<64xf16>) {
// CHECK:           ^bb0(%[[N:.*]]: f16, %[[D:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[Q:.*]] = spyreop.realdiv %[[N]], %[[D]] : f16
// CHECK:             linalg.yield %[[Q]] : f16
// CHECK:           } -> tensor<64xf16>
// CHECK:           %[[R:.*]] = builtin.unrealized_conversion_cast %[[DT]] : tensor<64xf16> to vector<64xf16>
// CHECK:           dataflow.send %{{.*}}, %[[R]] : vector<64xf16>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @exp_div() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %su = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  %m3 = uniform.def_immutable_mapping([%k -> %su]):index
  %q3 = uniform.query_map(map:%m3, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2, %q3 {
    %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      %x = ktdf.read_from_fifo %in#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
      %y = ktdf.read_from_fifo %in#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %ex = spyreop.exp %a : f16
        %q = spyreop.realdiv %ex, %b : f16
        linalg.yield %q : f16
      } -> tensor<1x64xf16>
      ktdf.write_to_fifo %r, %out : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
    }
    ktdf_lowering.execute_on %q3 {
      "test.consumer"() : () -> ()
    }
  }
  return
}

// -----

// A reduction-style intrinsic (two results: mean and mean of squares) is not element-wise:
// still the located error.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @exx2_in_parallel_body() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %su = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  %m3 = uniform.def_immutable_mapping([%k -> %su]):index
  %q3 = uniform.query_map(map:%m3, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2, %q3 {
    %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      %x = ktdf.read_from_fifo %in : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%a: f16, %o: f16):
        // expected-error @below {{unsupported operation type in linalg.generic body}}
        %m, %s = spyreop.exx2 %a : f16
        linalg.yield %s : f16
      } -> tensor<1x64xf16>
      ktdf.write_to_fifo %r, %out : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
    }
    ktdf_lowering.execute_on %q3 {
      "test.consumer"() : () -> ()
    }
  }
  return
}
