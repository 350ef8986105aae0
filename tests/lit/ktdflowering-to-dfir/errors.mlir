// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir
// RUN: not dfsched-opt %s --split-input-file --allow-unregistered-dialect --ktdflowering-to-dfir 2>&1 | filecheck %s --check-prefix=NODEV

// Without a device (none in the module, no --device) the pass cannot start.
// NODEV: errors.mlir:8:1: error: Unable to import the device specification. This could happen if the device spec file is empty or contains multiple devices

// An execute_on over a value that is no unit lookup: its kind cannot be known.
func.func @unit_is_an_argument(%unit: index) attributes {grid = [1]} {
  // expected-error @below {{ktdflowering-to-dfir: could not resolve component type for unit operand of ktdf_lowering.execute_on}}
  ktdf_lowering.execute_on %unit {
    %c = arith.constant 0 : index
  }
  return
}

// -----

// A get_unit used directly (not through a uniform lookup) names no kind either.
func.func @unit_is_a_get_unit() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  // expected-error @below {{could not resolve component type for unit operand of ktdf_lowering.execute_on}}
  ktdf_lowering.execute_on %u {
    %c = arith.constant 0 : index
  }
  return
}

// -----

func.func @program_unit_over_an_argument(%unit: index) attributes {grid = [1]} {
  // expected-error @below {{ktdflowering-to-dfir: could not resolve component type for unit operand of dataflow.program_unit}}
  dataflow.program_unit iter_arg : %it -> (%unit) : {
    %c = arith.constant 0 : index
  }
  return
}

// -----

// A signal needs two parties.
func.func @lonely_signal() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    // expected-error @below {{signal operation must have at least 2 unit operands}}
    ktdf_lowering.signal %q
  }
  return
}

// -----

// A signal of this kind whose lookups start at units the program does not run on.
func.func @signal_of_strangers() attributes {grid = [1]} {
  %a0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %a9 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU-other", type = "MNILU"} : index
  %b0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %ma = uniform.def_immutable_mapping([%k -> %a0]):index
  %qa = uniform.query_map(map:%ma, key:%tid) : index
  %mx = uniform.def_immutable_mapping([%k -> %a9]):index
  %qx = uniform.query_map(map:%mx, key:%tid) : index
  %mb = uniform.def_immutable_mapping([%k -> %b0]):index
  %qb = uniform.query_map(map:%mb, key:%tid) : index
  ktdf_lowering.execute_on %qa {
    // expected-error @below {{signal must include at least one query_map whose first mapping result is in the current program_unit}}
    ktdf_lowering.signal %qx, %qb
  }
  return
}

// -----

// A FIFO whose destination kind runs nowhere in this function.
func.func @fifo_to_nowhere(%src: memref<64xf16, "L1">) attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %c0 = arith.constant 0 : index
    %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    // expected-error @below {{no units found for FIFO component type: "SFU"}}
    ktdf.data_transfer from %src[%c0] size [64] to %f size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  }
  return
}

// -----

// Memory views need the function's grid: one dimension, a positive size.
// expected-error @below {{Function missing 'grid' attribute}}
func.func @no_grid() {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %a = arith.constant 0 : index
    %buf = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "L1">
    "test.use"(%buf) : (memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

// expected-error @below {{Only 1D grids supported in Phase 1 (got 2D grid)}}
func.func @two_d_grid() attributes {grid = [2, 2]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %a = arith.constant 0 : index
    %buf = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "L1">
    "test.use"(%buf) : (memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

// expected-error @below {{Grid size must be positive (got 0)}}
func.func @empty_grid() attributes {grid = [0]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %a = arith.constant 0 : index
    %buf = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "L1">
    "test.use"(%buf) : (memref<64xf16, "L1">) -> ()
  }
  return
}

// -----

// A memory space the device has no memory for.
// expected-error @below {{Unknown memory space classification for: "HBM2"}}
func.func @unknown_space() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %u]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    %a = arith.constant 0 : index
    %buf = builtin.unrealized_conversion_cast %a : index to memref<64xf16, "HBM2">
    "test.use"(%buf) : (memref<64xf16, "HBM2">) -> ()
  }
  return
}
