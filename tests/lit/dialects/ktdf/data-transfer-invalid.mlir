// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of ktdf.data_transfer (per side), and its syntax errors.

func.func @element_types_differ(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf32>) {
  // expected-error @+1 {{failed to verify that all of {source, destination} have same element type}}
  ktdf.data_transfer from %a[0] size [64] to %s size [64] : memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf32>
  return
}

// -----

func.func @memref_source_without_map(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{source_map must be present when source is a memref}}
  "ktdf.data_transfer"(%a, %s) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>,
                                 static_source_sizes = array<i64: 64>}>
    : (memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
  return
}

// -----

func.func @memref_dest_without_map(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{dest_map must be present when dest is a memref}}
  "ktdf.data_transfer"(%s, %a) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>,
                                 static_dest_sizes = array<i64: 64>}>
    : (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16>) -> ()
  return
}

// -----

func.func @symbol_in_subscript(%a: memref<64x64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index, %n: index) {
  // expected-error @+1 {{source_map must have 0 symbols (dims-only); got 1}}
  ktdf.data_transfer from %a[%i + symbol(%n), 0] size [1, 64] to %s size [64] : memref<64x64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @subscript_rank_mismatch(%a: memref<64x64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index) {
  // expected-error @+1 {{source memref has rank 2 but source_map has 1 results}}
  ktdf.data_transfer from %a[%i] size [1, 64] to %s size [64] : memref<64x64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @dest_subscript_rank_mismatch(%a: memref<64x64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index) {
  // expected-error @+1 {{dest memref has rank 2 but dest_map has 3 results}}
  ktdf.data_transfer from %s size [64] to %a[%i, 0, 0] size [1, 64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64x64xf16>
  return
}

// -----

func.func @index_count_mismatch(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index) {
  // expected-error @+1 {{source_indices count (2) must match source_map dim count (1)}}
  "ktdf.data_transfer"(%a, %i, %i, %s) <{operandSegmentSizes = array<i32: 1, 2, 0, 1, 0, 0>,
                                         source_map = affine_map<(d0) -> (d0)>,
                                         static_source_sizes = array<i64: 64>}>
    : (memref<64xf16>, index, index, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
  return
}

// -----

func.func @size_count_mismatch(%a: memref<64x64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index) {
  // expected-error @+1 {{source size count (1) must match memref rank (2)}}
  ktdf.data_transfer from %a[%i, 0] size [64] to %s size [64] : memref<64x64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

// A memref side needs its size list.
func.func @memref_side_without_size(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{dest size count (0) must match memref rank (1)}}
  ktdf.data_transfer from %s size [64] to %a[0] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16>
  return
}

// -----

func.func @fifo_with_map(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{dest_map must be absent for fifo dest}}
  "ktdf.data_transfer"(%a, %s) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>,
                                 source_map = affine_map<() -> (0)>, dest_map = affine_map<() -> ()>,
                                 static_source_sizes = array<i64: 64>}>
    : (memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
  return
}

// -----

func.func @fifo_with_indices(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index) {
  // expected-error @+1 {{FIFO slot source cannot have indices specified}}
  "ktdf.data_transfer"(%s, %i, %a) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0>,
                                     dest_map = affine_map<() -> (0)>, static_dest_sizes = array<i64: 64>}>
    : (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, index, memref<64xf16>) -> ()
  return
}

// -----

func.func @dynamic_size_count(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %n: index) {
  // expected-error @+1 {{number of dynamic source sizes (1) must match number of dynamic entries in static_source_sizes (0)}}
  "ktdf.data_transfer"(%a, %n, %s) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0>,
                                     source_map = affine_map<() -> (0)>, static_source_sizes = array<i64: 64>}>
    : (memref<64xf16>, index, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
  return
}

// -----

func.func @dest_dynamic_size_count(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{number of dynamic dest sizes (0) must match number of dynamic entries in static_dest_sizes (1)}}
  "ktdf.data_transfer"(%a, %s) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 0>,
                                 source_map = affine_map<() -> (0)>, static_source_sizes = array<i64: 64>,
                                 static_dest_sizes = array<i64: -9223372036854775808>}>
    : (memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
  return
}

// -----

func.func @unknown_transfer_mode(%a: memref<1xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{transfer_mode must be "splat" or "pad", got "broadcast"}}
  ktdf.data_transfer from %a[0] size [1] to %s size [64] {transfer_mode = "broadcast"} : memref<1xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @tensor_side(%t: tensor<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{Unexpected attribute tensor<64xf16>}}
  ktdf.data_transfer from %t size [64] to %s size [64] : tensor<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @non_affine_product(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  ktdf.data_transfer from %a[%i * %j] size [64] to %s size [64] : memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @non_affine_divisor(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
  ktdf.data_transfer from %a[%i mod %j] size [64] to %s size [64] : memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @bad_subscript(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{expected affine expression}}
  ktdf.data_transfer from %a[#foo] size [64] to %s size [64] : memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @bad_size_entry(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
  // expected-error @+1 {{expected an integer or an SSA value in the size list}}
  ktdf.data_transfer from %a[0] size [?] to %s size [64] : memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}

// -----

func.func @subscript_of_wrong_type(%a: memref<64xf16>, %s: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, %f: f32) {
  // expected-error @+1 {{use of value '%f' expects different type than prior uses: 'index' vs 'f32'}}
  ktdf.data_transfer from %a[%f] size [64] to %s size [64] : memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  return
}
