// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect --device=sample -double-buffering | filecheck %s

// Each function breaks one rule of the pass (`docs/passes.md#double-buffering`); its IR is printed
// unchanged: no phase, no selection, no hoisted copies, the buffer still in the private.
// Every buffer is an "L1" scratchpad buffer.

// (d) The alloc has a second use besides the yield.
// CHECK-LABEL: func.func @alloc_used_twice(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @alloc_used_twice(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        "test.fill"(%a) : (memref<64xf16, "L1">) -> ()
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (d) The alloc is yielded in two slots (two uses).
// CHECK-LABEL: func.func @yielded_twice(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @yielded_twice(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %again, %t0 = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %a, %k0 : memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %again[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (c) The yielded value is a cast of the alloc, not the alloc.
// CHECK-LABEL: func.func @cast_buffer(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @cast_buffer(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<?xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %v = memref.cast %a : memref<64xf16, "L1"> to memref<?xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %v, %k0 : memref<?xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<?xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<?xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (f) The buffer's size is computed inside the loop: it cannot be allocated before it.
// CHECK-LABEL: func.func @size_in_loop(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @size_in_loop(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %n = arith.addi %i, %c4 : index
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<?xf16, "L1">, !ktdf.token) {
        %a = memref.alloc(%n) : memref<?xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<?xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [%n] to %buf[0] size [%n] : memref<64xf16, "DDR">, memref<?xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [%n] to %out[0] size [%n] : memref<?xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (h) Two stages write the buffer.
// CHECK-LABEL: func.func @two_producers(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @two_producers(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0, %t1, %t2 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        %k2 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0, %k1, %k2 : memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(%t1) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0, %t1) depends_out(%t2) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (g) One stage both writes and reads the buffer.
// CHECK-LABEL: func.func @stage_reads_its_own_writes(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @stage_reads_its_own_writes(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (i) No transfer reads the buffer (an opaque op does).
// CHECK-LABEL: func.func @no_transfer_reads(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @no_transfer_reads(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        "test.consume"(%buf) : (memref<64xf16, "L1">) -> ()
      }
    }
  }
  return
}

// -----

// (k) The reading stage does not wait for the writing one.
// CHECK-LABEL: func.func @reader_does_not_wait(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @reader_does_not_wait(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0, %t1 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0, %k1 : memref<64xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(%t1) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// (k) The writing stage waits for the reading one.
// CHECK-LABEL: func.func @reader_runs_first(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @reader_runs_first(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
    }
  }
  return
}

// -----

// A pipeline that already rolls over resource sets (a second run sees this).
// CHECK-LABEL: func.func @already_modulo(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @already_modulo(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline modulo(size : 2) {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// No loop around the pipeline.
// CHECK-LABEL: func.func @no_loop(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @no_loop(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
  }
  return
}

// -----

// The loop also holds another pipeline, so it is not this pipeline's scope.
// CHECK-LABEL: func.func @loop_holds_two_pipelines(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @loop_holds_two_pipelines(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %in[0] size [64] to %out[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "DDR">
      }
    }
  }
  return
}

// -----

// A pipeline directly in a stage: its scope ends at the stage, whatever loops are outside.
// CHECK-LABEL: func.func @pipeline_in_stage(
// CHECK-NOT:     ktdf.buffer_phase
// CHECK-NOT:     ktdf.select_memref
// CHECK-NOT:     memref.dealloc
// CHECK:         ktdf.private -> (memref<
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         return
func.func @pipeline_in_stage(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.pipeline {
      %buf, %t0 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0 : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t0) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %out[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
        }
      }
    }
  }
  return
}
