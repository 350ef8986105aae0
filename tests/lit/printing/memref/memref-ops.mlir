// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// memref.cast, memref.memory_space_cast, memref.copy and memref.global print (and parse) in
// MLIR's custom syntax; xDSL knows them only in generic form. The generic form still parses.

// CHECK-LABEL: module {
// CHECK-NEXT:    memref.global "private" constant @table : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT:    memref.global @ones : memref<64xf16> = dense<1.000000e+00>
// CHECK-NEXT:    memref.global @external : memref<4xi32>
// CHECK-NEXT:    memref.global "private" @scratch : memref<4xi32> = uninitialized
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64}
memref.global @ones : memref<64xf16> = dense<1.0>
memref.global @external : memref<4xi32>
memref.global "private" @scratch : memref<4xi32> = uninitialized

// CHECK-LABEL: func.func @casts(%arg0: memref<96x64xf16>, %arg1: index) {
// CHECK-NEXT:    %cast = memref.cast %arg0 : memref<96x64xf16> to memref<?x64xf16>
// CHECK-NEXT:    %cast_0 = memref.cast %arg0 {dfs.note} : memref<96x64xf16> to memref<*xf16>
// CHECK-NEXT:    %memspacecast = memref.memory_space_cast %arg0 : memref<96x64xf16> to memref<96x64xf16, "DDR">
// CHECK-NEXT:    %reinterpret_cast = memref.reinterpret_cast %memspacecast to offset: [%arg1], sizes: [1, 64], strides: [64, 1] : memref<96x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
// CHECK-NEXT:    %alloc = memref.alloc() : memref<96x64xf16, "L1">
// CHECK-NEXT:    memref.copy %memspacecast, %alloc : memref<96x64xf16, "DDR"> to memref<96x64xf16, "L1">
// CHECK-NEXT:    %0 = memref.get_global @ones : memref<64xf16>
// CHECK-NEXT:    return
// GENERIC:      "memref.global"() <{alignment = 64 : i64, constant, initial_value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, sym_name = "table", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
// GENERIC:      %0 = "memref.cast"(%arg0) : (memref<96x64xf16>) -> memref<?x64xf16>
// GENERIC-NEXT: %1 = "memref.cast"(%arg0) {dfs.note} : (memref<96x64xf16>) -> memref<*xf16>
// GENERIC-NEXT: %2 = "memref.memory_space_cast"(%arg0) : (memref<96x64xf16>) -> memref<96x64xf16, "DDR">
// GENERIC:      "memref.copy"(%2, %4) : (memref<96x64xf16, "DDR">, memref<96x64xf16, "L1">) -> ()
func.func @casts(%m: memref<96x64xf16>, %off: index) {
  %0 = memref.cast %m : memref<96x64xf16> to memref<?x64xf16>
  %1 = memref.cast %m {dfs.note} : memref<96x64xf16> to memref<*xf16>
  %2 = memref.memory_space_cast %m : memref<96x64xf16> to memref<96x64xf16, "DDR">
  %3 = memref.reinterpret_cast %2 to offset: [%off], sizes: [1, 64], strides: [64, 1] : memref<96x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
  %4 = memref.alloc() : memref<96x64xf16, "L1">
  memref.copy %2, %4 : memref<96x64xf16, "DDR"> to memref<96x64xf16, "L1">
  %5 = memref.get_global @ones : memref<64xf16>
  return
}
