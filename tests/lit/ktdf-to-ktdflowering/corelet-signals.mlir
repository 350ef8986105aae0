// RUN: dfsched-opt %s --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering | filecheck %s
// RUN: sed -e 's/MNILU/DMARD/g; s/MNISU/DMAWR/g; s/L1LU/VLD/g; s/L1SU/VST/g; s/SFU/VPU/g; s/"L1"/"SPAD"/g; s/"DDR"/"GMEM"/g; s/num_instances = 2/num_instances = 4/' %s \
// RUN:   | dfsched-opt - --allow-unregistered-dialect --device=quad_corelet --ktdf-to-ktdflowering | filecheck %s --check-prefix=QUAD

// A DMA load, a corelet-parallel load -> compute -> store pipeline over rows, a DMA store,
// on two cores. Inside `ktdf.parallel` every kind gets one unit per corelet and core; the
// outer stage around the parallel op runs on the corelet units of its kinds. Signals name
// every corelet's unit: DMA load -> corelet loads, corelet stores -> DMA store.
// On the sample device: 2 corelets, units MNILU, L1LU, SFU, L1SU, MNISU. The same input on
// quad_corelet (renamed by the second RUN line): 4 corelets, units DMARD, VLD, VPU, VST,
// DMAWR, scratchpad SPAD.

// CHECK-LABEL: func.func @rows
// CHECK-NEXT:  name = "C0-mnilu"
// CHECK-NEXT:  name = "C1-mnilu"
// CHECK-NEXT:  name = "C0-mnisu"
// CHECK-NEXT:  name = "C1-mnisu"
// CHECK-NEXT:  {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu-CL0", type = "l1lu"}
// CHECK-NEXT:  {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu-CL0", type = "l1lu"}
// CHECK-NEXT:  {core = 0 : i32, corelet = 1 : i32, name = "C0-l1lu-CL1", type = "l1lu"}
// CHECK-NEXT:  {core = 1 : i32, corelet = 1 : i32, name = "C1-l1lu-CL1", type = "l1lu"}
// CHECK-NEXT:  name = "C0-sfu-CL0"
// CHECK-NEXT:  name = "C1-sfu-CL0"
// CHECK-NEXT:  name = "C0-sfu-CL1"
// CHECK-NEXT:  name = "C1-sfu-CL1"
// CHECK-NEXT:  name = "C0-l1su-CL0"
// CHECK-NEXT:  name = "C1-l1su-CL0"
// CHECK-NEXT:  name = "C0-l1su-CL1"
// CHECK-NEXT:  name = "C1-l1su-CL1"
// CHECK-NEXT:  ktdp.get_compute_tile_id
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       %[[LU0:.*]] = uniform.query_map
// CHECK:       %[[LU1:.*]] = uniform.query_map
// CHECK:       %[[SFU0:.*]] = uniform.query_map
// CHECK:       %[[SFU1:.*]] = uniform.query_map
// CHECK:       %[[SU0:.*]] = uniform.query_map
// CHECK:       %[[SU1:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]], %[[LU0]], %[[LU1]], %[[SFU0]], %[[SFU1]], %[[SU0]], %[[SU1]], %[[MNISU]] {
// CHECK:         ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:      ktdf.data_transfer
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[MNILU]], %[[LU0]], %[[LU1]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[LU0]], %[[LU1]], %[[SFU0]], %[[SFU1]], %[[SU0]], %[[SU1]] {
// CHECK-NEXT:      ktdf.parallel
// CHECK-NEXT:        ktdf_lowering.execute_on %[[LU0]], %[[LU1]], %[[SFU0]], %[[SFU1]], %[[SU0]], %[[SU1]] {
// CHECK:               ktdf_lowering.execute_on %[[LU0]], %[[LU1]] {
// CHECK:               ktdf_lowering.execute_on %[[SFU0]], %[[SFU1]] {
// CHECK:               ktdf_lowering.execute_on %[[SU0]], %[[SU1]] {
// CHECK:             ktdf.parallel_yield
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[SU0]], %[[SU1]], %[[MNISU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNISU]] {

// QUAD-LABEL: func.func @rows
// QUAD-NEXT:  name = "C0-dmard"
// QUAD-NEXT:  name = "C1-dmard"
// QUAD-NEXT:  name = "C0-dmawr"
// QUAD-NEXT:  name = "C1-dmawr"
// QUAD-NEXT:  {core = 0 : i32, corelet = 0 : i32, name = "C0-vld-CL0", type = "vld"}
// QUAD-NEXT:  {core = 1 : i32, corelet = 0 : i32, name = "C1-vld-CL0", type = "vld"}
// QUAD-NEXT:  {core = 0 : i32, corelet = 1 : i32, name = "C0-vld-CL1", type = "vld"}
// QUAD-NEXT:  {core = 1 : i32, corelet = 1 : i32, name = "C1-vld-CL1", type = "vld"}
// QUAD-NEXT:  {core = 0 : i32, corelet = 2 : i32, name = "C0-vld-CL2", type = "vld"}
// QUAD-NEXT:  {core = 1 : i32, corelet = 2 : i32, name = "C1-vld-CL2", type = "vld"}
// QUAD-NEXT:  {core = 0 : i32, corelet = 3 : i32, name = "C0-vld-CL3", type = "vld"}
// QUAD-NEXT:  {core = 1 : i32, corelet = 3 : i32, name = "C1-vld-CL3", type = "vld"}
// QUAD-COUNT-8: type = "vpu"
// QUAD-COUNT-8: type = "vst"
// QUAD-NEXT:  ktdp.get_compute_tile_id
// QUAD:       %[[DMARD:.*]] = uniform.query_map
// QUAD:       %[[DMAWR:.*]] = uniform.query_map
// QUAD:       %[[LD0:.*]] = uniform.query_map
// QUAD:       %[[LD1:.*]] = uniform.query_map
// QUAD:       %[[LD2:.*]] = uniform.query_map
// QUAD:       %[[LD3:.*]] = uniform.query_map
// QUAD:       %[[VPU0:.*]] = uniform.query_map
// QUAD:       %[[VPU1:.*]] = uniform.query_map
// QUAD:       %[[VPU2:.*]] = uniform.query_map
// QUAD:       %[[VPU3:.*]] = uniform.query_map
// QUAD:       %[[ST0:.*]] = uniform.query_map
// QUAD:       %[[ST1:.*]] = uniform.query_map
// QUAD:       %[[ST2:.*]] = uniform.query_map
// QUAD:       %[[ST3:.*]] = uniform.query_map
// QUAD:       ktdf_lowering.execute_on %[[DMARD]], %[[LD0]], %[[LD1]], %[[LD2]], %[[LD3]], %[[VPU0]], %[[VPU1]], %[[VPU2]], %[[VPU3]], %[[ST0]], %[[ST1]], %[[ST2]], %[[ST3]], %[[DMAWR]] {
// QUAD:         ktdf_lowering.signal %[[DMARD]], %[[LD0]], %[[LD1]], %[[LD2]], %[[LD3]]
// QUAD-NEXT:    ktdf_lowering.execute_on %[[LD0]], %[[LD1]], %[[LD2]], %[[LD3]], %[[VPU0]], %[[VPU1]], %[[VPU2]], %[[VPU3]], %[[ST0]], %[[ST1]], %[[ST2]], %[[ST3]] {
// QUAD-NEXT:      ktdf.parallel {{.*}} distribute(num_instances = 4)
// QUAD:               ktdf_lowering.execute_on %[[LD0]], %[[LD1]], %[[LD2]], %[[LD3]] {
// QUAD:               ktdf_lowering.execute_on %[[VPU0]], %[[VPU1]], %[[VPU2]], %[[VPU3]] {
// QUAD:               ktdf_lowering.execute_on %[[ST0]], %[[ST1]], %[[ST2]], %[[ST3]] {
// QUAD:         ktdf_lowering.signal %[[ST0]], %[[ST1]], %[[ST2]], %[[ST3]], %[[DMAWR]]
// QUAD-NEXT:    ktdf_lowering.execute_on %[[DMAWR]] {

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
func.func @rows(%x: memref<2x8x64xf16, "DDR">, %y: memref<2x8x64xf16, "DDR">) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  ktdf.pipeline {
    %p:4 = ktdf.private -> (memref<8x64xf16, "L1">, memref<8x64xf16, "L1">, !ktdf.token, !ktdf.token) {
      %a0 = arith.constant 0 : index
      %src = builtin.unrealized_conversion_cast %a0 : index to memref<8x64xf16, "L1">
      %a1 = arith.constant 1024 : index
      %dst = builtin.unrealized_conversion_cast %a1 : index to memref<8x64xf16, "L1">
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %src, %dst, %t0, %t1 : memref<8x64xf16, "L1">, memref<8x64xf16, "L1">, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      ktdf.data_transfer from %x[%t, 0, 0] size [1, 8, 64] to %p#0[0, 0] size [8, 64] : memref<2x8x64xf16, "DDR">, memref<8x64xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#2) depends_out(%p#3) {
      ktdf.parallel (%r, %inst) = (%c0) to (%c8) step (%c1) distribute(num_instances = 2) {
        ktdf.pipeline {
          %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
            %fin = ktdf.fifo.allocate() -> !in
            %fout = ktdf.fifo.allocate() -> !out
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %fin, %fout, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#2) {
            ktdf.data_transfer from %p#0[%r, 0] size [1, 64] to %q#0 size [64] : memref<8x64xf16, "L1">, !in
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%q#2) depends_out(%q#3) {
            %v = ktdf.read_from_fifo %q#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
            ktdf.write_to_fifo %v, %q#1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%q#3) depends_out(none) {
            ktdf.data_transfer from %q#1 size [64] to %p#1[%r, 0] size [1, 64] : !out, memref<8x64xf16, "L1">
          } {applicable_units = ["L1SU"]}
        }
        ktdf.parallel_yield
      }
    } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    ktdf.stage depends_in(%p#3) depends_out(none) {
      ktdf.data_transfer from %p#1[0, 0] size [8, 64] to %y[%t, 0, 0] size [1, 8, 64] : memref<8x64xf16, "L1">, memref<2x8x64xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  return
}
