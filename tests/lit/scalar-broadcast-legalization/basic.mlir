// RUN: dfsched-opt %s -split-input-file --scalar-broadcast-legalization --device=sample | filecheck %s

// Y[r, :] = X[r, :] - S[r] on 1x64 tiles, after path-expansion: S is read as a 1x1 tile and
// broadcast along the vector dimension by the map (d0, d1) -> (d0, 0). The SFU cannot
// splat and MNILU cannot load a single 2-byte element (its DDR words are 64 bytes), but S's
// rows are one element wide: a transfer widened to 64 lanes would read past the view (into the
// next rows), so MNILU's transfer of S and S's L1 buffer stay one element (the DMA moves the
// word holding it); L1LU sends the element as a splat into a FIFO slot grown to 64 elements,
// the SFU reads a full vector, and the map indexes it by the vector dimension.

// CHECK-LABEL: func.func @row_shift(
// CHECK:         %[[P:.*]]:10 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:           %[[BX:.*]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK:           %[[BS:.*]] = memref.alloc() : memref<1x1xf16, "L1">
// CHECK:           %[[IN:.*]]:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%[[I:.*]], 0] size [1, 64] to %[[P]]#0[0, 0] size [1, 64]
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%[[I]], 0] size [1, 1] to %[[P]]#1[0, 0] size [1, 1] : memref<64x1xf16, "DDR">, memref<1x1xf16, "L1">
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 64] to %[[P]]#2 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 1] to %[[P]]#3 size [64] {transfer_mode = "splat"} : memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:      %[[X:.*]] = ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:      %[[S:.*]] = ktdf.read_from_fifo %[[P]]#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:      linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[S]] : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>)
// The result side is untouched.
// CHECK:         ktdf.data_transfer from %[[P]]#4 size [64] to %[[P]]#5[0, 0] size [1, 64]
// CHECK:         ktdf.data_transfer from %[[P]]#5[0, 0] size [1, 64] to %{{.*}}[%{{.*}}, 0] size [1, 64]

#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @row_shift(%x: memref<64x64xf16, "DDR">, %s: memref<64x1xf16, "DDR">, %y: memref<64x64xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c1 {
      ktdf.pipeline {
        %p:10 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %bx = memref.alloc() : memref<1x64xf16, "L1">
          %bs = memref.alloc() : memref<1x1xf16, "L1">
          %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %by = memref.alloc() : memref<1x64xf16, "L1">
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          %t3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %bx, %bs, %in#0, %in#1, %out, %by, %t0, %t1, %t2, %t3 : memref<1x64xf16, "L1">, memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#6) {
          ktdf.data_transfer from %x[%i, 0] size [1, 64] to %p#0[0, 0] size [1, 64] : memref<64x64xf16, "DDR">, memref<1x64xf16, "L1">
          ktdf.data_transfer from %s[%i, 0] size [1, 1] to %p#1[0, 0] size [1, 1] : memref<64x1xf16, "DDR">, memref<1x1xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#6) depends_out(%p#7) {
          ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %p#2 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %p#1[0, 0] size [1, 1] to %p#3 size [1] : memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%p#7) depends_out(%p#8) {
          %a = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %b = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %e = tensor.empty() : tensor<1x64xf16>
          %d = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x64xf16>, tensor<1x1xf16>) outs(%e : tensor<1x64xf16>) {
          ^bb0(%u: f16, %v: f16, %w: f16):
            %r = arith.subf %u, %v : f16
            linalg.yield %r : f16
          } -> tensor<1x64xf16>
          ktdf.write_to_fifo %d, %p#4 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#8) depends_out(%p#9) {
          ktdf.data_transfer from %p#4 size [64] to %p#5[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
        } {applicable_units = ["L1SU"]}
        ktdf.stage depends_in(%p#9) depends_out(none) {
          ktdf.data_transfer from %p#5[0, 0] size [1, 64] to %y[%i, 0] size [1, 64] : memref<1x64xf16, "L1">, memref<64x64xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    }
    return
  }
}

// -----

// The scalar already lives in L1 (a scratchpad view): nothing to widen, only the L1LU
// transfer becomes a splat; its FIFO and the read already carry a full vector, so they
// keep their types. The 3-D map ends in a constant too: (d0, d1, d2) -> (d0, d1, 0)
// becomes (d0, d1, d2).
// CHECK-LABEL: func.func @scratchpad_scalar(
// CHECK:         ktdf.data_transfer from %{{.*}}[%{{.*}}, 0, 0] size [1, 1, 1] to %{{.*}} size [64] {transfer_mode = "splat"} : memref<8x4x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:         %[[S:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> tensor<1x1x64xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID3:.*]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[S]] : tensor<1x1x64xf16>)
// CHECK-NOT:     memref.alloc

#bcast3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @scratchpad_scalar(%s: memref<8x4x1xf16, "L1">, %i: index) {
    ktdf.pipeline {
      %p:2 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
        %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %t0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %in, %t0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %s[%i, 0, 0] size [1, 1, 1] to %p#0 size [64] : memref<8x4x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%p#1) depends_out(none) {
        %b = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x1x64xf16>
        %e = tensor.empty() : tensor<1x1x64xf16>
        %d = linalg.generic {indexing_maps = [#bcast3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<1x1x64xf16>) outs(%e : tensor<1x1x64xf16>) {
        ^bb0(%v: f16, %w: f16):
          linalg.yield %v : f16
        } -> tensor<1x1x64xf16>
      } {applicable_units = ["SFU"]}
    }
    return
  }
}

// -----

// No operand is broadcast along the vector dimension (the bias is broadcast along the
// rows, (d0, d1) -> (d1)): nothing changes.
// CHECK-LABEL: func.func @row_bias(
// CHECK-NOT:     transfer_mode
// CHECK:         ktdf.data_transfer from %{{.*}}[0] size [64] to %{{.*}} size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ROW:map[0-9]*]], #[[ID]]]
// CHECK-NOT:     transfer_mode

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @row_bias(%x: memref<64xf16, "L1">, %bias: memref<64xf16, "L1">) {
    ktdf.pipeline {
      %p:3 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
        %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %t0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %in#0, %in#1, %t0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %x[0] size [64] to %p#0 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %bias[0] size [64] to %p#1 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%p#2) depends_out(none) {
        %a = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %b = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        %e = tensor.empty() : tensor<1x64xf16>
        %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x64xf16>, tensor<64xf16>) outs(%e : tensor<1x64xf16>) {
        ^bb0(%u: f16, %v: f16, %w: f16):
          %r = arith.addf %u, %v : f16
          linalg.yield %r : f16
        } -> tensor<1x64xf16>
      } {applicable_units = ["SFU"]}
    }
    return
  }
}
