// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s

// agen ops no scheduler pass creates, in the layouts their hand-written printers use
// (line breaks included): composite load / store, indirect accesses, interleaving,
// transfer masks and symbolic accesses.

// CHECK-LABEL: func.func @composite_one_side
// CHECK-SAME:    (%[[A:[^:]*]]: memref<64xf16>, %[[V:[^:]*]]: vector<64xf16>, %[[T:[^:]*]]: index)
// CHECK:         agen.composite_load %[[A]][%[[C0:.*]]]
// CHECK-NEXT:     time_symbols(%[[T]])(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_order = #{{.*}}, load_set = #{{.*}}, time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<64xf16>
// CHECK-NEXT:    agen.composite_store %[[A]][%[[C0]]]
// CHECK-NEXT:     time_symbols(%[[T]])
// CHECK-NEXT:     {store_order = #{{.*}}, store_set = #{{.*}}, time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<64xf16>
// CHECK-NEXT:    agen.composite_store %[[A]][%[[C0]]]
// CHECK-NEXT:    input_vector=%[[V]] time_symbols(%[[T]])
// CHECK-NEXT:     {time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:     : memref<64xf16> , vector<64xf16>
func.func @composite_one_side(%a: memref<64xf16>, %v: vector<64xf16>, %t: index) {
  %c0 = arith.constant 0 : index
  agen.composite_load %a[%c0]
   time_symbols(%t)(%iv : vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<(t0) -> (t0 * 64)>, time_order = affine_map<(t0) -> (t0)>, time_set = affine_set<(t0)[s0] : (t0 >= 0, s0 - t0 - 1 >= 0)>}
  {
  } : memref<64xf16>
  agen.composite_store %a[%c0] time_symbols(%t)
   {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<(t0) -> (t0 * 64)>, time_order = affine_map<(t0) -> (t0)>, time_set = affine_set<(t0)[s0] : (t0 >= 0, s0 - t0 - 1 >= 0)>}
  {
  } : memref<64xf16>
  agen.composite_store %a[%c0] input_vector = %v time_symbols(%t)
   {time_addr_map = affine_map<(t0) -> (t0 * 64)>, time_order = affine_map<(t0) -> (t0)>, time_set = affine_set<(t0)[s0] : (t0 >= 0, s0 - t0 - 1 >= 0)>}
   : memref<64xf16>, vector<64xf16>
  return
}

// CHECK-LABEL: func.func @indirect
// CHECK-SAME:    (%[[IDX:[^:]*]]: memref<64xindex>, %[[A:[^:]*]]: memref<64xf16>, %[[B:[^:]*]]: memref<64xf16>, %[[V:[^:]*]]: vector<64xf16>)
// CHECK:         agen.composite_indirect_load_and_store indirect_src:%[[IDX]][%[[C0:.*]]] direct_src:%[[A]][%[[C0]]] direct_dst:%[[B]][%[[C0]]]
// CHECK-NEXT:     multicast_info = %[[C0]] time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_direct_time_addr_map = #{{.*}}, load_order = #{{.*}}, load_set = #{{.*}}, store_direct_time_addr_map = #{{.*}}, store_order = #{{.*}}, store_set = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<64xindex>, memref<64xf16>, memref<64xf16>
// CHECK-NEXT:    agen.composite_indirect_load indirect:%[[IDX]][%[[C0]]] direct:%[[A]][%[[C0]]] time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_order = #{{.*}}, load_set = #{{.*}}, time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK:         } : memref<64xindex>, memref<64xf16>
// CHECK-NEXT:    agen.composite_indirect_store indirect:%[[IDX]][%[[C0]]] direct:%[[A]][%[[C0]]]
// CHECK-NEXT:     time_symbols()
// CHECK-NEXT:     {store_order = #{{.*}}, store_set = #{{.*}}, time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK:         } : memref<64xindex>, memref<64xf16>
// CHECK-NEXT:    %{{.*}} = agen.indirect_vector_load indirect:%[[IDX]][%[[C0]]] direct:%[[A]][%[[C0]]] multicast_info = %[[C0]]
// CHECK-NEXT:     {load_order = #{{.*}}, load_set = #{{.*}}}
// CHECK-NEXT:     : memref<64xindex>, memref<64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.indirect_vector_store %[[V]] indirect:%[[IDX]][%[[C0]]] direct:%[[A]][%[[C0]]]
// CHECK-NEXT:     multicast_info = %[[C0]]
// CHECK-NEXT:     {store_order = #{{.*}}, store_set = #{{.*}}}
// CHECK-NEXT:     : vector<64xf16>, memref<64xindex>, memref<64xf16>
func.func @indirect(%idx: memref<64xindex>, %a: memref<64xf16>, %b: memref<64xf16>, %v: vector<64xf16>) {
  %c0 = arith.constant 0 : index
  agen.composite_indirect_load_and_store indirect_src:%idx[%c0] direct_src:%a[%c0] direct_dst:%b[%c0]
   multicast_info = %c0 time_symbols(), load_iv(%iv : vector<64xf16>)
   {load_direct_time_addr_map = affine_map<() -> (0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, store_direct_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xindex>, memref<64xf16>, memref<64xf16>
  agen.composite_indirect_load indirect:%idx[%c0] direct:%a[%c0] time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xindex>, memref<64xf16>
  agen.composite_indirect_store indirect:%idx[%c0] direct:%a[%c0] time_symbols()
   {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xindex>, memref<64xf16>
  %0 = agen.indirect_vector_load indirect:%idx[%c0] direct:%a[%c0] multicast_info = %c0
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xindex>, memref<64xf16>, vector<64xf16>
  agen.indirect_vector_store %v indirect:%idx[%c0] direct:%a[%c0] multicast_info = %c0
   {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>} : vector<64xf16>, memref<64xindex>, memref<64xf16>
  return
}

// The interleave region holds composite ops and hides its terminator; the attribute
// dictionary (written `{}` when empty) sits directly against the region.
// CHECK-LABEL: func.func @interleave_and_masks
// CHECK:         agen.composite_memory_interleave {granularity = 64 : i32}{
// CHECK-NEXT:      agen.composite_load
// CHECK:           } : memref<64xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    agen.composite_memory_interleave {}{
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = agen.set_transfer_mask_state mask_value(%[[C0:.*]]) { num_slices = 8 : i32, slice_mask_map = "(A)(A)(A)(A)(A)(A|B)(1)(1)", maskA = "(unmasked = 6 : i32, masked = 2 : i32)", maskB = "(unmasked = 1 : i32, masked = 1 : i32)" } :  index , vector<64xf16>
// CHECK-NEXT:    %{{.*}} = agen.set_transfer_mask_state mask_value(%[[C0]]) { num_slices = 8 : i32, slice_mask_map = "(0)(0)(0)(0)(0)(0)(0)(0)", dbgName = "reset" } :  index , vector<64xf16>
func.func @interleave_and_masks(%a: memref<64xf16>, %t: index) {
  %c0 = arith.constant 0 : index
  agen.composite_memory_interleave {granularity = 64 : i32} {
    agen.composite_load %a[%c0]
     time_symbols(%t)(%iv:vector<64xf16>)
     {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, time_addr_map = affine_map<(t0) -> (t0 * 64)>, time_order = affine_map<(t0) -> (t0)>, time_set = affine_set<(t0)[s0] : (t0 >= 0, s0 - t0 - 1 >= 0)>}
    {
    } : memref<64xf16>
  }
  agen.composite_memory_interleave {} {
  }
  %0 = agen.set_transfer_mask_state mask_value(%c0) {num_slices = 8 : i32, slice_mask_map = "(A)(A)(A)(A)(A)(A|B)(1)(1)", maskB = "(unmasked = 1, masked = 1)", maskA = "(unmasked = 6 : i32, masked = 2 : i32)"} : index, vector<64xf16>
  %1 = agen.set_transfer_mask_state mask_value(%c0) {num_slices = 8 : i32, slice_mask_map = "(0)(0)(0)(0)(0)(0)(0)(0)", dbgName = "reset"} : index, vector<64xf16>
  return
}

// CHECK-LABEL: func.func @symbolic
// CHECK:         %[[VIEW:.*]] = dataflow.get_logical_memory_view
// CHECK-NEXT:    %{{.*}} = agen.symbolic_vector_load %[[VIEW]][indices:(%[[I:[^,]*]], %[[J:[^)]*]]), strides:(%[[S:[^,]*]], %[[S]])], multicast_info(%[[C0:.*]]) {load_order = #{{.*}}, load_set = #{{.*}}} : memref<128xf16>, vector<64xf16>
// CHECK-NEXT:    agen.symbolic_vector_store %{{.*}}, %[[VIEW]][indices:(%[[I]]), strides:(%[[S]])] {store_order = #{{.*}}, store_set = #{{.*}}} : memref<128xf16>, vector<64xf16>
func.func @symbolic(%v: vector<64xf16>, %i: index, %j: index, %s: index) {
  %c0 = arith.constant 0 : index
  %u = dataflow.get_unit {name = "C0-l1", type = "l1"} : index
  %view = dataflow.get_logical_memory_view %u, %c0 {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<128xf16>
  %0 = agen.symbolic_vector_load %view[indices:(%i, %j), strides:(%s, %s)], multicast_info(%c0) {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<128xf16>, vector<64xf16>
  agen.symbolic_vector_store %v, %view[indices:(%i), strides:(%s)] {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<128xf16>, vector<64xf16>
  return
}
