// RUN: dfsched-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect | dfsched-opt --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// Attribute dictionaries print sorted by name, op attribute dictionaries and dictionary
// attributes alike. Integers keep their type, except i64 inside arrays (and memory spaces),
// where MLIR elides it; f64 likewise. Booleans never show a type.

// Properties print sorted too (xDSL keeps them in definition order).
// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "attrs"}> ({

// CHECK-LABEL: func.func @attrs() attributes {alpha = 1 : i64, beta = [1, 2 : i32, -1 : i8, 2.500000e+00, 1.500000e+00 : f16, true], gamma = {a = 1 : i64, b = {c = "x", d}, z = false}, zeta = 3 : index} {
func.func @attrs() attributes {zeta = 3 : index, alpha = 1, gamma = {z = false, a = 1, b = {d, c = "x"}}, beta = [1, 2 : i32, 255 : i8, 2.5, 1.5 : f16, true]} {
  // CHECK-NEXT: "test.op"() {a = 0 : ui8, b = -1 : si32, m = 4 : index, z} : () -> ()
  "test.op"() {z = unit, m = 4 : index, b = -1 : si32, a = 0 : ui8} : () -> ()
  // CHECK-NEXT: %c1_i64 = arith.constant {dfs.a = "a", dfs.b} 1 : i64
  %0 = "arith.constant"() <{value = 1 : i64}> {dfs.b, dfs.a = "a"} : () -> i64
  return
}

// In custom form `operandSegmentSizes` is never printed; the generic form keeps it.
// CHECK-LABEL: func.func @segments(
// CHECK-NEXT:    %alloc = memref.alloc(%arg0) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT:    %alloc_0 = memref.alloc(%arg0) : memref<?xf32>
// GENERIC-LABEL: sym_name = "segments"
// GENERIC:         %0 = "memref.alloc"(%arg0) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
func.func @segments(%n: index) {
  %a = memref.alloc(%n) {alignment = 64} : memref<?xf32>
  %b = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
  return
}

// Float literals as MLIR writes them: six digits when that round-trips, shortest exact digits
// otherwise, hexadecimal when neither is a valid literal (NaN, infinity, large integers).
// CHECK-LABEL: func.func @floats(
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 3.14159274 : f32
// CHECK-NEXT:    %cst_1 = arith.constant 7.629390e-06 : f32
// CHECK-NEXT:    %cst_2 = arith.constant 9.997560e-02 : f16
// CHECK-NEXT:    %cst_3 = arith.constant -0.000000e+00 : f64
// CHECK-NEXT:    %cst_4 = arith.constant 0x7C00 : f16
// CHECK-NEXT:    %cst_5 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:    %cst_6 = arith.constant 0.30000000000000004 : f64
// CHECK-NEXT:    %cst_7 = arith.constant 6.550400e+04 : f16
// CHECK-NEXT:    %cst_8 = arith.constant dense<[1.500000e+00, 2.000000e+00]> : tensor<2xbf16>
// CHECK-NEXT:    %cst_9 = arith.constant dense<0.000000e+00> : vector<64xf16>
func.func @floats() {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 3.14159265 : f32
  %c = arith.constant 0x36fffff6 : f32
  %d = arith.constant 0.1 : f16
  %e = arith.constant -0.0 : f64
  %f = arith.constant 0x7C00 : f16
  %g = arith.constant 0x7FC00000 : f32
  %h = arith.constant 0.30000000000000004 : f64
  %i = arith.constant 65504.0 : f16
  %j = arith.constant dense<[1.5, 2.0]> : tensor<2xbf16>
  %k = arith.constant dense<0.0> : vector<64xf16>
  return
}

// Memory spaces: an i64 integer space elides its type; layouts print unless identity.
// CHECK-LABEL: func.func @memrefs(%arg0: memref<4xf32, 1>, %arg1: memref<4x?xf16, strided<[?, 1], offset: ?>, "L1">, %arg2: memref<8xi8>, %arg3: memref<*xf32, 2>)
func.func @memrefs(%a: memref<4xf32, 1 : i64>, %b: memref<4x?xf16, strided<[?, 1], offset: ?>, "L1">, %c: memref<8xi8, affine_map<(d0) -> (d0)>>, %d: memref<*xf32, 2>) {
  return
}
