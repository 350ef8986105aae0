// RUN: dfsched-opt %s -split-input-file -verify-diagnostics
// RUN: not dfsched-opt %s -split-input-file 2>&1 | filecheck %s --check-prefix=LOC

// Verifier rules of the ktdp ops other than the inter-tile ones and the indirect access
// tile. Rules that the custom syntax cannot break are exercised in generic form.

func.func @no_tile_id() {
  // expected-error @+1 {{must return at least one index (num tile-grid dims >= 1)}}
  "ktdp.get_compute_tile_id"() : () -> ()
  return
}

// -----

func.func @tile_id_not_index() {
  // expected-error @+1 {{all results must be IndexType}}
  %id = ktdp.get_compute_tile_id : i32
  return
}
// Errors name the op and point at it, without a traceback.
// LOC: ops-invalid.mlir:[[# @LINE - 4]]:9: error: 'ktdp.get_compute_tile_id' op all results must be IndexType
// LOC-NOT: Traceback

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @sizes_strides_length(%a: index) {
  // expected-error @+1 {{static_sizes and static_strides must have equal length}}
  %v = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @dynamic_size_count(%a: index, %n: index) {
  // expected-error @+1 {{number of dynamic size operands does not match kDynamic entries in static_sizes}}
  %v = "ktdp.construct_memory_view"(%a, %n) <{coordinate_set = #s, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 1, 0>, static_sizes = array<i64: 4, 8>, static_strides = array<i64: 8, 1>}> : (index, index) -> memref<4x8xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @dynamic_stride_count(%a: index) {
  // expected-error @+1 {{number of dynamic stride operands does not match kDynamic entries in static_strides}}
  %v = "ktdp.construct_memory_view"(%a) <{coordinate_set = #s, memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 0, 0>, static_sizes = array<i64: 4, 8>, static_strides = array<i64: -9223372036854775808, 1>}> : (index) -> memref<4x8xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @view_not_memref(%a: index) {
  // expected-error @+1 {{result must be a memref type}}
  %v = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : tensor<4x8xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @view_rank(%a: index) {
  // expected-error @+1 {{result memref rank does not match sizes/strides length}}
  %v = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @view_without_memory_space(%a: index) {
  // expected-error @+1 {{requires attribute 'memory_space'}}
  %v = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #s} : memref<4x8xf16>
  return
}

// -----

func.func @view_without_coordinate_set(%a: index) {
  // expected-error @+1 {{requires attribute 'coordinate_set' (the global coordinates the view covers); for these sizes add `coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>` to its attributes}}
  %v = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @view_memory_space_string(%a: index) {
  // expected-error @+1 {{attribute 'memory_space' failed to satisfy constraint}}
  %v = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #s, memory_space = "DDR"} : memref<4x8xf16>
  return
}

// -----

func.func @distributed_result(%a: memref<4x8xf16>) {
  // expected-error @+1 {{result must be a memref type}}
  %d = ktdp.construct_distributed_memory_view (%a : memref<4x8xf16>) : tensor<8x8xf16>
  return
}

// -----

func.func @distributed_input(%a: tensor<4x8xf16>) {
  // expected-error @+1 {{all inputs must be memref types}}
  %d = ktdp.construct_distributed_memory_view (%a : tensor<4x8xf16>) : memref<8x8xf16>
  return
}

// -----

func.func @distributed_element_type(%a: memref<4x8xf32>) {
  // expected-error @+1 {{all input memrefs must have the same element type as the result}}
  %d = ktdp.construct_distributed_memory_view (%a : memref<4x8xf32>) : memref<8x8xf16>
  return
}

// -----

func.func @distributed_rank(%a: memref<32xf16>) {
  // expected-error @+1 {{all input memrefs must have the same rank as the result}}
  %d = ktdp.construct_distributed_memory_view (%a : memref<32xf16>) : memref<8x8xf16>
  return
}

// -----

func.func @load_into_memref(%t: !ktdp.access_tile<4x8xindex>) {
  // expected-error @+1 {{result #0 must be tensor of any type values, but got 'memref<4x8xf16>'}}
  %x = ktdp.load %t : <4x8xindex> -> memref<4x8xf16>
  return
}

// -----

func.func @load_unranked(%t: !ktdp.access_tile<4x8xindex>) {
  // expected-error @+1 {{result must be a ranked tensor}}
  %x = ktdp.load %t : <4x8xindex> -> tensor<*xf16>
  return
}

// -----

func.func @load_shape(%t: !ktdp.access_tile<4x8xindex>) {
  // expected-error @+1 {{access tile shape must match result tensor shape}}
  %x = ktdp.load %t : <4x8xindex> -> tensor<8x4xf16>
  return
}

// -----

func.func @load_dynamic_shape(%t: !ktdp.access_tile<?x8xindex>) {
  // Shapes compare exactly, `?` included.
  // expected-error @+1 {{access tile shape must match result tensor shape}}
  %x = ktdp.load %t : <?x8xindex> -> tensor<4x8xf16>
  return
}

// -----

func.func @store_memref(%t: !ktdp.access_tile<4x8xindex>, %m: memref<4x8xf16>) {
  // expected-error @+1 {{operand #0 must be tensor of any type values, but got 'memref<4x8xf16>'}}
  ktdp.store %m, %t : memref<4x8xf16>, <4x8xindex>
  return
}

// -----

func.func @store_unranked(%t: !ktdp.access_tile<4x8xindex>, %d: tensor<*xf16>) {
  // expected-error @+1 {{data_tile must be a ranked tensor}}
  ktdp.store %d, %t : tensor<*xf16>, <4x8xindex>
  return
}

// -----

func.func @store_shape(%t: !ktdp.access_tile<4x8xindex>, %d: tensor<4x4xf16>) {
  // expected-error @+1 {{data tile shape must match access tile shape}}
  ktdp.store %d, %t : tensor<4x4xf16>, <4x8xindex>
  return
}

// -----

func.func @store_wrong_tile_type(%d: tensor<4x8xf16>, %t: tensor<4x8xindex>) {
  // expected-error @+1 {{expected '!ktdp.access_tile' type, but got 'tensor<4x8xindex>'}}
  ktdp.store %d, %t : tensor<4x8xf16>, tensor<4x8xindex>
  return
}

// -----

func.func @extract_value_type(%m: !ktdp.runtime_arg<index, granularity=3>) {
  // expected-error @+1 {{result type (i32) must match runtime_arg underlying type (index) when extracting value}}
  %v = ktdp.runtime_arg_extract value from %m : <index, granularity=3> -> i32
  return
}

// -----

func.func @extract_missing_granularity(%m: !ktdp.runtime_arg<index, upperbound=8>) {
  // expected-error @+1 {{cannot extract granularity from runtime_arg that doesn't have one}}
  %v = ktdp.runtime_arg_extract granularity from %m : <index, upperbound=8> -> index
  return
}

// -----

func.func @extract_missing_upperbound(%m: !ktdp.runtime_arg<index, granularity=3>) {
  // expected-error @+1 {{cannot extract upperbound from runtime_arg that doesn't have one}}
  %v = ktdp.runtime_arg_extract upperbound from %m : <index, granularity=3> -> index
  return
}

// -----

func.func @extract_granularity_type(%m: !ktdp.runtime_arg<i32, granularity=3>) {
  // expected-error @+1 {{result type must be index when extracting granularity, but got i32}}
  %v = ktdp.runtime_arg_extract granularity from %m : <i32, granularity=3> -> i32
  return
}

// -----

func.func @extract_upperbound_type(%m: !ktdp.runtime_arg<index, upperbound=9>) {
  // expected-error @+1 {{result type must be index when extracting upperbound, but got i64}}
  %v = ktdp.runtime_arg_extract upperbound from %m : <index, upperbound=9> -> i64
  return
}

// -----

func.func @extract_unknown_kind(%m: !ktdp.runtime_arg<index>) {
  // expected-error @+1 {{attribute 'kind' failed to satisfy constraint}}
  %v = "ktdp.runtime_arg_extract"(%m) <{kind = 7 : i32}> : (!ktdp.runtime_arg<index>) -> index
  return
}

// -----

func.func @extract_bad_keyword(%m: !ktdp.runtime_arg<index>) {
  // expected-error @+1 {{expected one of value, granularity, upperbound}}
  %v = ktdp.runtime_arg_extract size from %m : <index> -> index
  return
}
