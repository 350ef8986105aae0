// RUN: dfsched-opt %s --device=sample -p stage-coarsening | filecheck %s
// RUN: dfsched-opt %s --device=sample -p 'stage-coarsening{loop-nest-depth=3}' | filecheck %s --check-prefix=THREE

// The shape `tile-scf-for-loops` leaves: tile loops %t0/%t1 of symbolic sizes %r0/%r1,
// `derive_size` and `linearize_index` between the loops, point loops %p0/%p1 bounded by
// the derived sizes. The tiling ops are cloned into every copy of the loops; a buffer dim
// of a loop bounded by `derive_size` is the loop's tile size, so the L1 buffers become
// dynamic, allocated with the reserved tile sizes.

func.func @exp_tiles(%x: memref<16x4x64xf16, "DDR">, %z: memref<16x4x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r0 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %r1 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n0 = arith.ceildivui %c16, %r0 : index
  scf.for %t0 = %c0 to %n0 step %c1 {
    %n1 = arith.ceildivui %c4, %r1 : index
    %s0 = ktdf.tiling.derive_size [%t0 : %r0], total_size = %c16 : index
    scf.for %t1 = %c0 to %n1 step %c1 {
      %s1 = ktdf.tiling.derive_size [%t1 : %r1], total_size = %c4 : index
      scf.for %p0 = %c0 to %s0 step %c1 {
        %i = ktdf.tiling.linearize_index [%t0 : %r0], [%p0 : %c1] : index
        scf.for %p1 = %c0 to %s1 step %c1 {
          %j = ktdf.tiling.linearize_index [%t1 : %r1], [%p1 : %c1] : index
          ktdf.pipeline {
            %lx, %lz, %rx, %qx, %qz, %t0k, %t1k, %t2k, %t3k = ktdf.private -> (
                memref<1x1x64xf16, "L1">, memref<1x1x64xf16, "L1">, memref<64xf16, "SFU_REG">,
                !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
                !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %a0 = memref.alloc() : memref<1x1x64xf16, "L1">
              %a1 = memref.alloc() : memref<1x1x64xf16, "L1">
              %r = memref.alloc() : memref<64xf16, "SFU_REG">
              %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
              %k0 = ktdf.create_token : !ktdf.token
              %k1 = ktdf.create_token : !ktdf.token
              %k2 = ktdf.create_token : !ktdf.token
              %k3 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %a0, %a1, %r, %f0, %f1, %k0, %k1, %k2, %k3 :
                  memref<1x1x64xf16, "L1">, memref<1x1x64xf16, "L1">, memref<64xf16, "SFU_REG">,
                  !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
                  !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0k) {
              ktdf.data_transfer from %x[%i, %j, 0] size [1, 1, 64] to %lx[0, 0, 0] size [1, 1, 64] : memref<16x4x64xf16, "DDR">, memref<1x1x64xf16, "L1">
            } {applicable_units = ["MNILU"]}
            ktdf.stage depends_in(%t0k) depends_out(%t1k) {
              ktdf.data_transfer from %lx[0, 0, 0] size [1, 1, 64] to %qx size [64] : memref<1x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%t1k) depends_out(%t2k) {
              ktdf.data_transfer from %qx to %rx[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
              linalg.exp ins(%rx : memref<64xf16, "SFU_REG">) outs(%rx : memref<64xf16, "SFU_REG">)
              ktdf.data_transfer from %rx[0] size [64] to %qz size [64] : memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%t2k) depends_out(%t3k) {
              ktdf.data_transfer from %qz size [64] to %lz[0, 0, 0] size [1, 1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x1x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
            ktdf.stage depends_in(%t3k) depends_out(none) {
              ktdf.data_transfer from %lz[0, 0, 0] size [1, 1, 64] to %z[%i, %j, 0] size [1, 1, 64] : memref<1x1x64xf16, "L1">, memref<16x4x64xf16, "DDR">
            } {applicable_units = ["MNISU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// CHECK-LABEL: func.func @exp_tiles(
// CHECK:         %[[R0:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[R1:.+]] = ktdf.tiling.reserve_size
// CHECK:         scf.for %[[T0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           %[[S0:.+]] = ktdf.tiling.derive_size [%[[T0]] : %[[R0]]], total_size = %{{.+}} : index
// CHECK-NEXT:      scf.for %[[T1:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        %[[S1:.+]] = ktdf.tiling.derive_size [%[[T1]] : %[[R1]]], total_size = %{{.+}} : index
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.+]]:4 = ktdf.private -> (memref<?x?x1x1x64xf16, "L1">, memref<?x?x1x1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:                 memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x1x1x64xf16, "L1">
// CHECK:                 memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x1x1x64xf16, "L1">
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:            scf.for %[[P0:.+]] = %[[C0:.+]] to %[[S0]] step %[[C1:[^ ]+]] {
// CHECK-NEXT:              %[[I:.+]] = ktdf.tiling.linearize_index [%[[T0]] : %[[R0]]], [%[[P0]] : %[[C1]]] : index
// CHECK-NEXT:              scf.for %[[P1:.+]] = %[[C0]] to %[[S1]] step %[[C1]] {
// CHECK-NEXT:                %[[J:.+]] = ktdf.tiling.linearize_index [%[[T1]] : %[[R1]]], [%[[P1]] : %[[C1]]] : index
// CHECK-NEXT:                arith.subi %[[P0]], %[[C0]]
// CHECK-NEXT:                %[[A:.+]] = arith.divsi
// CHECK-NEXT:                arith.subi %[[P1]], %[[C0]]
// CHECK-NEXT:                %[[B:.+]] = arith.divsi
// CHECK-NEXT:                ktdf.data_transfer from %{{.+}}[%[[I]], %[[J]], 0] size [1, 1, 64] to %[[P]]#0[%[[A]], %[[B]], 0, 0, 0] size [1, 1, 1, 1, 64] : memref<16x4x64xf16, "DDR">, memref<?x?x1x1x64xf16, "L1">
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK-NEXT:            scf.for %[[Q0:.+]] = %[[C0]] to %[[S0]] step %[[C1]] {
// CHECK-NEXT:              ktdf.tiling.linearize_index [%[[T0]] : %[[R0]]], [%[[Q0]] : %[[C1]]] : index
// CHECK-NEXT:              scf.for %[[Q1:.+]] = %[[C0]] to %[[S1]] step %[[C1]] {
// CHECK-NEXT:                ktdf.tiling.linearize_index [%[[T1]] : %[[R1]]], [%[[Q1]] : %[[C1]]] : index
// CHECK-NEXT:                ktdf.pipeline {
// CHECK:                       ktdf.data_transfer from %[[P]]#0[%{{.+}}, %{{.+}}, 0, 0, 0] size [1, 1, 1, 1, 64] to %{{.+}} size [64]
// CHECK:                       linalg.exp
// CHECK:                       ktdf.data_transfer from %{{.+}} size [64] to %[[P]]#1[%{{.+}}, %{{.+}}, 0, 0, 0] size [1, 1, 1, 1, 64]
// CHECK:               } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// CHECK-NEXT:            scf.for %{{.+}} = %[[C0]] to %[[S0]] step %[[C1]] {
// CHECK-NEXT:              %[[I2:.+]] = ktdf.tiling.linearize_index
// CHECK-NEXT:              scf.for %{{.+}} = %[[C0]] to %[[S1]] step %[[C1]] {
// CHECK-NEXT:                %[[J2:.+]] = ktdf.tiling.linearize_index
// CHECK-COUNT-4:             arith.
// CHECK-NEXT:                ktdf.data_transfer from %[[P]]#1[%{{.+}}, %{{.+}}, 0, 0, 0] size [1, 1, 1, 1, 64] to %{{.+}}[%[[I2]], %[[J2]], 0] size [1, 1, 64]

// Depth 3 also sinks %t1: its copies hold a clone of %s1's derive_size, which bounds the
// copied %p1 loop. %t1's upper bound is not a derived size, so its buffer dim is that bound.
// THREE-LABEL: func.func @exp_tiles(
// THREE:         %[[R0:.+]] = ktdf.tiling.reserve_size
// THREE-NEXT:    %[[R1:.+]] = ktdf.tiling.reserve_size
// THREE:         scf.for %[[T0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// THREE-NEXT:      %[[N1:.+]] = arith.ceildivui
// THREE-NEXT:      %[[S0:.+]] = ktdf.tiling.derive_size
// THREE-NEXT:      ktdf.pipeline {
// THREE:             %[[P:.+]]:4 = ktdf.private -> (memref<?x?x?x1x1x64xf16, "L1">, memref<?x?x?x1x1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// THREE:               memref.alloc(%[[N1]], %[[R0]], %[[R1]]) : memref<?x?x?x1x1x64xf16, "L1">
// THREE:             ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// THREE-NEXT:          scf.for %[[T1:.+]] = %{{.+}} to %[[N1]] step %{{.+}} {
// THREE-NEXT:            %[[S1:.+]] = ktdf.tiling.derive_size [%[[T1]] : %[[R1]]], total_size = %{{.+}} : index
// THREE-NEXT:            scf.for %{{.+}} = %{{.+}} to %[[S0]] step %{{.+}} {
// THREE-NEXT:              ktdf.tiling.linearize_index [%[[T0]] : %[[R0]]]
// THREE-NEXT:              scf.for %{{.+}} = %{{.+}} to %[[S1]] step %{{.+}} {
// THREE-NEXT:                ktdf.tiling.linearize_index [%[[T1]] : %[[R1]]]
// THREE-COUNT-6:             arith.
// THREE-NEXT:                ktdf.data_transfer from %{{.+}} size [1, 1, 64] to %[[P]]#0[%{{.+}}, %{{.+}}, %{{.+}}, 0, 0, 0] size [1, 1, 1, 1, 1, 64]
// THREE:             ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// THREE-NEXT:          scf.for %[[U1:.+]] = %{{.+}} to %[[N1]] step %{{.+}} {
// THREE-NEXT:            %[[V1:.+]] = ktdf.tiling.derive_size [%[[U1]] : %[[R1]]]
// THREE-NEXT:            scf.for
// THREE-NEXT:              ktdf.tiling.linearize_index
// THREE-NEXT:              scf.for %{{.+}} = %{{.+}} to %[[V1]] step %{{.+}} {
// THREE-NEXT:                ktdf.tiling.linearize_index [%[[U1]] : %[[R1]]]
// THREE-NEXT:                ktdf.pipeline {
