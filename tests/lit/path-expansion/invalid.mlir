// RUN: dfsched-opt %s -split-input-file --path-expansion --device=sample --verify-diagnostics

// Pipelines path-expansion cannot plan. Each error is reported before the IR changes.

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
func.func @two_chains(%a: !row, %i: index) {
  // expected-error @below {{path-expansion: failed to plan path expansion: the stages are not one linear chain (the stages form 2 chains, not one)}}
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(none) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @cycle(%a: !row, %i: index) {
  // expected-error @below {{the stages are not one linear chain (the stage dependencies form a cycle)}}
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!in, !ktdf.token, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t0, %t1 : !in, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @fan_out(%a: !row, %b: !row, %i: index) {
  // expected-error @below {{the stages are not one linear chain (stage 0 has 2 successors)}}
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!in, !in, !ktdf.token) {
      %s:2 = ktdf.fifo.allocate() -> !in, !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s#0, %s#1, %t : !in, !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
      ktdf.data_transfer from %b[%i] size [64] to %p#1 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @two_units(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    // expected-error @below {{expected exactly one applicable unit on the stage, got 2}}
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    } {applicable_units = ["MNILU", "L1LU"]}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @unknown_unit(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    // expected-error-re @below {{applicable unit 'NPU' is not a resource of device 'sample_device' ({{.*}}sample_device.mlir)}}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["NPU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @memory_as_unit(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    // expected-error @below {{applicable unit 'L1' is a memory, not an execution unit}}
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    } {applicable_units = ["L1"]}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @transfer_on_compute(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{a stage on compute unit 'SFU' moves data with ktdf.data_transfer; only load/store stages may}}
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @fifo_read_off_compute(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      // expected-error @below {{a stage that is not on a compute unit reads or writes a FIFO slot}}
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    }
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @idle_stage(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!in, !ktdf.token, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t0, %t1 : !in, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
    // expected-error @below {{the stage moves no data and runs on no compute unit}}
    ktdf.stage depends_in(%p#2) depends_out(none) {
    }
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
func.func @no_compute(%a: !row, %b: !row, %i: index) {
  // expected-error @below {{no stage runs on a compute unit (a stage whose applicable_units names the device's compute resource)}}
  ktdf.pipeline {
    %p:2 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
      %buf = memref.alloc() : memref<64xf16, "L1">
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %buf, %t : memref<64xf16, "L1">, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0[0] size [64] : !row, memref<64xf16, "L1">
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      ktdf.data_transfer from %p#0[0] size [64] to %b[%i] size [64] : memref<64xf16, "L1">, !row
    }
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @filled_twice(%a: !row, %b: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
      // expected-error @below {{the FIFO slot is filled twice in the pipeline}}
      ktdf.data_transfer from %b[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @never_filled(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!in, !in, !ktdf.token) {
      %s:2 = ktdf.fifo.allocate() -> !in, !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s#0, %s#1, %t : !in, !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
      // expected-error @below {{nothing in the pipeline fills this FIFO slot}}
      %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
func.func @never_drained(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!in, !out, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %o = ktdf.fifo.allocate() -> !out
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %o, %t : !in, !out, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
      // expected-error @below {{nothing in the pipeline drains this FIFO slot}}
      ktdf.write_to_fifo %x, %p#1 : tensor<64xf16>, <"SFU" -> "DDR", 64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
func.func @slot_to_slot(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!in, !out, !in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %o = ktdf.fifo.allocate() -> !out
      %s2 = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %o, %s2, %t : !in, !out, !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
      // expected-error @below {{a transfer from one FIFO slot to another is not supported}}
      ktdf.data_transfer from %p#1 size [64] to %p#2 size [64] : !out, !in
    }
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
      ktdf.write_to_fifo %x, %p#1 : tensor<64xf16>, <"SFU" -> "DDR", 64xf16>
      %y = ktdf.read_from_fifo %p#2 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @slot_between_transfers(%a: !row, %b: !row, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!in, !ktdf.token, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t0, %t1 : !in, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{this transfer fills a FIFO slot that another transfer drains; a FIFO slot must connect a unit with a compute stage}}
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      ktdf.data_transfer from %p#0 size [64] to %b[%i] size [64] : !in, !row
    }
    ktdf.stage depends_in(%p#2) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!buf = memref<64xf16, "L1">
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
func.func @buffer_written_twice(%a: !row, %b: !row, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!buf, !in, !ktdf.token, !ktdf.token) {
      %buf = memref.alloc() : !buf
      %s = ktdf.fifo.allocate() -> !in
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %buf, %s, %t0, %t1 : !buf, !in, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0[0] size [64] : !row, !buf
      // expected-error @below {{the scratchpad buffer is written by two transfers of the pipeline; path-expansion expects one writer and one reader}}
      ktdf.data_transfer from %b[%i] size [64] to %p#0[0] size [64] : !row, !buf
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#0[0] size [64] to %p#1 size [64] : !buf, !in
    }
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %x = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!buf = memref<64xf16, "L1">
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
func.func @buffer_cycle() {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!buf, !buf, !ktdf.token, !ktdf.token) {
      %b0 = memref.alloc() : !buf
      %b1 = memref.alloc() : !buf
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %b0, %b1, %t0, %t1 : !buf, !buf, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-error @below {{the pipeline's scratchpad buffers form a cycle}}
      ktdf.data_transfer from %p#0[0] size [64] to %p#1[0] size [64] : !buf, !buf
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#1[0] size [64] to %p#0[0] size [64] : !buf, !buf
    }
    ktdf.stage depends_in(%p#3) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @memory_to_memory(%a: !row, %b: !row, %c: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
      // expected-error @below {{data moves from memory 'DDR' to memory 'DDR' without reaching a compute stage; only data read or written by a compute stage is routed}}
      ktdf.data_transfer from %b[%i] size [64] to %c[%i] size [64] : !row, !row
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
!loop = !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>
func.func @backwards(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!in, !loop, !ktdf.token, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %l = ktdf.fifo.allocate() -> !loop
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %l, %t0, %t1 : !in, !loop, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
      %y = ktdf.read_from_fifo %p#1 : <"SFU" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %z = tensor.empty() : tensor<64xf16>
      // expected-error @below {{data flows from a compute stage to one that does not come after it in the pipeline}}
      ktdf.write_to_fifo %z, %p#1 : tensor<64xf16>, <"SFU" -> "SFU", 64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @no_memory_space(%a: memref<256xf16>, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{memref of type memref<256xf16> has no memory space, so its memory is unknown}}
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : memref<256xf16>, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "HBM">
!in = !ktdf.fifo.slot<"HBM" -> "SFU", 64xf16>
func.func @unknown_memory(%a: !row, %i: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{no memory for memory space '"HBM"'}}
      // expected-note * {{in device 'sample_device'}}
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"HBM" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @dynamic_tile(%a: !row, %i: index, %n: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate() -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{cannot size a scratchpad buffer: the source sizes of this transfer are not all static}}
      ktdf.data_transfer from %a[%i] size [%n] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!row = memref<256xf16, "DDR">
!in = !ktdf.fifo.slot<"DDR" -> "SFU", ?xf16>
func.func @dynamic_slot(%a: !row, %i: index, %n: index) {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!in, !ktdf.token) {
      %s = ktdf.fifo.allocate(%n) -> !in
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s, %t : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{FIFO slots with a dynamic element count cannot be re-routed}}
      ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !in
    }
    ktdf.stage depends_in(%p#1) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", ?xf16> -> tensor<?xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!l1 = memref<256xf16, "L1">
!ddr = memref<256xf16, "DDR">
!from_l1 = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!from_ddr = !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
func.func @nested_split(%a: !l1, %b: !ddr, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!from_l1, !from_ddr, !ktdf.token) {
      %s0 = ktdf.fifo.allocate() -> !from_l1
      %s1 = ktdf.fifo.allocate() -> !from_ddr
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %s0, %s1, %t : !from_l1, !from_ddr, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      scf.for %k = %c0 to %c1 step %c1 {
        // expected-error @below {{the transfers of this stage go to different units, and this one is nested in another op of the stage}}
        ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !l1, !from_l1
      }
      ktdf.data_transfer from %b[%i] size [64] to %p#1 size [64] : !ddr, !from_ddr
    }
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}
