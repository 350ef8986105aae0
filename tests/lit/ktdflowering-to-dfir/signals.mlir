// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --device=sample --ktdflowering-to-dfir | filecheck %s

// A signal between two kinds on three cores: each side maps its own unit to the peer on
// the same core and sends, then receives. The signal inside the other kind's stage is
// dropped with that stage.

// CHECK-LABEL: func.func @per_core(
// CHECK:         %[[A0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-DMA"
// CHECK:         %[[A1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-DMA"
// CHECK:         %[[A2:.*]] = dataflow.get_unit {core = 2 : i32, name = "C2-DMA"
// CHECK:         %[[B0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-LD"
// CHECK:         %[[B1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-LD"
// CHECK:         %[[B2:.*]] = dataflow.get_unit {core = 2 : i32, name = "C2-LD"
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[IA:.*]] -> (%[[A0]], %[[A1]], %[[A2]]) : {
// CHECK-NEXT:      "test.dma"() : () -> ()
// CHECK:           %[[MA:.*]] = uniform.def_immutable_mapping([%[[A0]] -> %[[B0]]], [%[[A1]] -> %[[B1]]], [%[[A2]] -> %[[B2]]]):index
// CHECK-NEXT:      %[[PA:.*]] = uniform.query_map(map:%[[MA]], key:%[[IA]]) : index
// CHECK-NEXT:      dataflow.sync_send %[[PA]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[PA]] : index
// CHECK:         }
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[IB:.*]] -> (%[[B0]], %[[B1]], %[[B2]]) : {
// CHECK:           %[[MB:.*]] = uniform.def_immutable_mapping([%[[B0]] -> %[[A0]]], [%[[B1]] -> %[[A1]]], [%[[B2]] -> %[[A2]]]):index
// CHECK-NEXT:      %[[PB:.*]] = uniform.query_map(map:%[[MB]], key:%[[IB]]) : index
// CHECK-NEXT:      dataflow.sync_send %[[PB]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[PB]] : index
// CHECK-NEXT:      "test.load"() : () -> ()
// CHECK:         }
func.func @per_core() attributes {grid = [3]} {
  %a0 = dataflow.get_unit {core = 0 : i32, name = "C0-DMA", type = "DMA"} : index
  %a1 = dataflow.get_unit {core = 1 : i32, name = "C1-DMA", type = "DMA"} : index
  %a2 = dataflow.get_unit {core = 2 : i32, name = "C2-DMA", type = "DMA"} : index
  %b0 = dataflow.get_unit {core = 0 : i32, name = "C0-LD", type = "LD"} : index
  %b1 = dataflow.get_unit {core = 1 : i32, name = "C1-LD", type = "LD"} : index
  %b2 = dataflow.get_unit {core = 2 : i32, name = "C2-LD", type = "LD"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %k2 = arith.constant 2 : index
  %ma = uniform.def_immutable_mapping([%k0 -> %a0], [%k1 -> %a1], [%k2 -> %a2]):index
  %qa = uniform.query_map(map:%ma, key:%tid) : index
  %mb = uniform.def_immutable_mapping([%k0 -> %b0], [%k1 -> %b1], [%k2 -> %b2]):index
  %qb = uniform.query_map(map:%mb, key:%tid) : index
  ktdf_lowering.execute_on %qa, %qb {
    ktdf_lowering.execute_on %qa {
      "test.dma"() : () -> ()
    }
    ktdf_lowering.signal %qa, %qb
    ktdf_lowering.execute_on %qb {
      "test.load"() : () -> ()
    }
  }
  return
}

// -----

// Corelets: both kinds have a unit per corelet of the one core, and the signal lists each
// corelet's lookup. Each corelet pairs with the peer of its own corelet, in one map per
// peer kind. A peer kind without corelets (one unit per core, corelet 0) falls back to
// matching cores, one map per operand.

// CHECK-LABEL: func.func @corelets(
// CHECK:         %[[L0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0"
// CHECK:         %[[L1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1"
// CHECK:         %[[S0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1SU-CL0"
// CHECK:         %[[S1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1SU-CL1"
// CHECK:         %[[M:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-MNILU"
// CHECK:         dataflow.program_unit iter_arg : %[[IL:.*]] -> (%[[L0]], %[[L1]]) : {
// CHECK:           %[[PEER:.*]] = uniform.def_immutable_mapping([%[[L0]] -> %[[S0]]], [%[[L1]] -> %[[S1]]]):index
// CHECK-NEXT:      %[[Q:.*]] = uniform.query_map(map:%[[PEER]], key:%[[IL]]) : index
// CHECK:           %[[DMA:.*]] = uniform.def_immutable_mapping([%[[L0]] -> %[[M]]], [%[[L1]] -> %[[M]]]):index
// CHECK-NEXT:      %[[QD:.*]] = uniform.query_map(map:%[[DMA]], key:%[[IL]]) : index
// CHECK-NEXT:      dataflow.sync_send %[[Q]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_send %[[QD]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[Q]] : index
// CHECK-NEXT:      dataflow.sync_recv %[[QD]] : index
// CHECK:         }
func.func @corelets() attributes {grid = [1]} {
  %l0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0", type = "L1LU"} : index
  %l1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1", type = "L1LU"} : index
  %s0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1SU-CL0", type = "L1SU"} : index
  %s1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1SU-CL1", type = "L1SU"} : index
  %m0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %ml0 = uniform.def_immutable_mapping([%k0 -> %l0]):index
  %ql0 = uniform.query_map(map:%ml0, key:%tid) : index
  %ml1 = uniform.def_immutable_mapping([%k0 -> %l1]):index
  %ql1 = uniform.query_map(map:%ml1, key:%tid) : index
  %ms0 = uniform.def_immutable_mapping([%k0 -> %s0]):index
  %qs0 = uniform.query_map(map:%ms0, key:%tid) : index
  %ms1 = uniform.def_immutable_mapping([%k0 -> %s1]):index
  %qs1 = uniform.query_map(map:%ms1, key:%tid) : index
  %mm = uniform.def_immutable_mapping([%k0 -> %m0]):index
  %qm = uniform.query_map(map:%mm, key:%tid) : index
  ktdf_lowering.execute_on %ql0, %ql1 {
    ktdf_lowering.signal %ql0, %ql1, %qs0, %qs1, %qm
  }
  ktdf_lowering.execute_on %qs0, %qs1 {
    "test.store"() : () -> ()
  }
  ktdf_lowering.execute_on %qm {
    "test.dma"() : () -> ()
  }
  return
}
