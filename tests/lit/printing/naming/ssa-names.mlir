// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// Names in the input are ignored, as mlir-opt ignores them. Results are numbered region by region:
// the values of a region first, then its nested regions continue from there; sibling regions
// restart from the same number. Entry-block arguments are %argN, numbered the same way.

// CHECK-LABEL: func.func @numbering(%arg0: index, %arg1: index) -> index {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : index
// CHECK-NEXT:    scf.for %arg2 = %arg0 to %arg1 step %arg1 {
// CHECK-NEXT:      %3 = arith.muli %arg2, %0 : index
// CHECK-NEXT:      scf.for %arg3 = %arg0 to %3 step %arg1 {
// CHECK-NEXT:        %4 = arith.subi %arg3, %3 : index
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = arith.muli %0, %0 : index
// CHECK-NEXT:    scf.for %arg2 = %arg0 to %arg1 step %arg1 {
// CHECK-NEXT:      %3 = arith.addi %arg2, %1 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = arith.subi %1, %0 : index
// CHECK-NEXT:    return %2 : index
// GENERIC-LABEL: "func.func"()
// GENERIC:       ^bb0(%arg0: index, %arg1: index):
// GENERIC-NEXT:    %0 = "arith.addi"(%arg0, %arg1)
func.func @numbering(%lb: index, %ub: index) -> index {
  %sum = arith.addi %lb, %ub : index
  scf.for %i = %lb to %ub step %ub {
    %in = arith.muli %i, %sum : index
    scf.for %j = %lb to %in step %ub {
      %deeper = arith.subi %j, %in : index
    }
  }
  %prod = arith.muli %sum, %sum : index
  scf.for %k = %lb to %ub step %ub {
    %other = arith.addi %k, %prod : index
  }
  %diff = arith.subi %prod, %sum : index
  return %diff : index
}

// -----

// Constants are named after their value and type (index values have no type suffix); booleans are
// %true/%false, everything else %cst. A clash gets `_N` from one counter shared by all names.
// The generic form uses no op-chosen names.

// CHECK-LABEL: func.func @constants() {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c64 = arith.constant 64 : index
// CHECK-NEXT:    %c0_0 = arith.constant 0 : index
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c-7_i64 = arith.constant -7 : i64
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %cst_1 = arith.constant dense<1.000000e+00> : tensor<4xf16>
// CHECK-NEXT:    %c0_2 = arith.constant 0 : index
// CHECK-NEXT:    %true_3 = arith.constant true
// CHECK-NEXT:    "test.use"(%c0, %c64, %c0_0, %c1_i32, %c-7_i64, %true, %false, %cst, %cst_1, %c0_2, %true_3)
// GENERIC-LABEL: "func.func"()
// GENERIC:         %0 = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT:    %1 = "arith.constant"() <{value = 64 : index}> : () -> index
func.func @constants() {
  %a = arith.constant 0 : index
  %b = arith.constant 64 : index
  %c = arith.constant 0 : index
  %d = arith.constant 1 : i32
  %e = arith.constant -7 : i64
  %f = arith.constant true
  %g = arith.constant false
  %h = arith.constant 0.0 : f16
  %i = arith.constant dense<1.0> : tensor<4xf16>
  %j = arith.constant 0 : index
  %k = arith.constant true
  "test.use"(%a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %k) : (index, index, index, i32, i64, i1, i1, f16, tensor<4xf16>, index, i1) -> ()
  return
}

// -----

// A name used in an enclosing region clashes in the nested one; sibling regions do not see
// each other's names.

// CHECK-LABEL: func.func @scoped_names(%arg0: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    scf.for %arg1 = %c0 to %arg0 step %arg0 {
// CHECK-NEXT:      %c0_0 = arith.constant 0 : index
// CHECK-NEXT:      %c5 = arith.constant 5 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %arg1 = %c0 to %arg0 step %arg0 {
// CHECK-NEXT:      %c5 = arith.constant 5 : index
// CHECK-NEXT:    }
func.func @scoped_names(%n: index) {
  %zero = arith.constant 0 : index
  scf.for %i = %zero to %n step %n {
    %z = arith.constant 0 : index
    %five = arith.constant 5 : index
  }
  scf.for %i = %zero to %n step %n {
    %five = arith.constant 5 : index
  }
  return
}

// -----

// Multi-result ops print one group `%0:3` and uses `%0#1`; ops naming their results print
// several groups (memref.extract_strided_metadata).

// CHECK-LABEL: func.func @groups(%arg0: memref<8x4xf32>) {
// CHECK-NEXT:    %0:3 = "test.three"() : () -> (i32, i32, i32)
// CHECK-NEXT:    "test.use"(%0#2, %0#0) : (i32, i32) -> ()
// CHECK-NEXT:    %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg0
// CHECK-NEXT:    "test.use"(%offset, %sizes#1, %strides#0) : (index, index, index) -> ()
// GENERIC-LABEL: "func.func"()
// GENERIC:         %1:6 = "memref.extract_strided_metadata"(%arg0)
// GENERIC-NEXT:    "test.use"(%1#1, %1#3, %1#4)
func.func @groups(%m: memref<8x4xf32>) {
  %r:3 = "test.three"() : () -> (i32, i32, i32)
  "test.use"(%r#2, %r#0) : (i32, i32) -> ()
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %m : memref<8x4xf32> -> memref<f32>, index, index, index, index, index
  "test.use"(%o, %s#1, %t#0) : (index, index, index) -> ()
  return
}

// -----

// Block labels are ^bbN by position in their region, with MLIR's predecessor comments; the
// arguments of non-entry blocks are numbered like results.

// CHECK-LABEL: func.func @blocks(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
// CHECK-NEXT:  ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%0 : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%arg1 : i32)
// CHECK-NEXT:  ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %1 : i32
// CHECK-NEXT:  ^bb4:  // no predecessors
// CHECK-NEXT:    return %arg1 : i32
// CHECK-NEXT:  }
func.func @blocks(%c: i1, %v: i32) -> i32 {
  cf.cond_br %c, ^left(%v : i32), ^right
^left(%x: i32):
  cf.br ^join(%x : i32)
^right:
  cf.br ^join(%v : i32)
^join(%y: i32):
  return %y : i32
^dead:
  return %v : i32
}

// -----

// linalg.generic names its body arguments %in / %out; memref and tensor ops name their results.

// CHECK-LABEL: func.func @op_chosen_names(
// CHECK:         %alloc = memref.alloc() : memref<4xf16>
// CHECK-NEXT:    %cast = memref.cast %alloc : memref<4xf16> to memref<?xf16>
// CHECK-NEXT:    %memspacecast = memref.memory_space_cast %alloc : memref<4xf16> to memref<4xf16, 1>
// CHECK-NEXT:    %0 = tensor.empty() : tensor<4xf16>
// CHECK-NEXT:    %extracted_slice = tensor.extract_slice %arg0[0] [2] [1] : tensor<4xf16> to tensor<2xf16>
// CHECK-NEXT:    %1 = linalg.generic {{.*}} ins(%arg0, %arg0 : tensor<4xf16>, tensor<4xf16>) outs(%0 : tensor<4xf16>) {
// CHECK-NEXT:    ^bb0(%in: f16, %in_0: f16, %out: f16):
// CHECK-NEXT:      %2 = arith.addf %in, %in_0 : f16
// CHECK-NEXT:      linalg.yield %2 : f16
// CHECK-NEXT:    } -> tensor<4xf16>
func.func @op_chosen_names(%t: tensor<4xf16>) {
  %a = memref.alloc() : memref<4xf16>
  %b = memref.cast %a : memref<4xf16> to memref<?xf16>
  %c = memref.memory_space_cast %a : memref<4xf16> to memref<4xf16, 1>
  %e = tensor.empty() : tensor<4xf16>
  %s = tensor.extract_slice %t[0] [2] [1] : tensor<4xf16> to tensor<2xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t, %t : tensor<4xf16>, tensor<4xf16>) outs(%e : tensor<4xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %sum = arith.addf %x, %y : f16
    linalg.yield %sum : f16
  } -> tensor<4xf16>
  return
}
