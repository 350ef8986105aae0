// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// Element-wise arith/math ops in a linalg.generic body (Decision 15 widened): add/sub/mul/
// maximumf/minimumf of two vectors become vectorchain.binary; every other element-wise op
// stays as itself in an island, a one-op linalg.generic over the flattened vector between
// unrealized_conversion_casts, which the simulator runs with the reference semantics.

// Sigmoid-style: exp(x) / (1 + exp(x)). No vectorchain op computes exp, divf or an add with
// a scalar, so each is an island over the 64-lane vector; the scalar constant moves before
// them and stays a scalar operand of its island.

// CHECK-LABEL: func.func @sigmoid(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK:           %[[X:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK:           %[[XT:.*]] = builtin.unrealized_conversion_cast %[[X]] : vector<64xf16> to tensor<64xf16>
// CHECK:             math.exp %{{.*}} : f16
// CHECK:           %[[EX:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64xf16> to vector<64xf16>
// CHECK:             arith.addf %{{.*}}, %[[ONE]] : f16
// CHECK:           %[[DEN:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64xf16> to vector<64xf16>
// CHECK:           builtin.unrealized_conversion_cast %[[EX]] : vector<64xf16> to tensor<64xf16>
// CHECK:           builtin.unrealized_conversion_cast %[[DEN]] : vector<64xf16> to tensor<64xf16>
// CHECK:             arith.divf %{{.*}}, %{{.*}} : f16
// CHECK:           %[[Q:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64xf16> to vector<64xf16>
// CHECK:           dataflow.send %{{.*}}, %[[Q]] : vector<64xf16>

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @sigmoid() attributes {grid = [1]} {
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
        %one = arith.constant 1.000000e+00 : f16
        %ex = math.exp %a : f16
        %den = arith.addf %ex, %one : f16
        %s = arith.divf %ex, %den : f16
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

// -----

// cmpf + select: the i1 mask has no lanes, so the compare is folded into the island of the
// select that uses it (one generic holding both).

// CHECK-LABEL: func.func @relu_select(
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64xf16>, tensor<64xf16>)
// CHECK:           ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[C:.*]] = arith.cmpf ogt, %[[A]], %{{.*}} : f16
// CHECK-NEXT:        %[[S:.*]] = arith.select %[[C]], %[[A]], %[[B]] : f16
// CHECK:             linalg.yield %[[S]] : f16

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_select() attributes {grid = [1]} {
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
        %zero = arith.constant 0.000000e+00 : f16
        %pos = arith.cmpf ogt, %a, %zero : f16
        %s = arith.select %pos, %a, %b : f16
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

// -----

// arith.maxnumf is fmax (NaN-ignoring), not vectorchain's abs_max (upstream's lowering):
// an island; maximumf of two vectors stays a vectorchain.binary.

// CHECK-LABEL: func.func @maxnum(
// CHECK:             arith.maxnumf %{{.*}}, %{{.*}} : f16
// CHECK:           %[[M:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64xf16> to vector<64xf16>
// CHECK-NEXT:      vectorchain.binary %[[M]], %{{.*}} {binary_op = #vectorchain<binary_operator max>
// CHECK-NOT:       abs_max

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @maxnum() attributes {grid = [1]} {
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
        %m = arith.maxnumf %a, %b : f16
        %n = arith.maximumf %m, %b : f16
        linalg.yield %n : f16
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

// A cast to a type without lanes on the SFU (the sample device declares only f16) is
// Decision 7's error, on the cast.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @widen() attributes {grid = [1]} {
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
        // expected-error @below {{exec_unit 'SFU' declares no SIMD lanes for element type f32}}
        // expected-note * {{in device 'sample_device'}}
        %w = arith.extf %a : f16 to f32
        %t = arith.truncf %w : f32 to f16
        linalg.yield %t : f16
      } -> tensor<1x64xf16>
      ktdf.write_to_fifo %r, %out : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
    }
    ktdf_lowering.execute_on %q3 {
      "test.consumer"() : () -> ()
    }
  }
  return
}
