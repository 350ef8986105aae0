// RUN: dfsched-opt %s -split-input-file --scalar-broadcast-legalization --device=sample --verify-diagnostics

// Broadcast operands whose way from memory the pass cannot follow or rewrite. Every error
// is found before anything changes.

!ddr = memref<64xf16, "DDR">
!buf = memref<1xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @two_writers(%s: !ddr, %t: !ddr, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!buf, !slot, !ktdf.token, !ktdf.token) {
      %b = memref.alloc() : !buf
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %b, %f, %t0, %t1 : !buf, !slot, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-note @below {{previous transfer is here}}
      ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : !ddr, !buf
      // expected-error @below {{scalar-broadcast-legalization: multiple transfers fill the value that broadcast operand 0 is read from}}
      ktdf.data_transfer from %t[%i] size [1] to %p#0[0] size [1] : !ddr, !buf
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : !buf, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!slot = !ktdf.fifo.slot<"SFU" -> "SFU", 1xf16>
func.func @from_compute() {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!slot, !ktdf.token) {
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f, %t0 : !slot, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      %z = tensor.empty() : tensor<1xf16>
      ktdf.write_to_fifo %z, %p#0 : tensor<1xf16>, <"SFU" -> "SFU", 1xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      // expected-error @below {{scalar-broadcast-legalization: no transfer fills the FIFO slot of broadcast operand 0}}
      %v = ktdf.read_from_fifo %p#0 : <"SFU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!buf = memref<1xf16, "L1">
!up = !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
!down = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @round_trip() {
  ktdf.pipeline {
    %p:6 = ktdf.private -> (!up, !buf, !down, !ktdf.token, !ktdf.token, !ktdf.token) {
      %u = ktdf.fifo.allocate() -> !up
      %b = memref.alloc() : !buf
      %d = ktdf.fifo.allocate() -> !down
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      %t2 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %u, %b, %d, %t0, %t1, %t2 : !up, !buf, !down, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      %z = tensor.empty() : tensor<1xf16>
      ktdf.write_to_fifo %z, %p#0 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      // expected-error @below {{scalar-broadcast-legalization: broadcast operand 0 does not come from memory}}
      ktdf.data_transfer from %p#0 size [1] to %p#1[0] size [1] : !up, !buf
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#1[0] size [1] to %p#2 size [1] : !buf, !down
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#5) depends_out(none) {
      %v = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!l1 = memref<64xf16, "L1">
!a = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
!b = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @fifo_mid_path(%s: !l1, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!a, !b, !ktdf.token, !ktdf.token) {
      %f:2 = ktdf.fifo.allocate() -> !a, !b
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f#0, %f#1, %t0, %t1 : !a, !b, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-error @below {{scalar-broadcast-legalization: broadcast operand 0 has unexpected path structure: a FIFO before the last transfer}}
      ktdf.data_transfer from %s[%i] size [1] to %p#0 size [1] : !l1, !a
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#0 size [1] to %p#1 size [1] : !a, !b
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%x: f16, %o: f16):
        linalg.yield %x : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!ddr = memref<64xf16, "DDR">
!buf = memref<1xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @not_expanded(%s: !ddr, %i: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!buf, !slot, !ktdf.token, !ktdf.token) {
      %b = memref.alloc() : !buf
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %b, %f, %t0, %t1 : !buf, !slot, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-error @below {{scalar-broadcast-legalization: the stage moving broadcast operand 0 does not name the one unit that runs it (run path-expansion first)}}
      ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : !ddr, !buf
    }
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : !buf, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!ddr = memref<64xf16, "DDR">
!l1 = memref<1xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @external_buffer(%s: !ddr, %staging: !l1, %i: index) {
  ktdf.pipeline {
    %p:3 = ktdf.private -> (!slot, !ktdf.token, !ktdf.token) {
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f, %t0, %t1 : !slot, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#1) {
      // expected-error @below {{scalar-broadcast-legalization: cannot widen this transfer: its destination is not a scratchpad buffer of the pipeline}}
      ktdf.data_transfer from %s[%i] size [1] to %staging[0] size [1] : !ddr, !l1
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#1) depends_out(%p#2) {
      ktdf.data_transfer from %staging[0] size [1] to %p#0 size [1] : !l1, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#2) depends_out(none) {
      %v = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!ddr = memref<64xf16, "DDR">
!buf = memref<?xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @dynamic_buffer(%s: !ddr, %i: index, %n: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!buf, !slot, !ktdf.token, !ktdf.token) {
      %b = memref.alloc(%n) : !buf
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %b, %f, %t0, %t1 : !buf, !slot, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-error @below {{scalar-broadcast-legalization: cannot widen this transfer: its destination buffer is not a static memref.alloc of the pipeline's private}}
      ktdf.data_transfer from %s[%i] size [1] to %p#0[0] size [1] : !ddr, !buf
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : !buf, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!ddr = memref<64xf16, "DDR">
!buf = memref<1xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @dynamic_size(%s: !ddr, %i: index, %n: index) {
  ktdf.pipeline {
    %p:4 = ktdf.private -> (!buf, !slot, !ktdf.token, !ktdf.token) {
      %b = memref.alloc() : !buf
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %b, %f, %t0, %t1 : !buf, !slot, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      // expected-error @below {{scalar-broadcast-legalization: cannot widen this transfer: its last source size is dynamic}}
      ktdf.data_transfer from %s[%i] size [%n] to %p#0[0] size [1] : !ddr, !buf
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.data_transfer from %p#0[0] size [1] to %p#1 size [1] : !buf, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      %v = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!l1 = memref<64xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @outside_slot(%s: !l1, %f: !slot, %i: index) {
  ktdf.pipeline {
    %p:1 = ktdf.private -> (!ktdf.token) {
      %t0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t0 : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#0) {
      ktdf.data_transfer from %s[%i] size [1] to %f size [1] : !l1, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#0) depends_out(none) {
      // expected-error @below {{scalar-broadcast-legalization: cannot grow the FIFO slot of this read: it is not a result of the pipeline's private}}
      %v = ktdf.read_from_fifo %f : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

!buf = memref<1xf16, "L1">
!slot = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
func.func @buffer_loop() {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!buf, !buf, !slot, !ktdf.token, !ktdf.token) {
      %b0 = memref.alloc() : !buf
      %b1 = memref.alloc() : !buf
      %f = ktdf.fifo.allocate() -> !slot
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %b0, %b1, %f, %t0, %t1 : !buf, !buf, !slot, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %p#0[0] size [1] to %p#1[0] size [1] : !buf, !buf
      ktdf.data_transfer from %p#1[0] size [1] to %p#0[0] size [1] : !buf, !buf
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      ktdf.data_transfer from %p#0[0] size [1] to %p#2 size [1] : !buf, !slot
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#4) depends_out(none) {
      %v = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
      %e = tensor.empty() : tensor<64xf16>
      // expected-error @below {{scalar-broadcast-legalization: the load path of broadcast operand 0 is a cycle}}
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %o: f16):
        linalg.yield %a : f16
      } -> tensor<64xf16>
    } {applicable_units = ["SFU"]}
  }
  return
}
