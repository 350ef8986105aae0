// RUN: dfsched-opt %s --split-input-file --device=sample -p stage-coarsening | filecheck %s

// A one-loop tiling, the shape `tile-scf-for-loops{tile-single-loops=true}` leaves: tile
// loop %t over ceildiv(16, %r), point loop %p bounded by the derived size. The default
// depth (2) would reach both loops, but dfsched never sinks a tiling's outermost tile loop:
// %t stays around the pipeline, so the L1 buffers grow by the tile size %r (not by the
// whole 16 rows) and a loop remains for double buffering to alternate over.

func.func @one_loop_tiling(%x: memref<16x64xf16, "DDR">, %z: memref<16x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c16, %r : index
  scf.for %t = %c0 to %n step %c1 {
    %s = ktdf.tiling.derive_size [%t : %r], total_size = %c16 : index
    scf.for %p = %c0 to %s step %c1 {
      %i = ktdf.tiling.linearize_index [%t : %r], [%p : %c1] : index
      ktdf.pipeline {
        %lx, %lz, %qx, %qz, %k0, %k1, %k2, %k3 = ktdf.private -> (
            memref<1x64xf16, "L1">, memref<1x64xf16, "L1">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %a0 = memref.alloc() : memref<1x64xf16, "L1">
          %a1 = memref.alloc() : memref<1x64xf16, "L1">
          %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          %t3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a0, %a1, %f0, %f1, %t0, %t1, %t2, %t3 :
              memref<1x64xf16, "L1">, memref<1x64xf16, "L1">,
              !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
              !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%k0) {
          ktdf.data_transfer from %x[%i, 0] size [1, 64] to %lx[0, 0] size [1, 64] : memref<16x64xf16, "DDR">, memref<1x64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%k0) depends_out(%k1) {
          ktdf.data_transfer from %lx[0, 0] size [1, 64] to %qx size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%k1) depends_out(%k2) {
          %v = ktdf.read_from_fifo %qx : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          ktdf.write_to_fifo %v, %qz : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%k2) depends_out(%k3) {
          ktdf.data_transfer from %qz size [64] to %lz[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
        } {applicable_units = ["L1SU"]}
        ktdf.stage depends_in(%k3) depends_out(none) {
          ktdf.data_transfer from %lz[0, 0] size [1, 64] to %z[%i, 0] size [1, 64] : memref<1x64xf16, "L1">, memref<16x64xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// CHECK-LABEL: func.func @one_loop_tiling(
// CHECK:         %[[R:.+]] = ktdf.tiling.reserve_size
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[S:.+]] = ktdf.tiling.derive_size [%[[T]] : %[[R]]], total_size = %{{.+}} : index
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             %[[P:.+]]:4 = ktdf.private -> (memref<?x1x64xf16, "L1">, memref<?x1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:               memref.alloc(%[[R]]) : memref<?x1x64xf16, "L1">
// CHECK:               memref.alloc(%[[R]]) : memref<?x1x64xf16, "L1">
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:          scf.for %{{.+}} = %{{.+}} to %[[S]] step %{{.+}} {
// CHECK-NEXT:            ktdf.tiling.linearize_index [%[[T]] : %[[R]]]
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK:             } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK:             } {applicable_units = ["MNISU"]}
// CHECK:           }
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         return

// -----

// The same nest with a plain outer loop (its bound is no tiling's): both loops sink and the
// buffers span all 16 x 4 vectors.

func.func @plain_loops(%x: memref<16x4x64xf16, "DDR">, %z: memref<16x4x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        %lx, %lz, %qx, %qz, %k0, %k1, %k2, %k3 = ktdf.private -> (
            memref<1x1x64xf16, "L1">, memref<1x1x64xf16, "L1">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %a0 = memref.alloc() : memref<1x1x64xf16, "L1">
          %a1 = memref.alloc() : memref<1x1x64xf16, "L1">
          %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          %t3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a0, %a1, %f0, %f1, %t0, %t1, %t2, %t3 :
              memref<1x1x64xf16, "L1">, memref<1x1x64xf16, "L1">,
              !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
              !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%k0) {
          ktdf.data_transfer from %x[%i, %j, 0] size [1, 1, 64] to %lx[0, 0, 0] size [1, 1, 64] : memref<16x4x64xf16, "DDR">, memref<1x1x64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%k0) depends_out(%k1) {
          ktdf.data_transfer from %lx[0, 0, 0] size [1, 1, 64] to %qx size [64] : memref<1x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%k1) depends_out(%k2) {
          %v = ktdf.read_from_fifo %qx : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          ktdf.write_to_fifo %v, %qz : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%k2) depends_out(%k3) {
          ktdf.data_transfer from %qz size [64] to %lz[0, 0, 0] size [1, 1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x1x64xf16, "L1">
        } {applicable_units = ["L1SU"]}
        ktdf.stage depends_in(%k3) depends_out(none) {
          ktdf.data_transfer from %lz[0, 0, 0] size [1, 1, 64] to %z[%i, %j, 0] size [1, 1, 64] : memref<1x1x64xf16, "L1">, memref<16x4x64xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// CHECK-LABEL: func.func @plain_loops(
// CHECK-NOT:     scf.for
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:4 = ktdf.private -> (memref<16x4x1x1x64xf16, "L1">, memref<16x4x1x1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          scf.for
