// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --device=sample -p 'stage-coarsening{loop-nest-depth=3}'

// Buffers the pass cannot expand are reported on the op at fault, before the IR changes
// (upstream only asserts in these cases).

// A loop with a symbolic trip count must be normalized (lower bound 0, step 1): its tile
// size is then its buffer dim.
func.func @not_normalized(%x: memref<?xf16, "DDR">, %z: memref<?xf16, "DDR">, %len: index) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{stage-coarsening: cannot size the buffer dim of this loop: its bounds are not constant and it is not normalized (lower bound 0, step 1)}}
  scf.for %n = %c1 to %len step %c64 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<?xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<?xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// The inner loop's bound is computed inside the nest, so the buffer cannot be allocated
// before it.
func.func @size_inside_nest(%x: memref<16x64xf16, "DDR">, %z: memref<16x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %u = ktdf.tiling.linearize_index [%i : %c2] : index
    // expected-error @below {{stage-coarsening: cannot size the buffer dim of this loop: its tile size is only known inside the loop nest}}
    scf.for %j = %c0 to %u step %c1 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[%j, 0] size [1, 64] to %l[0] size [64] : memref<16x64xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %l[0] size [64] to %z[%j, 0] size [1, 64] : memref<64xf16, "L1">, memref<16x64xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    }
  }
  return
}

// -----

// A buffer that grows a dim per iteration may only be moved by data transfers (their
// indices are what the pass rewrites).
func.func @computed_in_scratchpad(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c64 {
    ktdf.pipeline {
      %l, %t0, %t1 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k0, %k1 : memref<64xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        // expected-error @below {{stage-coarsening: cannot expand private result #0 to one slot per loop iteration: it is used by 'linalg.exp', not only by 'ktdf.data_transfer'}}
        linalg.exp ins(%l : memref<64xf16, "L1">) outs(%l : memref<64xf16, "L1">)
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%t1) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// Only a `memref.alloc` of the private can be given new dims.
func.func @not_an_alloc(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c64 {
    ktdf.pipeline {
      // expected-error @below {{stage-coarsening: cannot expand private result #0: it is not allocated by a 'memref.alloc' in the private}}
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloca() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}
