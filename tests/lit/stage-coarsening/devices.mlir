// RUN: dfsched-opt %s -split-input-file --device=quad_corelet -p stage-coarsening | filecheck %s

// What is "below the scratchpad" comes from the device's memory tree. On quad_corelet the
// vector registers VREG sit below the SPAD scratchpad: the stages sharing them form the
// coarse group; the DMA stages (GMEM <-> SPAD) stay alone.

// CHECK-LABEL: func.func @quad_neg(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:4 = ktdf.private -> (memref<6x32xf16, "SPAD">, memref<6x32xf16, "SPAD">, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:        scf.for
// CHECK:           } {applicable_units = ["DMARD"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 %[[Q:.+]]:4 = ktdf.private -> (memref<32xf16, "VREG">, memref<32xf16, "VREG">, !ktdf.token, !ktdf.token)
// CHECK:                 } {applicable_units = ["VLD"]}
// CHECK:                 } {applicable_units = ["VPU"]}
// CHECK:                 } {applicable_units = ["VST"]}
// CHECK:           } {applicable_units = ["VLD", "VPU", "VST"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// CHECK:           } {applicable_units = ["DMAWR"]}

func.func @quad_neg(%x: memref<192xf16, "GMEM">, %z: memref<192xf16, "GMEM">) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c192 = arith.constant 192 : index
  scf.for %n = %c0 to %c192 step %c32 {
    ktdf.pipeline {
      %sx, %sz, %vx, %vz, %t0, %t1, %t2, %t3 = ktdf.private -> (
          memref<32xf16, "SPAD">, memref<32xf16, "SPAD">, memref<32xf16, "VREG">, memref<32xf16, "VREG">,
          !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %a0 = memref.alloc() : memref<32xf16, "SPAD">
        %a1 = memref.alloc() : memref<32xf16, "SPAD">
        %v0 = memref.alloc() : memref<32xf16, "VREG">
        %v1 = memref.alloc() : memref<32xf16, "VREG">
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        %k2 = ktdf.create_token : !ktdf.token
        %k3 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a0, %a1, %v0, %v1, %k0, %k1, %k2, %k3 :
            memref<32xf16, "SPAD">, memref<32xf16, "SPAD">, memref<32xf16, "VREG">, memref<32xf16, "VREG">,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %x[%n] size [32] to %sx[0] size [32] : memref<192xf16, "GMEM">, memref<32xf16, "SPAD">
      } {applicable_units = ["DMARD"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        ktdf.data_transfer from %sx[0] size [32] to %vx[0] size [32] : memref<32xf16, "SPAD">, memref<32xf16, "VREG">
      } {applicable_units = ["VLD"]}
      ktdf.stage depends_in(%t1) depends_out(%t2) {
        linalg.sub ins(%vz, %vx : memref<32xf16, "VREG">, memref<32xf16, "VREG">) outs(%vz : memref<32xf16, "VREG">)
      } {applicable_units = ["VPU"]}
      ktdf.stage depends_in(%t2) depends_out(%t3) {
        ktdf.data_transfer from %vz[0] size [32] to %sz[0] size [32] : memref<32xf16, "VREG">, memref<32xf16, "SPAD">
      } {applicable_units = ["VST"]}
      ktdf.stage depends_in(%t3) depends_out(none) {
        ktdf.data_transfer from %sz[0] size [32] to %z[%n] size [32] : memref<32xf16, "SPAD">, memref<192xf16, "GMEM">
      } {applicable_units = ["DMAWR"]}
    }
  }
  return
}

// -----

// A device declared in the module wins over --device: on the sample device the SFU
// registers are below the scratchpad (on quad_corelet "SFU_REG" is no memory at all, and
// nothing would link the stages), so the three middle stages form the coarse group.
// CHECK-LABEL: func.func @declared(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:4 = ktdf.private -> (memref<6x32xf16, "L1">, memref<6x32xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK:           ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 %[[Q:.+]]:4 = ktdf.private -> (memref<32xf16, "SFU_REG">, memref<32xf16, "SFU_REG">, !ktdf.token, !ktdf.token)
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[Q]]#2) {
// CHECK:                 ktdf.stage depends_in(%[[Q]]#2) depends_out(%[[Q]]#3) {
// CHECK-NEXT:              linalg.sub
// CHECK:                 ktdf.stage depends_in(%[[Q]]#3) depends_out(none) {
// CHECK:           ktdf.stage depends_in(%[[P]]#3) depends_out(none) {

module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  func.func @declared(%x: memref<192xf16, "DDR">, %z: memref<192xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c192 = arith.constant 192 : index
    scf.for %n = %c0 to %c192 step %c32 {
      ktdf.pipeline {
        %sx, %sz, %vx, %vz, %t0, %t1, %t2, %t3 = ktdf.private -> (
            memref<32xf16, "L1">, memref<32xf16, "L1">, memref<32xf16, "SFU_REG">, memref<32xf16, "SFU_REG">,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %a0 = memref.alloc() : memref<32xf16, "L1">
          %a1 = memref.alloc() : memref<32xf16, "L1">
          %v0 = memref.alloc() : memref<32xf16, "SFU_REG">
          %v1 = memref.alloc() : memref<32xf16, "SFU_REG">
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          %k2 = ktdf.create_token : !ktdf.token
          %k3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a0, %a1, %v0, %v1, %k0, %k1, %k2, %k3 :
              memref<32xf16, "L1">, memref<32xf16, "L1">, memref<32xf16, "SFU_REG">, memref<32xf16, "SFU_REG">,
              !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %x[%n] size [32] to %sx[0] size [32] : memref<192xf16, "DDR">, memref<32xf16, "L1">
        }
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          ktdf.data_transfer from %sx[0] size [32] to %vx[0] size [32] : memref<32xf16, "L1">, memref<32xf16, "SFU_REG">
        }
        ktdf.stage depends_in(%t1) depends_out(%t2) {
          linalg.sub ins(%vx, %vx : memref<32xf16, "SFU_REG">, memref<32xf16, "SFU_REG">) outs(%vz : memref<32xf16, "SFU_REG">)
        }
        ktdf.stage depends_in(%t2) depends_out(%t3) {
          ktdf.data_transfer from %vz[0] size [32] to %sz[0] size [32] : memref<32xf16, "SFU_REG">, memref<32xf16, "L1">
        }
        ktdf.stage depends_in(%t3) depends_out(none) {
          ktdf.data_transfer from %sz[0] size [32] to %z[%n] size [32] : memref<32xf16, "L1">, memref<192xf16, "DDR">
        }
      }
    }
    return
  }
}
