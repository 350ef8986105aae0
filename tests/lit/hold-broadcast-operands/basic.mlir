// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --hold-broadcast-operands | filecheck %s

// Decision 77: at every step of its column loop the load unit splats the row's maximum and
// sends it; nothing in the loop can change it, so the load, the splat and the send move
// before the loop, and the compute unit's matching receive (the second of its loop body, as
// the send is the second of the sender's) moves before its own loop: it holds the vector.

// CHECK-LABEL: func.func @row_broadcast(
// CHECK:         dataflow.program_unit iter_arg : %[[LU:.*]] -> (%{{.*}}) : {
// CHECK:           scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[MAX:.*]] = agen.vector_load %{{.*}}[%[[ROW]], 0] {{.*}} : memref<4x1xf16>, vector<1xf16>
// CHECK-NEXT:        %[[SPLAT:.*]] = vectorchain.shuffle input(%[[MAX]]) {indices = [0 : i32], repetition = 64 : i32}
// CHECK-NEXT:        %[[M1:.*]] = uniform.def_immutable_mapping
// CHECK-NEXT:        %[[PE1:.*]] = uniform.query_map(map:%[[M1]], key:%[[LU]])
// CHECK-NEXT:        dataflow.send %[[PE1]], %[[SPLAT]] : vector<64xf16>
// CHECK-NEXT:        scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[X:.*]] = agen.vector_load %{{.*}}[%[[ROW]], %[[COL]] * 64]
// CHECK-NOT:           vectorchain.shuffle
// CHECK:               dataflow.send %{{.*}}, %[[X]] : vector<64xf16>
// CHECK-NEXT:        }
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}) : {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[HELD:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               %[[XR:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:          vectorchain.binary %[[XR]], %[[HELD]] {binary_op = #vectorchain<binary_operator sub>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0, d1) -> (d0 * 1024 + d1)>
#col = affine_map<(d0, d1) -> (d0 + d1)>
func.func @row_broadcast() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c8192 = arith.constant 8192 : index
  %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-lxlu", type = "lxlu"} : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  %lx = dataflow.get_unit {core = 0 : i32, name = "C0-lx", type = "lx"} : index
  dataflow.program_unit iter_arg : %self -> (%lu) : {
    %x = dataflow.get_logical_memory_view %lx, %c0 {layout_map = #flat} : index, index, memref<4x1024xf16>
    %m = dataflow.get_logical_memory_view %lx, %c8192 {layout_map = #col} : index, index, memref<4x1xf16>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %v = agen.vector_load %x[%r, %k * 64] {load_order = #id, load_set = #row} : memref<4x1024xf16>, vector<64xf16>
        %map0 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to0 = uniform.query_map(map:%map0, key:%self) : index
        dataflow.send %to0, %v : vector<64xf16>
        %s = agen.vector_load %m[%r, 0] {load_order = #id, load_set = #one} : memref<4x1xf16>, vector<1xf16>
        %b = vectorchain.shuffle input(%s) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to1 = uniform.query_map(map:%map1, key:%self) : index
        dataflow.send %to1, %b : vector<64xf16>
      }
    }
  }
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %map0 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from0 = uniform.query_map(map:%map0, key:%self) : index
        %v = dataflow.receive %from0 : vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from1 = uniform.query_map(map:%map1, key:%self) : index
        %b = dataflow.receive %from1 : vector<64xf16>
        %d = vectorchain.binary %v, %b {binary_op = #vectorchain<binary_operator sub>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        "test.use"(%d) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}

// -----

// The splatted element changes with the column (its subscript reads the column index): sent
// at every step, as before.

// CHECK-LABEL: func.func @per_column(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             vectorchain.shuffle
// CHECK:             dataflow.send
// CHECK-NEXT:      }
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0, d1) -> (d0 * 1024 + d1)>
#col = affine_map<(d0, d1) -> (d0 + d1)>
func.func @per_column() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c8192 = arith.constant 8192 : index
  %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-lxlu", type = "lxlu"} : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  %lx = dataflow.get_unit {core = 0 : i32, name = "C0-lx", type = "lx"} : index
  dataflow.program_unit iter_arg : %self -> (%lu) : {
    %x = dataflow.get_logical_memory_view %lx, %c0 {layout_map = #flat} : index, index, memref<4x1024xf16>
    %m = dataflow.get_logical_memory_view %lx, %c8192 {layout_map = #col} : index, index, memref<4x1xf16>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %v = agen.vector_load %x[%r, %k * 64] {load_order = #id, load_set = #row} : memref<4x1024xf16>, vector<64xf16>
        %map0 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to0 = uniform.query_map(map:%map0, key:%self) : index
        dataflow.send %to0, %v : vector<64xf16>
        %s = agen.vector_load %m[%k, 0] {load_order = #id, load_set = #one} : memref<4x1xf16>, vector<1xf16>
        %b = vectorchain.shuffle input(%s) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to1 = uniform.query_map(map:%map1, key:%self) : index
        dataflow.send %to1, %b : vector<64xf16>
      }
    }
  }
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %map0 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from0 = uniform.query_map(map:%map0, key:%self) : index
        %v = dataflow.receive %from0 : vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from1 = uniform.query_map(map:%map1, key:%self) : index
        %b = dataflow.receive %from1 : vector<64xf16>
        %d = vectorchain.binary %v, %b {binary_op = #vectorchain<binary_operator sub>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        "test.use"(%d) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}

// -----

// The sender's loop also stores: something in the loop may change the element, so it stays.

// CHECK-LABEL: func.func @stores_in_loop(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             vectorchain.shuffle
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0, d1) -> (d0 * 1024 + d1)>
#col = affine_map<(d0, d1) -> (d0 + d1)>
func.func @stores_in_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c8192 = arith.constant 8192 : index
  %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-lxlu", type = "lxlu"} : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  %lx = dataflow.get_unit {core = 0 : i32, name = "C0-lx", type = "lx"} : index
  dataflow.program_unit iter_arg : %self -> (%lu) : {
    %x = dataflow.get_logical_memory_view %lx, %c0 {layout_map = #flat} : index, index, memref<4x1024xf16>
    %m = dataflow.get_logical_memory_view %lx, %c8192 {layout_map = #col} : index, index, memref<4x1xf16>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %v = agen.vector_load %x[%r, %k * 64] {load_order = #id, load_set = #row} : memref<4x1024xf16>, vector<64xf16>
        %map0 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to0 = uniform.query_map(map:%map0, key:%self) : index
        dataflow.send %to0, %v : vector<64xf16>
        %s = agen.vector_load %m[%r, 0] {load_order = #id, load_set = #one} : memref<4x1xf16>, vector<1xf16>
        %b = vectorchain.shuffle input(%s) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to1 = uniform.query_map(map:%map1, key:%self) : index
        dataflow.send %to1, %b : vector<64xf16>
        %z = agen.vector_load %m[%c0, 0] {load_order = #id, load_set = #one} : memref<4x1xf16>, vector<1xf16>
        agen.vector_store %z, %m[%r, 0] {store_order = #id, store_set = #one} : memref<4x1xf16>, vector<1xf16>
      }
    }
  }
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %map0 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from0 = uniform.query_map(map:%map0, key:%self) : index
        %v = dataflow.receive %from0 : vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from1 = uniform.query_map(map:%map1, key:%self) : index
        %b = dataflow.receive %from1 : vector<64xf16>
        %d = vectorchain.binary %v, %b {binary_op = #vectorchain<binary_operator sub>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        "test.use"(%d) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}

// -----

// The receiver takes the vector under a branch: which receive matches is not certain, nothing moves.

// CHECK-LABEL: func.func @receive_in_branch(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             vectorchain.shuffle
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0, d1) -> (d0 * 1024 + d1)>
#col = affine_map<(d0, d1) -> (d0 + d1)>
func.func @receive_in_branch() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c8192 = arith.constant 8192 : index
  %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-lxlu", type = "lxlu"} : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  %lx = dataflow.get_unit {core = 0 : i32, name = "C0-lx", type = "lx"} : index
  dataflow.program_unit iter_arg : %self -> (%lu) : {
    %x = dataflow.get_logical_memory_view %lx, %c0 {layout_map = #flat} : index, index, memref<4x1024xf16>
    %m = dataflow.get_logical_memory_view %lx, %c8192 {layout_map = #col} : index, index, memref<4x1xf16>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %v = agen.vector_load %x[%r, %k * 64] {load_order = #id, load_set = #row} : memref<4x1024xf16>, vector<64xf16>
        %map0 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to0 = uniform.query_map(map:%map0, key:%self) : index
        dataflow.send %to0, %v : vector<64xf16>
        %s = agen.vector_load %m[%r, 0] {load_order = #id, load_set = #one} : memref<4x1xf16>, vector<1xf16>
        %b = vectorchain.shuffle input(%s) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to1 = uniform.query_map(map:%map1, key:%self) : index
        dataflow.send %to1, %b : vector<64xf16>
      }
    }
  }
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    %true = arith.constant true
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %map0 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from0 = uniform.query_map(map:%map0, key:%self) : index
        %v = dataflow.receive %from0 : vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from1 = uniform.query_map(map:%map1, key:%self) : index
        %b = scf.if %true -> (vector<64xf16>) {
          %got = dataflow.receive %from1 : vector<64xf16>
          scf.yield %got : vector<64xf16>
        } else {
          scf.yield %v : vector<64xf16>
        }
        %d = vectorchain.binary %v, %b {binary_op = #vectorchain<binary_operator sub>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        "test.use"(%d) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}

// -----

// The receiver's loop runs another number of steps: not the sender's twin, nothing moves.

// CHECK-LABEL: func.func @other_trip_count(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             vectorchain.shuffle
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0, d1) -> (d0 * 1024 + d1)>
#col = affine_map<(d0, d1) -> (d0 + d1)>
func.func @other_trip_count() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c8192 = arith.constant 8192 : index
  %lu = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-lxlu", type = "lxlu"} : index
  %pe = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-pe", type = "pe"} : index
  %lx = dataflow.get_unit {core = 0 : i32, name = "C0-lx", type = "lx"} : index
  dataflow.program_unit iter_arg : %self -> (%lu) : {
    %x = dataflow.get_logical_memory_view %lx, %c0 {layout_map = #flat} : index, index, memref<4x1024xf16>
    %m = dataflow.get_logical_memory_view %lx, %c8192 {layout_map = #col} : index, index, memref<4x1xf16>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %v = agen.vector_load %x[%r, %k * 64] {load_order = #id, load_set = #row} : memref<4x1024xf16>, vector<64xf16>
        %map0 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to0 = uniform.query_map(map:%map0, key:%self) : index
        dataflow.send %to0, %v : vector<64xf16>
        %s = agen.vector_load %m[%r, 0] {load_order = #id, load_set = #one} : memref<4x1xf16>, vector<1xf16>
        %b = vectorchain.shuffle input(%s) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%lu -> %pe]):index
        %to1 = uniform.query_map(map:%map1, key:%self) : index
        dataflow.send %to1, %b : vector<64xf16>
      }
    }
  }
  dataflow.program_unit iter_arg : %self -> (%pe) : {
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %map0 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from0 = uniform.query_map(map:%map0, key:%self) : index
        %v = dataflow.receive %from0 : vector<64xf16>
        %map1 = uniform.def_immutable_mapping([%pe -> %lu]):index
        %from1 = uniform.query_map(map:%map1, key:%self) : index
        %b = dataflow.receive %from1 : vector<64xf16>
        %d = vectorchain.binary %v, %b {binary_op = #vectorchain<binary_operator sub>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
        "test.use"(%d) : (vector<64xf16>) -> ()
      }
    }
  }
  return
}
