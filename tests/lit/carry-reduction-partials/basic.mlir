// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --carry-reduction-partials | filecheck %s

// Decision 102: a max reduction's step loads its 64 partials from PE_REG, combines the received
// column into them and stores them back. Nothing else in the loop reads them but the branch of
// the last step, so they travel in the loop's iter_args: loaded once before the loop, stored
// once, at the start of that branch, which then reads them as before.

// CHECK-LABEL: func.func @row_maxima(
// CHECK:         %[[INIT:.*]] = agen.vector_load %[[P:.*]][%c0] {{.*}} : memref<64xf16>, vector<64xf16>
// CHECK-NEXT:    %{{.*}} = scf.for %[[K:.*]] = %c0 to %c1024 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<64xf16>) {
// CHECK-NEXT:      %[[V:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      %[[M:.*]] = vectorchain.binary %[[ACC]], %[[V]] {binary_op = #vectorchain<binary_operator max>
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi eq, %[[K]], %c1023 : index
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK-NEXT:        agen.vector_store %[[M]], %[[P]][%c0]
// CHECK-NEXT:        %[[OUT:.*]] = agen.vector_load %[[P]][%c0]
// CHECK-NEXT:        "test.use"(%[[OUT]])
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[M]] : vector<64xf16>
#id = affine_map<(d0) -> (d0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @row_maxima(%from: index, %reg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1023 = arith.constant 1023 : index
  %c1024 = arith.constant 1024 : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    %p = dataflow.get_logical_memory_view %reg, %c0 {layout_map = #id} : index, index, memref<64xf16>
    scf.for %k = %c0 to %c1024 step %c1 {
      %v = dataflow.receive %from : vector<64xf16>
      %old = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
      %new = vectorchain.binary %old, %v {binary_op = #vectorchain<binary_operator max>, op_specific_map = #id} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      agen.vector_store %new, %p[%c0] {store_order = #id, store_set = #all} : memref<64xf16>, vector<64xf16>
      %last = arith.cmpi eq, %k, %c1023 : index
      scf.if %last {
        %out = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
        "test.use"(%out) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}

// -----

// No branch reads the partials in the loop: the one store moves after the loop and stores its
// result.

// CHECK-LABEL: func.func @store_after(
// CHECK:         %[[R:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<64xf16>) {
// CHECK-NOT:       agen.vector_store
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    agen.vector_store %[[R]], %{{.*}}[%c0]
#id = affine_map<(d0) -> (d0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @store_after(%from: index, %reg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    %p = dataflow.get_logical_memory_view %reg, %c0 {layout_map = #id} : index, index, memref<64xf16>
    scf.for %k = %c0 to %c1024 step %c1 {
      %v = dataflow.receive %from : vector<64xf16>
      %old = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
      %new = vectorchain.binary %old, %v {binary_op = #vectorchain<binary_operator add>, op_specific_map = #id} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      agen.vector_store %new, %p[%c0] {store_order = #id, store_set = #all} : memref<64xf16>, vector<64xf16>
    }
  }
  return
}

// -----

// Left alone: the branch that reads the partials is not the last step's (k == 5), so the memory
// must hold every step's partial.

// CHECK-LABEL: func.func @not_last_step(
// CHECK-NOT:     iter_args
// CHECK:         agen.vector_load
// CHECK:         agen.vector_store
#id = affine_map<(d0) -> (d0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @not_last_step(%from: index, %reg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c1024 = arith.constant 1024 : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    %p = dataflow.get_logical_memory_view %reg, %c0 {layout_map = #id} : index, index, memref<64xf16>
    scf.for %k = %c0 to %c1024 step %c1 {
      %v = dataflow.receive %from : vector<64xf16>
      %old = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
      %new = vectorchain.binary %old, %v {binary_op = #vectorchain<binary_operator max>, op_specific_map = #id} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      agen.vector_store %new, %p[%c0] {store_order = #id, store_set = #all} : memref<64xf16>, vector<64xf16>
      %at = arith.cmpi eq, %k, %c5 : index
      scf.if %at {
        %out = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
        "test.use"(%out) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}

// -----

// Left alone: a signal in the loop lets another unit look at the memory mid-loop.

// CHECK-LABEL: func.func @signal_in_loop(
// CHECK-NOT:     iter_args
#id = affine_map<(d0) -> (d0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @signal_in_loop(%from: index, %reg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    %p = dataflow.get_logical_memory_view %reg, %c0 {layout_map = #id} : index, index, memref<64xf16>
    scf.for %k = %c0 to %c1024 step %c1 {
      %v = dataflow.receive %from : vector<64xf16>
      %old = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
      %new = vectorchain.binary %old, %v {binary_op = #vectorchain<binary_operator max>, op_specific_map = #id} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      agen.vector_store %new, %p[%c0] {store_order = #id, store_set = #all} : memref<64xf16>, vector<64xf16>
      dataflow.sync_send %from {wait_immediately_for_async_transfers = true} : index
    }
  }
  return
}

// -----

// Left alone: another view overlapping the partials' bytes is read in the loop.

// CHECK-LABEL: func.func @aliased_view(
// CHECK-NOT:     iter_args
#id = affine_map<(d0) -> (d0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#some = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @aliased_view(%from: index, %reg: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    %p = dataflow.get_logical_memory_view %reg, %c0 {layout_map = #id} : index, index, memref<64xf16>
    %q = dataflow.get_logical_memory_view %reg, %c64 {layout_map = #id} : index, index, memref<32xf16>
    scf.for %k = %c0 to %c1024 step %c1 {
      %v = dataflow.receive %from : vector<64xf16>
      %old = agen.vector_load %p[%c0] {load_order = #id, load_set = #all} : memref<64xf16>, vector<64xf16>
      %new = vectorchain.binary %old, %v {binary_op = #vectorchain<binary_operator max>, op_specific_map = #id} : vector<64xf16>, vector<64xf16>, vector<64xf16>
      agen.vector_store %new, %p[%c0] {store_order = #id, store_set = #all} : memref<64xf16>, vector<64xf16>
      %w = agen.vector_load %q[%c0] {load_order = #id, load_set = #some} : memref<32xf16>, vector<32xf16>
      "test.use"(%w) : (vector<32xf16>) -> ()
    }
  }
  return
}
