// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// The SFU's stage: two FIFO reads, an element-wise multiply-add and a FIFO write. Reads become
// receives from the L1LU on the same core, each body op a vectorchain.binary on 64-lane
// vectors (the dense constant operand becomes a vector constant), the write a send to L1SU.

// CHECK-LABEL: func.func @elementwise(
// CHECK-DAG:     %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<64xf16>
// CHECK:         %[[LU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU"
// CHECK:         %[[SFU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-SFU"
// CHECK:         %[[SU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU"
// CHECK:         dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[SFU]]) : {
// CHECK:           %[[M0:.*]] = uniform.def_immutable_mapping([%[[SFU]] -> %[[LU]]]):index
// CHECK-NEXT:      %[[Q0:.*]] = uniform.query_map(map:%[[M0]], key:%[[IT]]) : index
// CHECK-NEXT:      %[[X:.*]] = dataflow.receive %[[Q0]] : vector<64xf16>
// CHECK:           %[[M1:.*]] = uniform.def_immutable_mapping([%[[SFU]] -> %[[LU]]]):index
// CHECK-NEXT:      %[[Q1:.*]] = uniform.query_map(map:%[[M1]], key:%[[IT]]) : index
// CHECK-NEXT:      %[[Y:.*]] = dataflow.receive %[[Q1]] : vector<64xf16>
// CHECK-NEXT:      %[[P:.*]] = vectorchain.binary %[[X]], %[[HALF]] {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #[[ID:.*]]} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[S:.*]] = vectorchain.binary %[[P]], %[[Y]] {binary_op = #vectorchain<binary_operator add>, op_specific_map = #[[ID]]} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[MAX:.*]] = vectorchain.binary %[[S]], %[[Y]] {binary_op = #vectorchain<binary_operator max>, op_specific_map = #[[ID]]} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK:           %[[M2:.*]] = uniform.def_immutable_mapping([%[[SFU]] -> %[[SU]]]):index
// CHECK-NEXT:      %[[Q2:.*]] = uniform.query_map(map:%[[M2]], key:%[[IT]]) : index
// CHECK-NEXT:      dataflow.send %[[Q2]], %[[MAX]] : vector<64xf16>
// CHECK:         }
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise() attributes {grid = [1]} {
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
      %half = arith.constant dense<5.000000e-01> : tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %r = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y, %half : tensor<1x64xf16>, tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %h: f16, %o: f16):
        %p = arith.mulf %a, %h : f16
        %s = arith.addf %p, %b : f16
        %mx = arith.maximumf %s, %b : f16
        linalg.yield %mx : f16
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

// A sum over rows on tensors: an scf.for over the reduced dimension carries the
// accumulator (zero: the init is an empty tensor), reading one row slice per step.

// CHECK-LABEL: func.func @tensor_reduction(
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<64xf16>
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[SFU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-SFU"
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%[[SFU]]) : {
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<64xf16>) {
// CHECK:             %[[ROW:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:        %[[NEXT:.*]] = vectorchain.binary %[[ACC]], %[[ROW]] {binary_op = #vectorchain<binary_operator add>, op_specific_map = #{{.*}}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK:             scf.yield %[[NEXT]] : vector<64xf16>
// CHECK:           }
// CHECK:           dataflow.send %{{.*}}, %[[SUM]] : vector<64xf16>
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @tensor_reduction() attributes {grid = [1]} {
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
    %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 512xf16>
    %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      %x = ktdf.read_from_fifo %in : <"L1LU" -> "SFU", 512xf16> -> tensor<8x64xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        %s = arith.addf %a, %o : f16
        linalg.yield %s : f16
      } -> tensor<64xf16>
      ktdf.write_to_fifo %r, %out : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
    }
    ktdf_lowering.execute_on %q3 {
      "test.consumer"() : () -> ()
    }
  }
  return
}

// -----

// Buffers: a zero fill of a register buffer (bitstream, shuffle, store), a copy of what a
// FIFO delivered into it (a store of the received vector), and an accumulation on the
// buffer (load, subtract, store back). A zero fill of a tensor is just the splat.

// CHECK-LABEL: func.func @buffers(
// CHECK:         %[[SFU:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-SFU"
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%[[SFU]]) : {
// CHECK:           %[[REG:.*]] = memref.alloc() : memref<1x64xf16, "SFU_REG">
// CHECK-NEXT:      %[[BITS:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
// CHECK-NEXT:      %[[ZEROS:.*]] = vectorchain.shuffle input(%[[BITS]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK-NEXT:      agen.vector_store %[[ZEROS]], %[[REG]][%{{.*}}, %{{.*}}] {store_order = #{{.*}}, store_set = #{{.*}}} : memref<1x64xf16, "SFU_REG">, vector<64xf16>
// CHECK:           %[[GOT:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      agen.vector_store %[[GOT]], %[[REG]]
// CHECK:           %[[NEW:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      %[[OLD:.*]] = agen.vector_load %[[REG]]
// CHECK-NEXT:      %[[DIFF:.*]] = vectorchain.binary %[[OLD]], %[[NEW]] {binary_op = #vectorchain<binary_operator sub>
// CHECK-NEXT:      agen.vector_store %[[DIFF]], %[[REG]]
// CHECK-NEXT:      %[[BITS2:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
// CHECK-NEXT:      %[[SPLAT:.*]] = vectorchain.shuffle input(%[[BITS2]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK:           dataflow.send %{{.*}}, %[[SPLAT]] : vector<64xf16>
// CHECK-NOT:       memref.copy
// CHECK-NOT:       linalg.
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @buffers() attributes {grid = [1]} {
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
      %reg = memref.alloc() : memref<1x64xf16, "SFU_REG">
      %zero = arith.constant 0.0 : f16
      linalg.fill ins(%zero : f16) outs(%reg : memref<1x64xf16, "SFU_REG">)
      %got = ktdf.read_from_fifo %in#0 : <"L1LU" -> "SFU", 64xf16> -> memref<1x64xf16>
      memref.copy %got, %reg : memref<1x64xf16> to memref<1x64xf16, "SFU_REG">
      %new = ktdf.read_from_fifo %in#1 : <"L1LU" -> "SFU", 64xf16> -> memref<1x64xf16>
      linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%new : memref<1x64xf16>) outs(%reg : memref<1x64xf16, "SFU_REG">) {
      ^bb0(%a: f16, %acc: f16):
        %d = arith.subf %acc, %a : f16
        linalg.yield %d : f16
      }
      %e = tensor.empty() : tensor<1x64xf16>
      %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
      ktdf.write_to_fifo %z, %out : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
    }
    ktdf_lowering.execute_on %q3 {
      "test.consumer"() : () -> ()
    }
  }
  return
}

// -----

// Tile sizes: an exact multiple is the tile size itself; otherwise the last iteration
// takes the remainder.

// CHECK-LABEL: func.func @tile_sizes(
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi slt, %[[I]], %[[C4]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.select %[[LAST]], %[[C3]], %[[C2]] : index
// CHECK-NEXT:      "test.use"(%[[N]], %[[C4]]) : (index, index) -> ()
func.func @tile_sizes() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c14 = arith.constant 14 : index
  %c20 = arith.constant 20 : index
  scf.for %i = %c0 to %c5 step %c1 {
    %n = ktdf.tiling.derive_size [%i : %c3], total_size = %c14 : index
    %m = ktdf.tiling.derive_size [%i : %c4], total_size = %c20 : index
    "test.use"(%n, %m) : (index, index) -> ()
  }
  return
}

// -----

func.func @tile_size_not_constant(%t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c14 = arith.constant 14 : index
  scf.for %i = %c0 to %c5 step %c1 {
    // expected-error @below {{tile_size and total_size must be constants}}
    %n = ktdf.tiling.derive_size [%i : %t], total_size = %c14 : index
    "test.use"(%n) : (index) -> ()
  }
  return
}

// -----

func.func @unsupported_body() attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %x = arith.constant dense<1.0> : tensor<64xf16>
    %e = tensor.empty() : tensor<64xf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) {
    ^bb0(%a: f16, %o: f16):
      // expected-error @below {{unsupported operation type in linalg.generic body}}
      %d = "test.op"(%a) : (f16) -> f16
      linalg.yield %d : f16
    } -> tensor<64xf16>
    "test.use"(%r) : (tensor<64xf16>) -> ()
  }
  return
}

// -----

// A fill of any constant is a splat of its bits (1.0 in f16: 0x3c00; a reduction from -inf: 0xfc00).
// CHECK-LABEL: func.func @nonzero_fill
// CHECK:         vectorchain.constant_bitstream {value = [0x3c00]} : vector<1xf16>
// CHECK-NEXT:    vectorchain.shuffle
func.func @nonzero_fill() attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %one = arith.constant 1.0 : f16
    %e = tensor.empty() : tensor<64xf16>
    %r = linalg.fill ins(%one : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    "test.use"(%r) : (tensor<64xf16>) -> ()
  }
  return
}

// -----

// A fill's constant is converted to the vector's element type as `arith.truncf` converts it:
// 1.0e5 is past f16's largest finite value, so the splat is +infinity (0x7c00).
// CHECK-LABEL: func.func @fill_past_the_range
// CHECK:         vectorchain.constant_bitstream {value = [0x7c00]} : vector<1xf16>
func.func @fill_past_the_range() attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %big = arith.constant 1.0e+05 : f32
    %e = tensor.empty() : tensor<64xf16>
    %r = linalg.fill ins(%big : f32) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    "test.use"(%r) : (tensor<64xf16>) -> ()
  }
  return
}

// -----

func.func @integer_fill_of_a_float_vector() attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %one = arith.constant 1 : i16
    %e = tensor.empty() : tensor<64xf16>
    // expected-error @below {{linalg.fill of a 1 : i16 cannot fill a vector of f16}}
    %r = linalg.fill ins(%one : i16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    "test.use"(%r) : (tensor<64xf16>) -> ()
  }
  return
}

// -----

func.func @reduction_of_a_constant() attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %x = arith.constant dense<1.0> : tensor<2x64xf16>
    %e = tensor.empty() : tensor<64xf16>
    // expected-error @below {{reduction linalg.generic input must be produced by ktdf.read_from_fifo}}
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<64xf16>) {
    ^bb0(%a: f16, %o: f16):
      %s = arith.addf %a, %o : f16
      linalg.yield %s : f16
    } -> tensor<64xf16>
    "test.use"(%r) : (tensor<64xf16>) -> ()
  }
  return
}

// -----

func.func @reduction_of_two_ops() attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %x = arith.constant dense<1.0> : tensor<2x64xf16>
    %e = tensor.empty() : tensor<64xf16>
    // expected-error @below {{reduction linalg.generic body must have exactly one compute op}}
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<64xf16>) {
    ^bb0(%a: f16, %o: f16):
      %p = arith.mulf %a, %a : f16
      %s = arith.addf %p, %o : f16
      linalg.yield %s : f16
    } -> tensor<64xf16>
    "test.use"(%r) : (tensor<64xf16>) -> ()
  }
  return
}
