// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The agen ops the scheduler emits: vector loads/stores with affine subscripts (the
// memref and its subscript touch), and the composite load-and-store whose region is
// printed with its terminator, after the attribute dictionary.

// CHECK-LABEL: func.func @vector_access
// CHECK-SAME:    (%[[M:[^:]*]]: memref<4x64xf16>, %[[V:[^:]*]]: vector<64xf16>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[S:[^:]*]]: index)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    agen.vector_load %[[M]][%[[C0]], %[[C0]]] {load_order = #{{.*}}, load_set = #{{.*}}} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.vector_load %[[M]][%[[I]] + 1, %[[J]] * 2 - %[[I]]] multicast_info = %[[C0]] {dbgName = "ld", load_order = #{{.*}}, load_set = #{{.*}}} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.vector_load %[[M]][symbol(%[[S]]), 0] {load_order = #{{.*}}, load_set = #{{.*}}} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.vector_store %[[V]], %[[M]][%[[I]], %[[J]] floordiv 4] {store_order = #{{.*}}, store_set = #{{.*}}} : memref<4x64xf16>, vector<64xf16>
// CHECK-NEXT:    agen.vector_store %[[V]], %[[M]][%[[I]] mod 4, 63] {dbgName = "st", store_order = #{{.*}}, store_set = #{{.*}}} : memref<4x64xf16>, vector<64xf16>
// The subscript map is a property with its operands: one per distinct name, dims first.
// GENERIC-LABEL: sym_name = "vector_access"
// GENERIC:         "agen.vector_load"(%{{.*}}, %{{.*}}) <{affine_map = #{{.*}}, load_order = #{{.*}}, load_set = #{{.*}}, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<4x64xf16>, index) -> vector<64xf16>
// GENERIC:         "agen.vector_load"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{affine_map = #{{.*}}, dbgName = "ld", load_order = #{{.*}}, load_set = #{{.*}}, operandSegmentSizes = array<i32: 1, 2, 1>}>
// GENERIC:         "agen.vector_load"(%{{.*}}, %{{.*}}) <{affine_map = #{{.*}}, load_order = #{{.*}}, load_set = #{{.*}}, operandSegmentSizes = array<i32: 1, 1, 0>}>
// GENERIC:         "agen.vector_store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{affine_map = #{{.*}}, store_order = #{{.*}}, store_set = #{{.*}}}> : (vector<64xf16>, memref<4x64xf16>, index, index) -> ()
func.func @vector_access(%m: memref<4x64xf16>, %v: vector<64xf16>, %i: index, %j: index, %s: index) {
  %c0 = arith.constant 0 : index
  %0 = agen.vector_load %m[%c0, %c0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  %1 = agen.vector_load %m[1 + %i, 2 * %j - %i] multicast_info = %c0 {dbgName = "ld", load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  %2 = agen.vector_load %m[symbol(%s), 0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  agen.vector_store %v, %m[%i, %j floordiv 4] {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  agen.vector_store %v, %m[%i mod 4, 63] {dbgName = "st", store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : memref<4x64xf16>, vector<64xf16>
  return
}

// CHECK-LABEL: func.func @composite
// CHECK-SAME:    (%[[A:[^:]*]]: memref<8x64xf16>, %[[B:[^:]*]]: memref<8x64xf16>, %[[T:[^:]*]]: index)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    agen.composite_load_and_store src:%[[A]][%[[C0]], 0] dst:%[[B]][%[[C0]], 0]
// CHECK-NEXT:     time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:     {load_order = #{{.*}}, load_set = #{{.*}}, load_time_addr_map = #{{.*}}, store_order = #{{.*}}, store_set = #{{.*}}, store_time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<8x64xf16>, memref<8x64xf16>
// CHECK-NEXT:    agen.composite_load_and_store src:%[[A]][%[[T]], 0] dst:%[[B]][-%[[T]] + 7, 0]
// CHECK-NEXT:     time_symbols(%[[T]]), load_iv(%[[IV:.*]]:vector<64xf16>), multicast_info = %[[C0]]
// CHECK-NEXT:     {dbgName = "dma", dir = #agen<direction BothWays>, load_order = #{{.*}}, load_set = #{{.*}}, load_time_addr_map = #{{.*}}, store_order = #{{.*}}, store_set = #{{.*}}, store_time_addr_map = #{{.*}}, time_order = #{{.*}}, time_set = #{{.*}}}
// CHECK-NEXT:    {
// CHECK-NEXT:      %[[U:.*]] = dataflow.get_unit {name = "C0-sfu", type = "sfu"} : index
// CHECK-NEXT:      dataflow.send %[[U]], %[[IV]] : vector<64xf16>
// CHECK-NEXT:      agen.yield
// CHECK-NEXT:    } : memref<8x64xf16>, memref<8x64xf16>
// GENERIC-LABEL: sym_name = "composite"
// GENERIC:         "agen.composite_load_and_store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>{{.*}}}> ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: vector<64xf16>):
// GENERIC-NEXT:      "agen.yield"() : () -> ()
func.func @composite(%a: memref<8x64xf16>, %b: memref<8x64xf16>, %t: index) {
  %c0 = arith.constant 0 : index
  agen.composite_load_and_store src:%a[%c0, 0] dst:%b[%c0, 0]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0, d1) -> (d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, load_time_addr_map = affine_map<() -> (0, 0)>, store_order = affine_map<(d0, d1) -> (d1)>, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, store_time_addr_map = affine_map<() -> (0, 0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<8x64xf16>, memref<8x64xf16>
  agen.composite_load_and_store src:%a[%t, 0] dst:%b[7 - %t, 0]
   time_symbols(%t), load_iv(%row:vector<64xf16>), multicast_info = %c0
   {dbgName = "dma", dir = #agen<direction BothWays>, load_order = affine_map<(d0, d1) -> (d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, load_time_addr_map = affine_map<(t0) -> (t0, 0)>, store_order = affine_map<(d0, d1) -> (d1)>, store_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, store_time_addr_map = affine_map<(t0) -> (-t0, 0)>, time_order = affine_map<(t0) -> (t0)>, time_set = affine_set<(t0)[s0] : (t0 >= 0, s0 - t0 - 1 >= 0)>}
  {
    %u = dataflow.get_unit {name = "C0-sfu", type = "sfu"} : index
    dataflow.send %u, %row : vector<64xf16>
    agen.yield
  } : memref<8x64xf16>, memref<8x64xf16>
  return
}
