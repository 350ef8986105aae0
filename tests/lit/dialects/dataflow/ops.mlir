// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every dataflow op in its custom syntax; printing is a fixpoint and the generic form
// parses back to the same IR.

// CHECK-LABEL: func.func @units
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu-CL0", type = "sfu"} : index, index
// CHECK-NEXT:    %[[B:.*]] = dataflow.get_unit {name = "ddr", type = "ddr"} : index
// CHECK-NEXT:    %[[L:.*]] = dataflow.get_local_unit %[[C0]] {name = "L1-LU"} : index
// CHECK-NEXT:    %[[G:.*]] = dataflow.create_group(%[[B]], %[[L]] : index, index) : index
// CHECK-NEXT:    dataflow.create_group() : index
// CHECK-NEXT:    dataflow.create_multicast_group(%[[B]] -> (%[[L]], %[[G]])) {count = 0 : i32, group_id = 1 : i32, num_consumers = 2 : i32} : index
// CHECK-NEXT:    dataflow.create_multicast_group(%[[B]] -> ()) {count = 3 : i32, group_id = 2 : i32, num_consumers = 4 : i32} : index
// GENERIC-LABEL: sym_name = "units"
// GENERIC:         "dataflow.get_unit"() <{name = "C1-sfu-CL0", type = "sfu"}> {core = 1 : i32, corelet = 0 : i32} : () -> (index, index)
// GENERIC:         "dataflow.create_multicast_group"(%{{.*}}, %{{.*}}, %{{.*}}) <{count = 0 : i32, group_id = 1 : i32, num_consumers = 2 : i32}> : (index, index, index) -> index
func.func @units() {
  %c0 = arith.constant 0 : index
  %two:2 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu-CL0", type = "sfu"} : index, index
  %b = dataflow.get_unit {type = "ddr", name = "ddr"} : index
  %l = dataflow.get_local_unit %c0 {name = "L1-LU"} : index
  %g = dataflow.create_group (%b, %l : index, index) : index
  %e = dataflow.create_group() : index
  %m = dataflow.create_multicast_group (%b -> (%l, %g)) {num_consumers = 2 : i32, group_id = 1 : i32, count = 0 : i32} : index
  %n = dataflow.create_multicast_group(%b -> ()) {count = 3 : i32, group_id = 2 : i32, num_consumers = 4 : i32} : index
  return
}

// The two program_unit forms: units listed plainly, or bound one by one to an iter_arg
// (the form the scheduler emits). `:` comes before the body; an empty body prints as `{ }`
// on two lines, and the implicit dataflow.return is not printed.
// CHECK-LABEL: func.func @programs
// CHECK-SAME:    (%[[V:[^:]*]]: vector<64xf16>, %[[CV:[^:]*]]: !dataflow.custom_vector<64x!dataflow.custom<mxfp4>>, %[[MEM:[^:]*]]: memref<4xi8>)
// CHECK:         %[[U0:.*]] = dataflow.get_unit {name = "C0-sfu", type = "sfu"} : index
// CHECK-NEXT:    %[[U1:.*]] = dataflow.get_unit {name = "C1-sfu", type = "sfu"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[ME:.*]] -> (%[[U0]], %[[U1]]) {precision = "f16"} : {
// CHECK-NEXT:      dataflow.send %[[U1]], %[[V]] {dbgName = "s", dir = #dataflow<direction Clockwise>} : vector<64xf16>
// CHECK-NEXT:      dataflow.send %[[ME]], %[[CV]] : !dataflow.custom_vector<64x!dataflow.custom<mxfp4>>
// CHECK-NEXT:      %{{.*}} = dataflow.receive %[[ME]] {dbgName = "r"} : vector<64xf16>
// CHECK-NEXT:      dataflow.sync_send %[[ME]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:      dataflow.sync_recv %[[ME]] {dbgName = "wait"} : index
// CHECK-NEXT:      dataflow.implicit_sync_on_streaming_buffer %[[MEM]], %[[ME]], %{{.*}} : memref<4xi8>, index, index
// CHECK-NEXT:      dataflow.opaque {func_name = "reciprocal", parameter_dictionary = {unroll_factor = "2"}, read_only_register_dictionary = {c0 = "R2"}, read_write_register_dictionary = {p0 = "R0", p1 = "R1"}}
// CHECK-NEXT:    }
// CHECK-NEXT:    dataflow.program_unit %[[U0]], %[[U1]] : {
// CHECK-NEXT:    }
// CHECK-NEXT:    dataflow.program_unit iter_arg : %{{.*}} -> (%[[U0]]) : {
// CHECK-NEXT:      "dataflow.return"() {note = "kept"} : () -> ()
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "programs"
// GENERIC:         "dataflow.program_unit"(%{{.*}}, %{{.*}}) <{precision = "f16"}> ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: index):
// GENERIC:           "dataflow.return"() : () -> ()
func.func @programs(%v: vector<64xf16>, %cv: !dataflow.custom_vector<64x!dataflow.custom<mxfp4>>, %mem: memref<4xi8>) {
  %c4 = arith.constant 4 : index
  %u0 = dataflow.get_unit {name = "C0-sfu", type = "sfu"} : index
  %u1 = dataflow.get_unit {name = "C1-sfu", type = "sfu"} : index
  dataflow.program_unit iter_arg : %me -> (%u0, %u1) {precision = "f16"} : {
    dataflow.send %u1, %v {dir = #dataflow<direction Clockwise>, dbgName = "s"} : vector<64xf16>
    dataflow.send %me, %cv : !dataflow.custom_vector<64x!dataflow.custom<mxfp4>>
    %r = dataflow.receive %me {dbgName = "r"} : vector<64xf16>
    dataflow.sync_send %me {wait_immediately_for_async_transfers = true} : index
    dataflow.sync_recv %me {dbgName = "wait"} : index
    dataflow.implicit_sync_on_streaming_buffer %mem, %me, %c4 : memref<4xi8>, index, index
    dataflow.opaque {func_name = "reciprocal", read_write_register_dictionary = {p0 = "R0", p1 = "R1"}, read_only_register_dictionary = {c0 = "R2"}, parameter_dictionary = {unroll_factor = "2"}}
  }
  dataflow.program_unit %u0, %u1 :  {
    "dataflow.return"() : () -> ()
  }
  dataflow.program_unit iter_arg : %x -> (%u0) : {
    "dataflow.return"() {note = "kept"} : () -> ()
  }
  return
}

// Memory views: a logical view (addresses in elements) and a paged view whose pages
// are hyper-rectangular index sets starting at constant addresses.
// CHECK-LABEL: func.func @views
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[U:.*]] = dataflow.get_unit {name = "hbm", type = "hbm"} : index
// CHECK-NEXT:    dataflow.get_logical_memory_view %[[U]], %[[C128]] {layout_map = #{{.*}}} : index, index, memref<12x64xf16>
// CHECK-NEXT:    dataflow.get_paged_logical_memory_view %[[U]], %[[C0]] {layout_map = #{{.*}}}
// CHECK-NEXT:      {segments =
// CHECK-NEXT:        page0: (idx_set = #{{.*}}, start_addr = %[[C0]]),
// CHECK-NEXT:        page1: (idx_set = #{{.*}}, start_addr = %[[C128]])} : index, index, memref<4x64xf16>
// GENERIC-LABEL: sym_name = "views"
// GENERIC:         "dataflow.get_paged_logical_memory_view"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{idx_sets = [#{{.*}}, #{{.*}}], layout_map = #{{.*}}}> : (index, index, index, index) -> memref<4x64xf16>
func.func @views() {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %u = dataflow.get_unit {name = "hbm", type = "hbm"} : index
  %v = dataflow.get_logical_memory_view %u, %c128 {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<12x64xf16>
  %p = dataflow.get_paged_logical_memory_view %u, %c0 {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>}
    {segments =
      page0: (idx_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 == 0)>, start_addr = %c0),
      page1: (idx_set = affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 3 >= 0, d1 == 0)>, start_addr = %c128)}
    : index, index, memref<4x64xf16>
  return
}

// Types: MX element types have a short `custom<...>` spelling (also reachable from the
// width form); other widths keep the width form.
// CHECK-LABEL: func.func @types
// CHECK-SAME:    : !dataflow.custom<mxfp4>,
// CHECK-SAME:    : !dataflow.custom<mxfp8>,
// CHECK-SAME:    : !dataflow.custom<mxint4>,
// CHECK-SAME:    : !dataflow.custom<mxfp8>,
// CHECK-SAME:    : !dataflow.mxfp<6>,
// CHECK-SAME:    : !dataflow.mxint<2>,
// CHECK-SAME:    : !dataflow.custom_vector<16x!dataflow.custom<mxint4>>,
// CHECK-SAME:    : !dataflow.custom_vector<8xf16>)
func.func @types(%a: !dataflow.custom<mxfp4>, %b: !dataflow.custom<mxfp8>, %c: !dataflow.custom<mxint4>,
                 %d: !dataflow.mxfp<8>, %e: !dataflow.mxfp<6>, %f: !dataflow.mxint<2>,
                 %g: !dataflow.custom_vector<16x!dataflow.custom<mxint4>>, %h: !dataflow.custom_vector<8xf16>) {
  return
}
