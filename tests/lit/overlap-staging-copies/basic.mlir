// RUN: dfsched-opt %s -split-input-file --device=spyre --overlap-staging-copies | filecheck %s

// Decision 110: the staging copy of a tile that several compute ops read (Decision 47) runs as
// the first stage of its first reader, one slab per iteration of the reader's loop: iteration
// %i reads rows [2*%i, 2*%i + 2) of %buf, so it first copies those rows on DMAI, and its load
// stage waits for that copy through a new token. The copy pipeline is gone; the outer stage
// names DMAI too. The second pipeline (a later reader) is untouched.

!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
// CHECK-LABEL: func.func @row_blocks
// CHECK-NOT:     {applicable_units = ["DMAI"]}
// CHECK:         ktdf.pipeline {
// CHECK:           ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          ktdf.pipeline {
// CHECK-NEXT:            %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>, !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:              ktdf.data_transfer from %{{.*}}[%[[I]] * 2, 0] size [2, 256] to %[[BUF:.*]][%[[I]] * 2, 0] size [2, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "LX">
// CHECK-NEXT:            } {applicable_units = ["DMAI"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#2) {
// CHECK-NEXT:              scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:                ktdf.data_transfer from %[[BUF]][%[[I]] * 2, %[[J]]] size [2, 1]
// CHECK:                 } {applicable_units = ["LXLU"]}
// CHECK:         } {applicable_units = ["DMAI", "LXLU", "PE", "LXSU"]}
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %[[BUF]][0, 0] size [4, 256] to %{{.*}}[0, 0] size [4, 256]
// CHECK:           } {applicable_units = ["DMAO"]}
func.func @row_blocks(%x: memref<4x256xf16, "DDR">, %y: memref<4x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0, 0] size [4, 256] to %buf[0, 0] size [4, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "LX">
    } {applicable_units = ["DMAI"]}
  }
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#2) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %buf[%i * 2, %j] size [2, 1] to %q#0 size [2, 1] : memref<4x256xf16, "LX">, !in
            }
          } {applicable_units = ["LXLU"]}
          ktdf.stage depends_in(%q#2) depends_out(%q#3) {
            scf.for %j = %c0 to %c256 step %c1 {
              %v = ktdf.read_from_fifo %q#0 : <"LXLU" -> "PE", 2xf16> -> tensor<2x1xf16>
              ktdf.write_to_fifo %v, %q#1 : tensor<2x1xf16>, <"PE" -> "LXSU", 2xf16>
            }
          } {applicable_units = ["PE"]}
          ktdf.stage depends_in(%q#3) depends_out(none) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %q#1 size [2, 1] to %max[%i * 2, 0] size [2, 1] : !out, memref<4x1xf16, "LX">
            }
          } {applicable_units = ["LXSU"]}
        }
      }
    } {applicable_units = ["LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [4, 256] to %y[0, 0] size [4, 256] : memref<4x256xf16, "LX">, memref<4x256xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}


// -----

// A slab of two rows of 32 bytes takes 2 cycles on DMAI: no more than the signal exchange each
// iteration would add. Unchanged.
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
// CHECK-LABEL: func.func @few_short_rows
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %arg0[0, 0] size [4, 16]
// CHECK-NEXT:      } {applicable_units = ["DMAI"]}
// CHECK:         } {applicable_units = ["LXLU", "PE", "LXSU"]}
func.func @few_short_rows(%x: memref<4x16xf16, "DDR">, %y: memref<4x16xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x16xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0, 0] size [4, 16] to %buf[0, 0] size [4, 16] : memref<4x16xf16, "DDR">, memref<4x16xf16, "LX">
    } {applicable_units = ["DMAI"]}
  }
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#2) {
            scf.for %j = %c0 to %c16 step %c1 {
              ktdf.data_transfer from %buf[%i * 2, %j] size [2, 1] to %q#0 size [2, 1] : memref<4x16xf16, "LX">, !in
            }
          } {applicable_units = ["LXLU"]}
          ktdf.stage depends_in(%q#2) depends_out(%q#3) {
            scf.for %j = %c0 to %c16 step %c1 {
              %v = ktdf.read_from_fifo %q#0 : <"LXLU" -> "PE", 2xf16> -> tensor<2x1xf16>
              ktdf.write_to_fifo %v, %q#1 : tensor<2x1xf16>, <"PE" -> "LXSU", 2xf16>
            }
          } {applicable_units = ["PE"]}
          ktdf.stage depends_in(%q#3) depends_out(none) {
            scf.for %j = %c0 to %c16 step %c1 {
              ktdf.data_transfer from %q#1 size [2, 1] to %max[%i * 2, 0] size [2, 1] : !out, memref<4x1xf16, "LX">
            }
          } {applicable_units = ["LXSU"]}
        }
      }
    } {applicable_units = ["LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [4, 16] to %y[0, 0] size [4, 16] : memref<4x16xf16, "LX">, memref<4x16xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}


// -----

// Iteration %i reads rows 2*%i + 1 and 2*%i + 2: past its block of two rows, into the next
// iteration's slab. Unchanged.
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
// CHECK-LABEL: func.func @reads_past_block
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %arg0[0, 0] size [4, 256]
// CHECK-NEXT:      } {applicable_units = ["DMAI"]}
// CHECK:         } {applicable_units = ["LXLU", "PE", "LXSU"]}
func.func @reads_past_block(%x: memref<4x256xf16, "DDR">, %y: memref<4x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0, 0] size [4, 256] to %buf[0, 0] size [4, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "LX">
    } {applicable_units = ["DMAI"]}
  }
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#2) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %buf[%i * 2 + 1, %j] size [2, 1] to %q#0 size [2, 1] : memref<4x256xf16, "LX">, !in
            }
          } {applicable_units = ["LXLU"]}
          ktdf.stage depends_in(%q#2) depends_out(%q#3) {
            scf.for %j = %c0 to %c256 step %c1 {
              %v = ktdf.read_from_fifo %q#0 : <"LXLU" -> "PE", 2xf16> -> tensor<2x1xf16>
              ktdf.write_to_fifo %v, %q#1 : tensor<2x1xf16>, <"PE" -> "LXSU", 2xf16>
            }
          } {applicable_units = ["PE"]}
          ktdf.stage depends_in(%q#3) depends_out(none) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %q#1 size [2, 1] to %max[%i * 2, 0] size [2, 1] : !out, memref<4x1xf16, "LX">
            }
          } {applicable_units = ["LXSU"]}
        }
      }
    } {applicable_units = ["LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [4, 256] to %y[0, 0] size [4, 256] : memref<4x256xf16, "LX">, memref<4x256xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}


// -----

// The two iterations read 4 of the buffer's 6 rows: the slabs would not cover it. Unchanged.
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
// CHECK-LABEL: func.func @blocks_short_of_buffer
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %arg0[0, 0] size [6, 256]
// CHECK-NEXT:      } {applicable_units = ["DMAI"]}
// CHECK:         } {applicable_units = ["LXLU", "PE", "LXSU"]}
func.func @blocks_short_of_buffer(%x: memref<6x256xf16, "DDR">, %y: memref<6x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<6x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0, 0] size [6, 256] to %buf[0, 0] size [6, 256] : memref<6x256xf16, "DDR">, memref<6x256xf16, "LX">
    } {applicable_units = ["DMAI"]}
  }
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#2) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %buf[%i * 2, %j] size [2, 1] to %q#0 size [2, 1] : memref<6x256xf16, "LX">, !in
            }
          } {applicable_units = ["LXLU"]}
          ktdf.stage depends_in(%q#2) depends_out(%q#3) {
            scf.for %j = %c0 to %c256 step %c1 {
              %v = ktdf.read_from_fifo %q#0 : <"LXLU" -> "PE", 2xf16> -> tensor<2x1xf16>
              ktdf.write_to_fifo %v, %q#1 : tensor<2x1xf16>, <"PE" -> "LXSU", 2xf16>
            }
          } {applicable_units = ["PE"]}
          ktdf.stage depends_in(%q#3) depends_out(none) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %q#1 size [2, 1] to %max[%i * 2, 0] size [2, 1] : !out, memref<4x1xf16, "LX">
            }
          } {applicable_units = ["LXSU"]}
        }
      }
    } {applicable_units = ["LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [6, 256] to %y[0, 0] size [6, 256] : memref<6x256xf16, "LX">, memref<6x256xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}


// -----

// The reader also writes the buffer. Unchanged.
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
// CHECK-LABEL: func.func @reader_writes_buffer
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %arg0[0, 0] size [4, 256]
// CHECK-NEXT:      } {applicable_units = ["DMAI"]}
// CHECK:         } {applicable_units = ["LXLU", "PE", "LXSU"]}
func.func @reader_writes_buffer(%x: memref<4x256xf16, "DDR">, %y: memref<4x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0, 0] size [4, 256] to %buf[0, 0] size [4, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "LX">
    } {applicable_units = ["DMAI"]}
  }
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#2) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %buf[%i * 2, %j] size [2, 1] to %q#0 size [2, 1] : memref<4x256xf16, "LX">, !in
            }
          } {applicable_units = ["LXLU"]}
          ktdf.stage depends_in(%q#2) depends_out(%q#3) {
            scf.for %j = %c0 to %c256 step %c1 {
              %v = ktdf.read_from_fifo %q#0 : <"LXLU" -> "PE", 2xf16> -> tensor<2x1xf16>
              ktdf.write_to_fifo %v, %q#1 : tensor<2x1xf16>, <"PE" -> "LXSU", 2xf16>
            }
          } {applicable_units = ["PE"]}
          ktdf.stage depends_in(%q#3) depends_out(none) {
            scf.for %j = %c0 to %c256 step %c1 {
              ktdf.data_transfer from %q#1 size [2, 1] to %buf[%i * 2, 0] size [2, 1] : !out, memref<4x256xf16, "LX">
            }
          } {applicable_units = ["LXSU"]}
        }
      }
    } {applicable_units = ["LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [4, 256] to %y[0, 0] size [4, 256] : memref<4x256xf16, "LX">, memref<4x256xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}

