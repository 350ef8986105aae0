// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect > %t.before
// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

// Transfers that must stay where they are: the output is the input, printed. Each case
// breaks one condition of the hoist in every loop around its pipeline.

// (a) The destination index depends on %n through arithmetic in the stage.
// CHECK-LABEL: func.func @dest_index_depends_on_iv(
func.func @dest_index_depends_on_iv(%x: memref<64xf16, "DDR">, %m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %m = %c0 to %m_end step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<4x64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<4x64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          %twice = arith.muli %n, %c2 : index
          %slot = arith.remui %twice, %c2 : index
          ktdf.data_transfer from %x[0] size [64] to %l[%slot, 0] size [1, 64] : memref<64xf16, "DDR">, memref<4x64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.use"(%l) : (memref<4x64xf16, "L1">) -> ()
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  return
}

// -----

// (a) A dynamic size depends on %n (the last chunk is shorter).
// CHECK-LABEL: func.func @size_depends_on_iv(
func.func @size_depends_on_iv(%x: memref<200xf16, "DDR">, %m_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c200 = arith.constant 200 : index
  scf.for %m = %c0 to %m_end step %c1 {
    scf.for %n = %c0 to %c200 step %c64 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          %left = arith.subi %c200, %n : index
          %len = arith.minui %left, %c64 : index
          ktdf.data_transfer from %x[0] size [%len] to %l[0] size [%len] : memref<200xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.use"(%l) : (memref<64xf16, "L1">) -> ()
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  return
}

// -----

// (a) The source index depends on every IV.
// CHECK-LABEL: func.func @source_depends_on_every_iv(
func.func @source_depends_on_every_iv(%x: memref<8x4x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %m = %c0 to %c8 step %c1 {
    scf.for %n = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[%m, %n, 0] size [1, 1, 64] to %l[0] size [64] : memref<8x4x64xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.use"(%l) : (memref<64xf16, "L1">) -> ()
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  return
}

// -----

// (b) The destination is a FIFO slot, even though nothing depends on the IVs.
// CHECK-LABEL: func.func @fifo_destination(
func.func @fifo_destination(%m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = memref.alloc() : memref<64xf16, "L1">
  scf.for %m = %c0 to %m_end step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %f, %t = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
          %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %s, %k : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %table[0] size [64] to %f size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          %v = ktdf.read_from_fifo %f : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        } {applicable_units = ["SFU"]}
      }
    }
  }
  return
}

// -----

// (c) A memref.store in the %n loop writes the source.
// CHECK-LABEL: func.func @source_stored_in_loop(
func.func @source_stored_in_loop(%x: memref<64xf16, "DDR">, %v: f16, %m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %m = %c0 to %m_end step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      memref.store %v, %x[%n] : memref<64xf16, "DDR">
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          "test.use"(%l) : (memref<64xf16, "L1">) -> ()
        } {applicable_units = ["L1LU"]}
      }
    }
  }
  return
}

// -----

// (c) A later stage writes the source back through a view of it (an in-place update).
// CHECK-LABEL: func.func @source_written_through_view(
func.func @source_written_through_view(%x: memref<4x64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %flat = memref.reinterpret_cast %x to offset: [0], sizes: [256], strides: [1] : memref<4x64xf16, "DDR"> to memref<256xf16, "DDR">
  scf.for %m = %c0 to %c4 step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[%m, 0] size [1, 64] to %l[0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %l[0] size [64] to %flat[0] size [64] : memref<64xf16, "L1">, memref<256xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    }
  }
  return
}

// -----

// (c) A linalg op in another stage initializes the source.
// CHECK-LABEL: func.func @source_written_by_linalg(
func.func @source_written_by_linalg(%m_end: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %acc = memref.alloc() : memref<64xf16, "L1">
  scf.for %m = %c0 to %m_end step %c1 {
    scf.for %n = %c0 to %n_end step %c1 {
      ktdf.pipeline {
        %r, %t = ktdf.private -> (memref<64xf16, "SFU_REG">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "SFU_REG">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "SFU_REG">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %acc[0] size [64] to %r[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          linalg.fill ins(%zero : f16) outs(%acc : memref<64xf16, "L1">)
        } {applicable_units = ["SFU"]}
      }
    }
  }
  return
}

// -----

// (d) A second stage writes the destination too.
// CHECK-LABEL: func.func @destination_written_twice(
func.func @destination_written_twice(%x: memref<64xf16, "DDR">, %y: memref<4x64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %y[%n, 0] size [1, 64] to %l[0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
    }
  }
  return
}

// -----

// (e) The source is a view built inside the %n loop.
// CHECK-LABEL: func.func @source_defined_in_loop(
func.func @source_defined_in_loop(%x: memref<128xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    %half = memref.subview %x[64] [64] [1] : memref<128xf16, "DDR"> to memref<64xf16, strided<[1], offset: 64>, "DDR">
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %half[0] size [64] to %l[0] size [64] : memref<64xf16, strided<[1], offset: 64>, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// (f) The transfer only runs on the first iteration of %n: its scf.if condition depends on
// %n (upstream hoists it with a use of %n outside its loop).
// CHECK-LABEL: func.func @condition_depends_on_iv(
func.func @condition_depends_on_iv(%x: memref<64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        %first = arith.cmpi eq, %n, %c0 : index
        scf.if %first {
          ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        }
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// (f) The index is computed inside the %n loop, outside the pipeline (it does not depend
// on %n, but a copy before the loop could not see it; upstream would use it there).
// CHECK-LABEL: func.func @index_computed_in_loop(
func.func @index_computed_in_loop(%x: memref<4x64xf16, "DDR">, %base: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    %row = arith.addi %base, %c1 : index
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%row, 0] size [1, 64] to %l[0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// (f) The destination buffer's size is computed inside the %n loop.
// CHECK-LABEL: func.func @buffer_size_computed_in_loop(
func.func @buffer_size_computed_in_loop(%x: memref<?xf16, "DDR">, %len: index, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    %size = arith.addi %len, %c1 : index
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<?xf16, "L1">, !ktdf.token) {
        %a = memref.alloc(%size) : memref<?xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<?xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<?xf16, "DDR">, memref<?xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<?xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// No scope: the pipeline's parent is an scf.if.
// CHECK-LABEL: func.func @under_scf_if(
func.func @under_scf_if(%x: memref<64xf16, "DDR">, %go: i1) {
  scf.if %go {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// No scope: the pipeline's parent is a ktdf.parallel (the scope stops at any non-scf.for).
// CHECK-LABEL: func.func @under_parallel(
func.func @under_parallel(%x: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// No scope: the loop holds a second pipeline, so neither pipeline owns it.
// CHECK-LABEL: func.func @peer_pipeline(
func.func @peer_pipeline(%x: memref<64xf16, "DDR">, %y: memref<64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %y[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%l) : (memref<64xf16, "L1">) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}

// -----

// (c) An intrinsic in another stage writes the source (a ktdf.opaque output: dfsched counts
// it as a writer, upstream does not).
// CHECK-LABEL: func.func @source_written_by_opaque(
func.func @source_written_by_opaque(%n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = memref.alloc() : memref<64xf16, "L1">
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %r, %t = ktdf.private -> (memref<64xf16, "SFU_REG">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "SFU_REG">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "SFU_REG">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %acc[0] size [64] to %r[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.opaque "ZERO" ins() outs(%acc: memref<64xf16, "L1">)
      } {applicable_units = ["SFU"]}
    }
  }
  return
}

// -----

// (c) A memref.copy in the loop refreshes the source (dfsched counts it, upstream does not).
// CHECK-LABEL: func.func @source_written_by_copy(
func.func @source_written_by_copy(%fresh: memref<64xf16, "L1">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %table = memref.alloc() : memref<64xf16, "L1">
  scf.for %n = %c0 to %n_end step %c1 {
    memref.copy %fresh, %table : memref<64xf16, "L1"> to memref<64xf16, "L1">
    ktdf.pipeline {
      %r, %t = ktdf.private -> (memref<64xf16, "SFU_REG">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "SFU_REG">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "SFU_REG">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %table[0] size [64] to %r[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        "test.use"(%r) : (memref<64xf16, "SFU_REG">) -> ()
      } {applicable_units = ["SFU"]}
    }
  }
  return
}

// -----

// (c) The source is a view of a buffer that a later stage writes as a whole (dfsched
// follows the view back to the buffer; upstream only sees views of the source itself).
// CHECK-LABEL: func.func @source_view_of_written_buffer(
func.func @source_view_of_written_buffer(%x: memref<4x64xf16, "DDR">, %n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row = memref.subview %x[1, 0] [1, 64] [1, 1] : memref<4x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: 64>, "DDR">
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %row[0, 0] size [1, 64] to %l[0] size [64] : memref<1x64xf16, strided<[64, 1], offset: 64>, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %x[%n, 0] size [1, 64] : memref<64xf16, "L1">, memref<4x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}
