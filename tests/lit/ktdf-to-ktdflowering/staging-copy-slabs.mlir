// RUN: dfsched-opt %s -split-input-file --device=spyre --ktdf-to-ktdflowering | filecheck %s
// RUN: dfsched-opt %s -split-input-file --device=spyre "--ktdf-to-ktdflowering=overlap-copies=false" | filecheck %s --check-prefix=OFF

// Decision 110 in a program of several compute ops: `ktdf-to-ktdflowering` first runs
// `overlap-staging-copies`, so DMAI copies each iteration's two rows of %buf inside the first
// reader's loop, signalling LXLU after each copy. The next iteration's copy writes other rows
// than this iteration's reads: no write-after-read signal guards it. With
// `overlap-copies=false` the copy stays a pipeline of its own before the loop.

// CHECK-LABEL: func.func @two_readers
// CHECK:         %[[DMAI:.*]] = uniform.query_map
// CHECK:         %[[LXLU:.*]] = uniform.query_map
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           ktdf_lowering.execute_on %[[DMAI]] {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%[[I]] * 2, 0] size [2, 256]
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf_lowering.signal %[[DMAI]], %[[LXLU]]
// CHECK-NEXT:      ktdf_lowering.execute_on %[[LXLU]] {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          ktdf.data_transfer
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// OFF-LABEL:   func.func @two_readers
// OFF:           ktdf.data_transfer from %arg0[0, 0] size [4, 256]
// OFF:           scf.for
// OFF-NOT:         size [2, 256]
// OFF:           return
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
func.func @two_readers(%x: memref<4x256xf16, "DDR">, %y: memref<4x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  %a2 = arith.constant 2112 : index
  %max2 = builtin.unrealized_conversion_cast %a2 : index to memref<4x1xf16, "LX">
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
              ktdf.data_transfer from %q#1 size [2, 1] to %max2[%i * 2, 0] size [2, 1] : !out, memref<4x1xf16, "LX">
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

// An iteration that copies its own slab and reads only it needs no write-after-read signal
// across iterations; one that reads past it (rows 2*%i + 1 and 2*%i + 2: the next slab) keeps
// Decision 14's guarded signals (the writer waits from the second iteration on).

// CHECK-LABEL: func.func @own_slabs
// CHECK-NOT:     arith.cmpi ne
// CHECK:         return
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
func.func @own_slabs(%x: memref<4x256xf16, "DDR">, %y: memref<4x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:5 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            %t2 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1, %t2 : !in, !out, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#4) {
            ktdf.data_transfer from %x[%i * 2, 0] size [2, 256] to %buf[%i * 2, 0] size [2, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "LX">
          } {applicable_units = ["DMAI"]}
          ktdf.stage depends_in(%q#4) depends_out(%q#2) {
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
    } {applicable_units = ["DMAI", "LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [4, 256] to %y[0, 0] size [4, 256] : memref<4x256xf16, "LX">, memref<4x256xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}


// -----

// CHECK-LABEL: func.func @read_past_slab
// CHECK:         ktdf_lowering.execute_on %[[DMAI:[0-9a-z_]+]] {
// CHECK-NEXT:      %[[NF:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      scf.if %[[NF]] {
// CHECK-NEXT:        ktdf_lowering.signal %{{.*}}, %[[DMAI]]
!in = !ktdf.fifo.slot<"LXLU" -> "PE", 2xf16>
!out = !ktdf.fifo.slot<"PE" -> "LXSU", 2xf16>
func.func @read_past_slab(%x: memref<4x256xf16, "DDR">, %y: memref<4x256xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %a0 = arith.constant 0 : index
  %buf = builtin.unrealized_conversion_cast %a0 : index to memref<4x256xf16, "LX">
  %a1 = arith.constant 2048 : index
  %max = builtin.unrealized_conversion_cast %a1 : index to memref<4x1xf16, "LX">
  ktdf.pipeline {
    ktdf.private {
    }
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %q:5 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token, !ktdf.token) {
            %f0 = ktdf.fifo.allocate() -> !in
            %f1 = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            %t2 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f0, %f1, %t0, %t1, %t2 : !in, !out, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#4) {
            ktdf.data_transfer from %x[%i * 2, 0] size [2, 256] to %buf[%i * 2, 0] size [2, 256] : memref<4x256xf16, "DDR">, memref<4x256xf16, "LX">
          } {applicable_units = ["DMAI"]}
          ktdf.stage depends_in(%q#4) depends_out(%q#2) {
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
    } {applicable_units = ["DMAI", "LXLU", "PE", "LXSU"]}
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %buf[0, 0] size [4, 256] to %y[0, 0] size [4, 256] : memref<4x256xf16, "LX">, memref<4x256xf16, "DDR">
    } {applicable_units = ["DMAO"]}
  }
  return
}

