// RUN: dfsched-opt %s --allow-unregistered-dialect -broadcast-promotion | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect -broadcast-promotion | dfsched-opt - --allow-unregistered-dialect -broadcast-promotion | filecheck %s

// One hoist per round, the pipeline rescanned after each, the transfer with the outermost
// target first:
// * round 1: the lookup table (no IV at all, its offset computed before the nest) leaves
//   all three loops and lands at function level;
// * round 2: the row factor s[%i] and the row offset o[%i] both stop at %j (they depend on
//   %i); s comes first in the stages' order;
// * round 3: %i now holds s's pipeline, a pipeline off the way to the donor, so the donor's
//   scope ends at %j; o (from the second stage, with its own units) still hoists to %j and
//   its pipeline follows s's. Each hoist gets its own pipeline, none are merged.
// A second run finds nothing more to do (the second RUN line).
// The per-element X tile depends on every IV and stays.

// CHECK-LABEL: func.func @three_hoists(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4x8x64xf16, "DDR">, %[[S:[^:]+]]: memref<4xf16, "DDR">, %[[O:[^:]+]]: memref<4xf16, "DDR">, %[[LUT:[^:]+]]: memref<128xf16, "DDR">
// CHECK:         %[[OFF:.+]] = arith.muli
// CHECK:         %[[NEW_LUT:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %[[LUT]][%[[OFF]]] size [64] to %[[NEW_LUT]][0] size [64]
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
// CHECK-NEXT:    scf.for %[[I:[^ ]+]] =
// CHECK:           %[[NEW_S:.+]] = memref.alloc() : memref<1xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[S]][%[[I]]] size [1] to %[[NEW_S]][0] size [1]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK:           %[[NEW_O:.+]] = memref.alloc() : memref<1xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[O]][%[[I]]] size [1] to %[[NEW_O]][0] size [1]
// CHECK:             } {applicable_units = ["MNILU_B"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %[[J:[^ ]+]] =
// CHECK-NEXT:        scf.for %[[K:[^ ]+]] =
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[P:.+]]#5) {
// CHECK-NEXT:              %[[E:.+]] = arith.addi %[[J]], %[[K]] : index
// CHECK-NEXT:              ktdf.data_transfer from %[[X]][%[[I]], %[[E]], 0] size [1, 1, 64] to %[[P]]#0[0] size [64]
// CHECK:                 } {applicable_units = ["MNILU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK:                 } {applicable_units = ["MNILU_B"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[P]]#6) depends_out(none) {
// CHECK-NEXT:              "test.use"(%[[P]]#0, %[[NEW_S]], %[[NEW_O]], %[[NEW_LUT]], %[[P]]#4)
// CHECK-NOT:     ktdf.pipeline
// CHECK:         return

func.func @three_hoists(%x: memref<4x8x64xf16, "DDR">, %s: memref<4xf16, "DDR">, %o: memref<4xf16, "DDR">,
                        %lut: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %off = arith.muli %c64, %c1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        ktdf.pipeline {
          %lx, %ls, %lo, %ll, %out, %t, %t2 = ktdf.private -> (memref<64xf16, "L1">, memref<1xf16, "L1">, memref<1xf16, "L1">,
              memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token, !ktdf.token) {
            %a = memref.alloc() : memref<64xf16, "L1">
            %b = memref.alloc() : memref<1xf16, "L1">
            %c = memref.alloc() : memref<1xf16, "L1">
            %d = memref.alloc() : memref<64xf16, "L1">
            %e = memref.alloc() : memref<64xf16, "L1">
            %k0 = ktdf.create_token : !ktdf.token
            %k1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %a, %b, %c, %d, %e, %k0, %k1 : memref<64xf16, "L1">, memref<1xf16, "L1">, memref<1xf16, "L1">,
                memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%t) {
            %row = arith.addi %j, %k : index
            ktdf.data_transfer from %x[%i, %row, 0] size [1, 1, 64] to %lx[0] size [64] : memref<4x8x64xf16, "DDR">, memref<64xf16, "L1">
            ktdf.data_transfer from %s[%i] size [1] to %ls[0] size [1] : memref<4xf16, "DDR">, memref<1xf16, "L1">
            ktdf.data_transfer from %lut[%off] size [64] to %ll[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%t) depends_out(%t2) {
            ktdf.data_transfer from %o[%i] size [1] to %lo[0] size [1] : memref<4xf16, "DDR">, memref<1xf16, "L1">
          } {applicable_units = ["MNILU_B"]}
          ktdf.stage depends_in(%t2) depends_out(none) {
            "test.use"(%lx, %ls, %lo, %ll, %out) : (memref<64xf16, "L1">, memref<1xf16, "L1">, memref<1xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">) -> ()
          } {applicable_units = ["SFU"]}
        }
      }
    }
  }
  return
}
