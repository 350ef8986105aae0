// RUN: dfsched-opt %s -split-input-file > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -split-input-file > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -split-input-file --print-op-generic | dfsched-opt -split-input-file | filecheck %s

// The DataflowIR shapes the scheduler produces, written by hand: SPMD program units that
// find their peer through a uniform map keyed by their iter_arg, and symbolic start
// addresses.

// Two load units each stream one row to their core's SFU; the SFUs receive it. Both
// sides then hand-shake with sync_send / sync_recv.
// CHECK-LABEL: func.func @row_to_sfu
// CHECK:         %[[LU0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
// CHECK-NEXT:    %[[LU1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
// CHECK-NEXT:    %[[SF0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu", type = "sfu"} : index
// CHECK-NEXT:    %[[SF1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu", type = "sfu"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[ME:.*]] -> (%[[LU0]], %[[LU1]]) : {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloc() : memref<32xbf16, "L1">
// CHECK-NEXT:      %[[ROW:.*]] = agen.vector_load %[[BUF]][%[[C0:.*]]] {load_order = #{{.*}}, load_set = #{{.*}}} : memref<32xbf16, "L1">, vector<32xbf16>
// CHECK-NEXT:      %[[PEERS:.*]] = uniform.def_immutable_mapping([%[[LU0]] -> %[[SF0]]], [%[[LU1]] -> %[[SF1]]]):index
// CHECK-NEXT:      %[[PEER:.*]] = uniform.query_map(map:%[[PEERS]], key:%[[ME]]) : index
// CHECK-NEXT:      dataflow.send %[[PEER]], %[[ROW]] : vector<32xbf16>
// CHECK-NEXT:      dataflow.sync_send %[[PEER]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[PEER]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[ME2:.*]] -> (%[[SF0]], %[[SF1]]) : {
// CHECK-NEXT:      %[[BACK:.*]] = uniform.def_immutable_mapping([%[[SF0]] -> %[[LU0]]], [%[[SF1]] -> %[[LU1]]]):index
// CHECK-NEXT:      %[[FROM:.*]] = uniform.query_map(map:%[[BACK]], key:%[[ME2]]) : index
// CHECK-NEXT:      %{{.*}} = dataflow.receive %[[FROM]] : vector<32xbf16>
// CHECK-NEXT:      dataflow.sync_send %[[FROM]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[FROM]] : index
// CHECK-NEXT:    }
func.func @row_to_sfu() {
  %c0 = arith.constant 0 : index
  %lu0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
  %lu1 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
  %sf0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu", type = "sfu"} : index
  %sf1 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu", type = "sfu"} : index
  dataflow.program_unit iter_arg : %self -> (%lu0, %lu1) : {
    %buf = memref.alloc() : memref<32xbf16, "L1">
    %row = agen.vector_load %buf[%c0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>} : memref<32xbf16, "L1">, vector<32xbf16>
    %peers = uniform.def_immutable_mapping([%lu0 -> %sf0], [%lu1 -> %sf1]):index
    %peer = uniform.query_map(map:%peers, key:%self) : index
    dataflow.send %peer, %row : vector<32xbf16>
    dataflow.sync_send %peer {wait_immediately_for_async_transfers = true} : index
    dataflow.sync_recv %peer : index
  }
  dataflow.program_unit iter_arg : %self -> (%sf0, %sf1) : {
    %back = uniform.def_immutable_mapping([%sf0 -> %lu0], [%sf1 -> %lu1]):index
    %from = uniform.query_map(map:%back, key:%self) : index
    %row = dataflow.receive %from : vector<32xbf16>
    dataflow.sync_send %from {wait_immediately_for_async_transfers = true} : index
    dataflow.sync_recv %from : index
  }
  return
}

// -----

// A program function receives a tensor base address (kernel argument 0, symbol -1) and
// declares its word address as the derived symbol -4; inside the program the placeholder
// create_symbol stands for the whole start address of the DDR view, and each memory unit
// gets its own row offset from a uniform map.
// CHECK-LABEL: func.func @symbolic_view
// CHECK-SAME:    (%[[BASE:[^:]*]]: index)
// CHECK:         %[[DDR:.*]] = dataflow.get_unit {name = "ddr", type = "ddr"} : index
// CHECK-NEXT:    %[[MN0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
// CHECK-NEXT:    %[[MN1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-mnilu", type = "mnilu"} : index
// CHECK-NEXT:    symbol.create_id %[[BASE]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    %[[W:.*]] = arith.divsi %[[BASE]], %{{.*}} : index
// CHECK-NEXT:    symbol.create_id %[[W]] {symbol_id = -4 : si64} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[ME:.*]] -> (%[[MN0]], %[[MN1]]) : {
// CHECK-NEXT:      %[[SYM:.*]] = symbol.create_symbol {SymbolId = -4 : i64} : index
// CHECK-NEXT:      %{{.*}} = dataflow.get_logical_memory_view %[[DDR]], %[[SYM]] {layout_map = #{{.*}}} : index, index, memref<48x32xbf16>
// CHECK-NEXT:      %[[OFFS:.*]] = uniform.def_immutable_mapping([%[[MN0]] -> %{{.*}}], [%[[MN1]] -> %{{.*}}]):index
// CHECK-NEXT:      %{{.*}} = uniform.query_map(map:%[[OFFS]], key:%[[ME]]) : index
// CHECK-NEXT:    }
func.func @symbolic_view(%base: index) {
  %c0 = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %ddr = dataflow.get_unit {name = "ddr", type = "ddr"} : index
  %mn0 = dataflow.get_unit {core = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
  %mn1 = dataflow.get_unit {core = 1 : i32, name = "C1-mnilu", type = "mnilu"} : index
  symbol.create_id %base {symbol_id = -1 : si64} : index
  %words = arith.divsi %base, %c32 : index
  symbol.create_id %words {symbol_id = -4 : si64} : index
  dataflow.program_unit iter_arg : %self -> (%mn0, %mn1) : {
    %sym = symbol.create_symbol {SymbolId = -4 : i64} : index
    %view = dataflow.get_logical_memory_view %ddr, %sym {layout_map = affine_map<(d0, d1) -> (d0 * 32 + d1)>} : index, index, memref<48x32xbf16>
    %offs = uniform.def_immutable_mapping([%mn0 -> %c0], [%mn1 -> %c24]):index
    %row = uniform.query_map(map:%offs, key:%self) : index
  }
  return
}
