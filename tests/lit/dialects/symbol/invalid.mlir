// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules of the symbol dialect.

func.func @unsigned_symbol_id(%a: index) {
  // expected-error @+1 {{attribute 'symbol_id' must be a 64-bit signed integer (`: si64`), got i64}}
  symbol.create_id %a {symbol_id = -1 : i64} : index
  return
}

// -----

func.func @missing_symbol_id(%a: index) {
  // expected-error @+1 {{property 'symbol_id' expected}}
  symbol.create_id %a : index
  return
}

// -----

func.func @symbol_id_not_integer() {
  // expected-error @+1 {{attribute 'SymbolId' must be an integer}}
  %s = symbol.create_symbol {SymbolId = "three"} : index
  return
}

// -----

func.func @key_not_constant(%k: index) {
  %s = symbol.create_symbol : index
  // expected-error @+1 {{All keys expected to be constant operations}}
  %m = symbol.symbol_immutable_mapping ([%k -> %s]) : index
  return
}

// -----

func.func @value_not_symbol() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{Values in SymbolImmutableMapping should be results of symbol.create_symbol}}
  %m = symbol.symbol_immutable_mapping ([%c0 -> %c0]) : index
  return
}

// -----

func.func @odd_operand_count() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{Operation has 3 operands}}
  %m = "symbol.symbol_immutable_mapping"(%c0, %c0, %c0) : (index, index, index) -> index
  return
}

// -----

func.func @map_not_a_table() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{map's defOp must be symbol_immutable_mapping op.}}
  %x = symbol.query_map(map:%c0, key:%c0) : index
  return
}

// -----

func.func @key_not_loop_variable(%k: index) {
  %c0 = arith.constant 0 : index
  %s = symbol.create_symbol : index
  %m = symbol.symbol_immutable_mapping ([%c0 -> %s]) : index
  // expected-error @+1 {{key's parentOp must be a ForOp.}}
  %x = symbol.query_map(map:%m, key:%k) : index
  return
}

// -----

func.func @query_map_non_index(%m: index, %k: index) {
  // expected-error @+1 {{'symbol.query_map' op constraint not satisfied}}
  %x = symbol.query_map(map:%m, key:%k) : f32
  return
}
