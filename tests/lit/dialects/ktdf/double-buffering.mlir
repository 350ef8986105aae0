// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// ktdf.buffer_phase and ktdf.select_memref, as double-buffering creates them.

// CHECK-LABEL: func.func @two_buffers
// CHECK-SAME:    (%[[X0:[^:]*]]: memref<64xf16, "L1">, %[[X1:[^:]*]]: memref<64xf16, "L1">, %[[N:[^:]*]]: index)
// CHECK:         scf.for %[[M:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[K:[^ ]*]] =
// CHECK-NEXT:        %[[P:.*]] = ktdf.buffer_phase(%[[M]], %[[K]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[SEL:.*]] = ktdf.select_memref %[[P]][%[[X0]], %[[X1]]] : memref<64xf16, "L1">
// CHECK-NEXT:        call @fill(%[[SEL]])
// GENERIC-LABEL: sym_name = "two_buffers"
// GENERIC:         "ktdf.buffer_phase"(%{{.*}}, %{{.*}}) <{num_phases = 2 : i64}> : (index, index) -> index
// GENERIC:         "ktdf.select_memref"(%{{.*}}, %{{.*}}, %{{.*}}) : (index, memref<64xf16, "L1">, memref<64xf16, "L1">) -> memref<64xf16, "L1">
func.func private @fill(memref<64xf16, "L1">)
func.func @two_buffers(%x0: memref<64xf16, "L1">, %x1: memref<64xf16, "L1">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %m = %c0 to %n step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      %phase = ktdf.buffer_phase(%m, %k) {num_phases = 2} : index
      %buf = ktdf.select_memref %phase[%x0, %x1] : memref<64xf16, "L1">
      func.call @fill(%buf) : (memref<64xf16, "L1">) -> ()
    }
  }
  return
}

// Four phases, dynamic shapes, extra attributes in the dictionary.
// CHECK-LABEL: func.func @four_buffers
// CHECK:         %[[P:.*]] = ktdf.buffer_phase(%{{.*}}) {num_phases = 4 : i64, origin = "db"} : index
// CHECK-NEXT:    %{{.*}} = ktdf.select_memref %[[P]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {origin = "db"} : memref<?x?xf16, "L1">
func.func private @use(memref<?x?xf16, "L1">)
func.func @four_buffers(%a: memref<?x?xf16, "L1">, %b: memref<?x?xf16, "L1">, %c: memref<?x?xf16, "L1">,
                        %d: memref<?x?xf16, "L1">, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %p = ktdf.buffer_phase(%i) {origin = "db", num_phases = 4 : i64} : index
    %s = ktdf.select_memref %p[%a, %b, %c, %d] {origin = "db"} : memref<?x?xf16, "L1">
    func.call @use(%s) : (memref<?x?xf16, "L1">) -> ()
  }
  return
}
