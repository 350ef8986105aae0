// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: dfsched-opt %s -cse | filecheck %s --check-prefix=CSE

// symbol ops: kernel arguments declared as symbols, placeholders, and a constant-keyed
// symbol table queried by a loop induction variable.

// CHECK-LABEL: func.func @declare
// CHECK-SAME:    (%[[A:[^:]*]]: index, %[[B:[^:]*]]: memref<4xf16>)
// CHECK-NEXT:    symbol.create_id %[[A]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[B]] {symbol_id = -2 : si64} : memref<4xf16>
// GENERIC-LABEL: sym_name = "declare"
// GENERIC:         "symbol.create_id"(%{{.*}}) <{symbol_id = -1 : si64}> : (index) -> ()
// The declarations have a write effect: CSE and DCE keep them although nothing uses them.
// CSE-LABEL: func.func @declare
// CSE-NEXT:    symbol.create_id
// CSE-NEXT:    symbol.create_id
func.func @declare(%a: index, %b: memref<4xf16>) {
  symbol.create_id %a {symbol_id = -1 : si64} : index
  symbol.create_id %b {symbol_id = -2 : si64} : memref<4xf16>
  return
}

// CHECK-LABEL: func.func @table
// CHECK:         %[[S0:.*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK-NEXT:    %[[S1:.*]] = symbol.create_symbol {SymbolId = -4 : i64} : index
// CHECK-NEXT:    %[[S2:.*]] = symbol.create_symbol : index
// CHECK:         affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT:      %[[M:.*]] = symbol.symbol_immutable_mapping ([%[[C0:.*]] -> %[[S0]]], [%[[C1:.*]] -> %[[S1]]]) : index
// CHECK-NEXT:      %{{.*}} = symbol.query_map(map:%[[M]], key:%[[I]]) : index
// CHECK-NEXT:      %{{.*}} = symbol.query_map(map:%[[M]], key:%[[C1]]) : index
// CHECK-NEXT:    }
// CHECK-NEXT:    symbol.symbol_immutable_mapping () : index
// GENERIC-LABEL: sym_name = "table"
// GENERIC:         "symbol.symbol_immutable_mapping"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, index) -> index
func.func @table() {
  %s0 = symbol.create_symbol {SymbolId = -3 : i64} : index
  %s1 = symbol.create_symbol {SymbolId = -4 : i64} : index
  %s2 = symbol.create_symbol : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to 2 {
    %m = symbol.symbol_immutable_mapping ([%c0 -> %s0],[%c1 -> %s1]) : index
    %x = symbol.query_map (map: %m, key: %i) : index
    %y = symbol.query_map(map:%m, key:%c1) : index
  }
  %empty = symbol.symbol_immutable_mapping () : index
  return
}
