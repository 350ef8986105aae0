// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --device=sample --ktdflowering-to-dfir | filecheck %s

// One kind, two cores: one program unit over both MNILU units. The kernel's index argument
// is a run input, so the pass numbers it (-1) at the kernel's entry; that declaration is
// work, so the program unit holds a copy. The compute tile id used inside becomes a lookup
// of the unit's core (the constant per core), and the multiplication by 4 folds into it.
// The single-trip loop disappears and the transfer fits one 64-lane vector.

// CHECK-LABEL: func.func @one_kind(
// CHECK-SAME:      %[[IN:.*]]: index, %[[BUF:.*]]: memref<8x64xf16, "DDR">) attributes {grid = [2]} {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
// CHECK:         %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnilu", type = "mnilu"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[U0]], %[[U1]]) : {
// CHECK-NEXT:      symbol.create_id %[[IN]] {symbol_id = -1 : si64} : index
// CHECK:           %[[MAP:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C0]]], [%[[U1]] -> %[[C4]]]):index
// CHECK-NEXT:      %[[ROW:.*]] = uniform.query_map(map:%[[MAP]], key:%[[IT]]) : index
// CHECK:           %[[L1:.*]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:      agen.composite_load_and_store src:%[[BUF]][%[[ROW]], %[[C0]]] dst:%[[L1]][%[[C0]], %[[C0]]]
// CHECK-NEXT:       time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:       {load_order = #{{.*}}, load_set = #[[ROWSET:.*]], load_time_addr_map = #{{.*}}, store_order = #{{.*}}, store_set = #[[ROWSET]], store_time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:      {
// CHECK:             agen.yield
// CHECK:           } : memref<8x64xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK:         }
// CHECK:         return
// CHECK-NOT:     ktdf_lowering
func.func @one_kind(%in: index, %buf: memref<8x64xf16, "DDR">) attributes {grid = [2]} {
  %u0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnilu", type = "mnilu"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tile = ktdp.get_compute_tile_id : index
  %row = arith.muli %tile, %c4 : index
  scf.for %i = %c0 to %c1 step %c1 {
    ktdf_lowering.execute_on %q {
      %l1 = memref.alloc() : memref<1x64xf16, "L1">
      %t = ktdf.create_token : !ktdf.token
      ktdf_lowering.execute_on %q {
        ktdf.data_transfer from %buf[%row, %c0] size [1, 64] to %l1[%c0, %c0] size [1, 64] : memref<8x64xf16, "DDR">, memref<1x64xf16, "L1">
      }
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Two kinds in one pipeline: one program unit per kind, in the order the execute_ons are
// first met walking innermost first (the L1LU stage is nested deeper, so it comes first).
// Each unit keeps only its own stages; the outer execute_on lists both kinds and is
// unwrapped in both. The signal between the two kinds stays in both programs.

// CHECK-LABEL: func.func @two_kinds(
// CHECK:         %[[A0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
// CHECK:         %[[B0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%[[B0]]) : {
// CHECK-NOT:       "test.load"
// CHECK:           scf.for
// CHECK-NEXT:        "test.read"() : () -> ()
// CHECK:           }
// CHECK:           dataflow.sync_send
// CHECK:           dataflow.sync_recv
// CHECK:         }
// CHECK-NEXT:    dataflow.program_unit iter_arg : %{{.*}} -> (%[[A0]]) : {
// CHECK-NEXT:      symbol.create_id
// CHECK-NEXT:      "test.load"() : () -> ()
// CHECK:           dataflow.sync_send
// CHECK:           dataflow.sync_recv
// CHECK-NOT:       "test.read"
// CHECK:         }
// CHECK:         return
func.func @two_kinds(%n: index) attributes {grid = [1]} {
  %a0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %b0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %ma = uniform.def_immutable_mapping([%k0 -> %a0]):index
  %qa = uniform.query_map(map:%ma, key:%tid) : index
  %mb = uniform.def_immutable_mapping([%k0 -> %b0]):index
  %qb = uniform.query_map(map:%mb, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf_lowering.execute_on %qa, %qb {
    ktdf_lowering.execute_on %qb {
      scf.for %i = %c0 to %n step %c1 {
        ktdf_lowering.execute_on %qb {
          "test.read"() : () -> ()
        }
      }
    }
    ktdf_lowering.execute_on %qa {
      "test.load"() : () -> ()
    }
    ktdf_lowering.signal %qa, %qb
  }
  return
}

// -----

// Units can also be given as program units already (a second run over DataflowIR): every
// new program unit holds a copy of the old ones, as upstream does.

// CHECK-LABEL: func.func @rerun(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%[[U:.*]]) : {
// CHECK-NEXT:      dataflow.program_unit iter_arg : %{{.*}} -> (%[[U]]) : {
// CHECK-NEXT:        "test.work"() : () -> ()
// CHECK:           }
// CHECK:         }
// CHECK:         return
func.func @rerun() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  dataflow.program_unit iter_arg : %it -> (%u) : {
    "test.work"() : () -> ()
  }
  return
}

// -----

// A function without work (only the prelude) is left alone.

// CHECK-LABEL: func.func @no_work() attributes {grid = [1]} {
// CHECK-NEXT:    %{{.*}} = dataflow.get_unit
// CHECK:         return
func.func @no_work() attributes {grid = [1]} {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  return
}
