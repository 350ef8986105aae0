// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir

// Diagnostics of the lowerings themselves, each on the op it is about.

// Work that runs on no unit (no execute_on at all) cannot be lowered.
func.func @read_outside() attributes {grid = [1]} {
  %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  // expected-error @below {{read_from_fifo must be inside a program_unit}}
  %x = ktdf.read_from_fifo %f : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
  "test.use"(%x) : (tensor<64xf16>) -> ()
  return
}

// -----

func.func @transfer_outside(%buf: memref<64xf16, "L1">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  // expected-error @below {{data_transfer must be inside a program_unit}}
  ktdf.data_transfer from %buf[%c0] size [64] to %f size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @signal_outside() attributes {grid = [1]} {
  %a = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %b = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %ma = uniform.def_immutable_mapping([%k -> %a]):index
  %qa = uniform.query_map(map:%ma, key:%tid) : index
  %mb = uniform.def_immutable_mapping([%k -> %b]):index
  %qb = uniform.query_map(map:%mb, key:%tid) : index
  // expected-error @below {{signal must be inside a program_unit}}
  ktdf_lowering.signal %qa, %qb
  return
}

// -----

// A FIFO read wider than the SFU's 64 lanes has no one vector to arrive in.
func.func @read_too_wide() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2 {
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      // expected-error @below {{tensor<128xf16> holds 128 elements, more than the hardware vector width of 64}}
      %x = ktdf.read_from_fifo %f : <"L1LU" -> "SFU", 128xf16> -> tensor<128xf16>
      "test.use"(%x) : (tensor<128xf16>) -> ()
    }
  }
  return
}

// -----

// The peer kind has no unit on the reader's core.
func.func @no_peer_on_core() attributes {grid = [2]} {
  %lu0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu0 = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %sfu1 = dataflow.get_unit {core = 1 : i32, name = "C1-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m1 = uniform.def_immutable_mapping([%k0 -> %lu0]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k0 -> %sfu0], [%k1 -> %sfu1]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2 {
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      // expected-error @below {{no unit of the peer kind runs on core 1 for unit 'C1-SFU'}}
      %x = ktdf.read_from_fifo %f : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      "test.use"(%x) : (tensor<64xf16>) -> ()
    }
  }
  return
}

// -----

func.func @reduction_by_division() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m1 = uniform.def_immutable_mapping([%k -> %lu]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  ktdf_lowering.execute_on %q1, %q2 {
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
    ktdf_lowering.execute_on %q1 {
      "test.producer"() : () -> ()
    }
    ktdf_lowering.execute_on %q2 {
      %x = ktdf.read_from_fifo %f : <"L1LU" -> "SFU", 128xf16> -> tensor<2x64xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        // expected-error @below {{unsupported reduction body op in linalg.generic}}
        %s = arith.divf %a, %o : f16
        linalg.yield %s : f16
      } -> tensor<64xf16>
      "test.use"(%r) : (tensor<64xf16>) -> ()
    }
  }
  return
}

// -----

func.func @size_of_a_constant() {
  %c3 = arith.constant 3 : index
  %c14 = arith.constant 14 : index
  // expected-error @below {{IV must be a block argument}}
  %n = ktdf.tiling.derive_size [%c3 : %c3], total_size = %c14 : index
  "test.use"(%n) : (index) -> ()
  return
}

// -----

func.func @size_in_a_while(%n: index) {
  %c3 = arith.constant 3 : index
  %c14 = arith.constant 14 : index
  "test.region"() ({
  ^bb0(%iv: index):
    // expected-error @below {{IV must be from an scf.for loop}}
    %s = ktdf.tiling.derive_size [%iv : %c3], total_size = %c14 : index
    "test.use"(%s) : (index) -> ()
    "test.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

// An L1 buffer needs each unit's core: a unit without one cannot find its L1.
func.func @unit_without_core() attributes {grid = [1]} {
  %u = dataflow.get_unit {name = "any-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  // expected-error @below {{dataflow.get_unit operand missing 'core' attribute}}
  ktdf_lowering.execute_on %q {
    %a = arith.constant 0 : index
    %buf = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "SFU_REG">
    %l1 = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "L1">
    "test.use"(%buf, %l1) : (memref<64xf16, "SFU_REG">, memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

// A unit on a core the grid does not have.
func.func @core_beyond_grid() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 3 : i32, name = "C3-MNISU", type = "MNISU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  // expected-error @below {{memory unit SSA value not found for core 3}}
  ktdf_lowering.execute_on %q {
    %a = arith.constant 0 : index
    %l1 = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "L1">
    memref.dealloc %l1 : memref<64xf16, "L1">
    "test.use"(%l1) : (memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

// Double buffering needs to know the unit kind's mode.
func.func @unknown_kind(%n: index, %src: memref<1024xf16, "DDR">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-DMX", type = "DMX"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %b0 = builtin.unrealized_conversion_cast %c0 : index to memref<64xf16, "L1">
    %b1 = builtin.unrealized_conversion_cast %c128 : index to memref<64xf16, "L1">
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @below {{lowerDoubleBuffering: could not resolve component type from enclosing program_unit}}
      %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      %b = ktdf.select_memref %p[%b0, %b1] : memref<64xf16, "L1">
      ktdf.data_transfer from %src[%i] size [64] to %b[%c0] size [64] : memref<1024xf16, "DDR">, memref<64xf16, "L1">
    }
  }
  return
}

// -----

// A vector access driven by a parallel loop must go through a memory view.
func.func @parallel_over_argument(%buf: memref<4x64xf16, "L1">) attributes {grid = [1]} {
  %l0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0", type = "L1LU"} : index
  %s0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-SFU-CL0", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %m0 = uniform.def_immutable_mapping([%k0 -> %l0]):index
  %q0 = uniform.query_map(map:%m0, key:%tid) : index
  %n0 = uniform.def_immutable_mapping([%k0 -> %s0]):index
  %r0 = uniform.query_map(map:%n0, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 1) {
    ktdf_lowering.execute_on %q0, %r0 {
      %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf_lowering.execute_on %q0 {
        // expected-error @below {{Memref must be defined by dataflow.get_logical_memory_view}}
        ktdf.data_transfer from %buf[%i, %c0] size [1, 64] to %f size [64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      }
      ktdf_lowering.execute_on %r0 {
        "test.sfu"() : () -> ()
      }
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// A lane combine (Decision 65) folds its partials in log2(L) rounds: L must be a power of two.
func.func @lane_combine_of_three(%partials: memref<2x3xf16, "SFU_REG">, %out: memref<2xf16, "SFU_REG">) attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    // expected-error @below {{a lane combine needs a power-of-two lane count and a one-op body}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%partials : memref<2x3xf16, "SFU_REG">) outs(%out : memref<2xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 3 : index} {
    ^bb0(%in: f16, %acc: f16):
      %r = arith.addf %acc, %in : f16
      linalg.yield %r : f16
    }
  }
  return
}

// -----

// Only associative and commutative combiners fold lanes.
func.func @lane_combine_of_divisions(%partials: memref<2x4xf16, "SFU_REG">, %out: memref<2xf16, "SFU_REG">) attributes {grid = [1]} {
  %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %sfu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%partials : memref<2x4xf16, "SFU_REG">) outs(%out : memref<2xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 4 : index} {
    ^bb0(%in: f16, %acc: f16):
      // expected-error @below {{unsupported lane combine op (expected one of arith.addf, arith.maximumf, arith.maxnumf, arith.minimumf, arith.minnumf, arith.mulf)}}
      %r = arith.divf %acc, %in : f16
      linalg.yield %r : f16
    }
  }
  return
}
