// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Properties: names, the ops they belong on, and their values.

ktdf_arch.device @unknown_property {
  // expected-error @below {{unrecognized 'ktdf_arch' intrisic: ktdf_arch.clock}}
  // expected-note @below {{expected one of: ktdf_arch.bandwidth, ktdf_arch.core_links, ktdf_arch.features, ktdf_arch.maps_to, ktdf_arch.overlaps, ktdf_arch.transfer_granularity}}
  %u = exec_unit {ktdf_arch.clock = 1000}
}

// -----

ktdf_arch.device @bandwidth_on_memory {
  // expected-error @below {{'ktdf_arch.bandwidth' intrisic only valid on links}}
  %m = memory {kind = "M", ktdf_arch.bandwidth = 8}
}

// -----

ktdf_arch.device @bandwidth_i32 {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{'ktdf_arch.bandwidth' intrisic requires 64-bit integer attribute}}
  datapath {ktdf_arch.bandwidth = 8 : i32} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @bandwidth_negative {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{'ktdf_arch.bandwidth' intrisic value must be > 0}}
  datapath {ktdf_arch.bandwidth = -64} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @features_list {
  // expected-error @below {{'ktdf_arch.features' intrisic requires dictionary attribute}}
  %u = exec_unit {ktdf_arch.features = [1, 2]}
}

// -----

ktdf_arch.device @maps_to_resource {
  // expected-error @below {{'ktdf_arch.maps_to' intrisic only valid on mappable ops}}
  %m = memory {kind = "M", ktdf_arch.maps_to = "M"}
}

// -----

ktdf_arch.device @overlaps_scalar {
  // expected-error @below {{'ktdf_arch.overlaps' intrisic requires array attribute}}
  %u = exec_unit {ktdf_arch.overlaps = "bus"}
}

// -----

ktdf_arch.device @granularity_on_unit {
  // expected-error @below {{'ktdf_arch.transfer_granularity' intrisic only valid on links}}
  %u = exec_unit {ktdf_arch.transfer_granularity = array<i64: 64>}
}

// -----

ktdf_arch.device @granularity_i32 {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{requires dense 64-bit integer array attribute}}
  datapath {ktdf_arch.transfer_granularity = array<i32: 64>} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @granularity_negative {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{granularity must be >= 0}}
  datapath {ktdf_arch.transfer_granularity = array<i64: 64, -1>} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @granularity_twice {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{repeated granularity (32)}}
  datapath {ktdf_arch.transfer_granularity = array<i64: 32, 64, 32>} %a to %b : exec_unit, exec_unit
}

// -----

// Features.

ktdf_arch.device @unknown_feature {
  // expected-error @below {{unrecognized 'ktdf_arch' feature: ktdf_arch.feature.teleport}}
  // expected-note @below {{expected one of: ktdf_arch.feature.address_list, ktdf_arch.feature.compute, ktdf_arch.feature.load, ktdf_arch.feature.matrix, ktdf_arch.feature.queue, ktdf_arch.feature.simd, ktdf_arch.feature.store}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.teleport}}
}

// -----

// Features of other dialects are theirs to check.
ktdf_arch.device @foreign_feature {
  %u = exec_unit {ktdf_arch.features = {vendor.fast_math = 3}}
}

// -----

ktdf_arch.device @compute_memory {
  // expected-error @below {{'ktdf_arch.feature.compute' intrisic only valid on execution units}}
  %m = memory {kind = "M", ktdf_arch.features = {ktdf_arch.feature.compute}}
}

// -----

ktdf_arch.device @store_on_link {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{'ktdf_arch.feature.store' intrisic only valid on execution units}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.store}} %a to %b : exec_unit, exec_unit
}

// -----

// ktdf_arch.feature.address_list (dfsched): the memory a gather/scatter unit reads its lists from.

ktdf_arch.device @address_list_unit {
  // expected-error @below {{'ktdf_arch.feature.address_list' intrisic requires dictionary attribute}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.address_list}}
}

// -----

ktdf_arch.device @address_list_no_memory {
  // expected-error @below {{'ktdf_arch.feature.address_list' intrisic requires attribute 'memory' (the memory kind the address lists are read from)}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.address_list = {}}}
}

// -----

ktdf_arch.device @address_list_memory_integer {
  // expected-error @below {{'ktdf_arch.feature.address_list' intrisic attribute 'memory' requires a memory kind string}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.address_list = {memory = 3}}}
}

// -----

ktdf_arch.device @address_list_unknown_field {
  // expected-error @below {{'ktdf_arch.feature.address_list' intrisic unknown attribute 'depth' (expected 'memory')}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.address_list = {memory = "L1", depth = 2}}}
}

// -----

ktdf_arch.device @address_list_on_memory {
  // expected-error @below {{'ktdf_arch.feature.address_list' intrisic only valid on execution units}}
  %m = memory {kind = "M", ktdf_arch.features = {ktdf_arch.feature.address_list = {memory = "M"}}}
}

// -----

ktdf_arch.device @load_integer {
  // expected-error @below {{'ktdf_arch.feature.load' intrisic requires unit or dictionary attribute}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = 4}}
}

// -----

ktdf_arch.device @word_size_array {
  // expected-error @below {{attribute 'word_size' requires map from attribute to 64-bit integer}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {word_size = [4]}}}
}

// -----

ktdf_arch.device @word_size_zero {
  // expected-error @below {{attribute 'word_size["SRAM"]' must be >= 0}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"SRAM" = 0>}}}
}

// -----

ktdf_arch.device @access_scalar {
  // expected-error @below {{attribute 'access_granularity' requires map from attribute to array of dictionary attribtues}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"SRAM" = 8>}}}
}

// -----

ktdf_arch.device @access_without_size {
  // expected-error @below {{attribute 'access_granularity["SRAM"]' attribute 'size_in_words' requires 64-bit integer}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"SRAM" = [{align_in_words = 4}]>}}}
}

// -----

ktdf_arch.device @access_zero_size {
  // expected-error @below {{attribute 'access_granularity["SRAM"]' attribute 'size_in_words' must be >= 0}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"SRAM" = [{size_in_words = 0}]>}}}
}

// -----

ktdf_arch.device @access_bad_align {
  // expected-error @below {{attribute 'access_granularity["SRAM"]' attribute 'align_in_words' must be >= 0}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"SRAM" = [{size_in_words = 8, align_in_words = -8}]>}}}
}

// -----

ktdf_arch.device @splat_value {
  // expected-error @below {{attribute 'splat' requires unit}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {splat = true}}}
}

// -----

ktdf_arch.device @zero_pad_value {
  // expected-error @below {{attribute 'zero_pad' requires unit}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {zero_pad = "yes"}}}
}

// -----

ktdf_arch.device @lanes_by_name {
  // expected-error @below {{attribute 'lanes' requires map from type to 64-bit integer}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<"f16" = 64>}}}
}

// -----

ktdf_arch.device @ops_not_names {
  // expected-error @below {{attribute 'ops' requires map from type to array of op names}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {ops = #ktdf_arch.map<f16 = "arith.addf">}}}
}

// -----

ktdf_arch.device @ops_unknown_op {
  // expected-error @below {{attribute 'ops[f16]' names 'linalg.matmul', not an element-wise arith/math op or spyreop intrinsic}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.simd = {ops = #ktdf_arch.map<f16 = ["arith.addf", "linalg.matmul"]>}}}
}

// -----

ktdf_arch.device @simd_on_memory {
  // expected-error @below {{'ktdf_arch.feature.simd' intrisic only valid on execution units}}
  %m = memory {kind = "M", ktdf_arch.features = {ktdf_arch.feature.simd}}
}

// -----

ktdf_arch.device @queue_on_unit {
  // expected-error @below {{'ktdf_arch.feature.queue' intrisic only valid on links}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.queue}}
}

// -----

ktdf_arch.device @queue_ordered_value {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{attribute 'ordered' requires unit}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {ordered = 1}}} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @queue_size_text {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{attribute 'size' requires 64-bit integer}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {size = "4K"}}} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @queue_size_zero {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{'size' must be > 0}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {size = 0}}} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @queue_depth_negative {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{'depth' must be > 0}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = -2}}} %a to %b : exec_unit, exec_unit
}

// -----

ktdf_arch.device @queue_value {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{'ktdf_arch.feature.queue' intrisic requires unit or dictionary attribute}}
  datapath {ktdf_arch.features = {ktdf_arch.feature.queue = 16}} %a to %b : exec_unit, exec_unit
}

// -----

// feature.matrix: a matrix-multiply unit (tile M x N x K per step, operand -> accumulator
// types, cycles per tile step); each field is checked.

ktdf_arch.device @matrix_not_dict {
  // expected-error @below {{'ktdf_arch.feature.matrix' intrisic requires dictionary attribute}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.matrix}}
}

// -----

ktdf_arch.device @matrix_tile_two_sizes {
  // expected-error @below {{attribute 'tile' requires array<i64: M, N, K> of three sizes > 0}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.matrix = {tile = array<i64: 8, 8>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = 1}}}
}

// -----

ktdf_arch.device @matrix_tile_zero {
  // expected-error @below {{attribute 'tile' requires array<i64: M, N, K> of three sizes > 0}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.matrix = {tile = array<i64: 8, 0, 8>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = 1}}}
}

// -----

ktdf_arch.device @matrix_integer_accumulator {
  // expected-error @below {{attribute 'types' requires map from operand type to an accumulator type (f16, f32, f64)}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.matrix = {tile = array<i64: 8, 8, 8>, types = #ktdf_arch.map<f16 = i32>, cycles_per_tile = 1}}}
}

// -----

ktdf_arch.device @matrix_zero_cycles {
  // expected-error @below {{attribute 'cycles_per_tile' requires 64-bit integer > 0}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.matrix = {tile = array<i64: 8, 8, 8>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = 0}}}
}

// -----

ktdf_arch.device @matrix_unknown_field {
  // expected-error @below {{unknown attribute 'lanes' (expected one of: tile, types, cycles_per_tile)}}
  %u = exec_unit {ktdf_arch.features = {ktdf_arch.feature.matrix = {lanes = 4}}}
}

// -----

ktdf_arch.device @matrix_on_memory {
  // expected-error @below {{'ktdf_arch.feature.matrix' intrisic only valid on execution units}}
  %m = memory {kind = "M", ktdf_arch.features = {ktdf_arch.feature.matrix = {tile = array<i64: 8, 8, 8>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = 1}}}
}

// -----

// ktdf_arch.core_links: on the device only, a known topology, bandwidth > 0, latency >= 0.

ktdf_arch.device @core_links_on_memory {
  // expected-error @below {{'ktdf_arch.core_links' intrisic only valid on the device}}
  %m = memory {kind = "M", ktdf_arch.core_links = {topology = "ring", bandwidth = 8, latency = 1}}
}

// -----

// expected-error @below {{'ktdf_arch.core_links' intrisic attribute 'topology' requires one of: 'ring'}}
ktdf_arch.device @core_links_mesh attributes {ktdf_arch.core_links = {topology = "mesh", bandwidth = 8, latency = 1}} {
}

// -----

// expected-error @below {{'ktdf_arch.core_links' intrisic attribute 'bandwidth' requires 64-bit integer >= 1}}
ktdf_arch.device @core_links_no_bandwidth attributes {ktdf_arch.core_links = {topology = "ring", latency = 1}} {
}

// -----

// expected-error @below {{'ktdf_arch.core_links' intrisic attribute 'latency' requires 64-bit integer >= 0}}
ktdf_arch.device @core_links_negative_latency attributes {ktdf_arch.core_links = {topology = "ring", bandwidth = 8, latency = -1}} {
}

// -----

// expected-error @below {{'ktdf_arch.core_links' intrisic unknown attribute 'width' (expected one of: topology, bidirectional, bandwidth, latency)}}
ktdf_arch.device @core_links_unknown attributes {ktdf_arch.core_links = {topology = "ring", bandwidth = 8, latency = 1, width = 2}} {
}

// -----

// expected-error @below {{'ktdf_arch.core_links' intrisic attribute 'bidirectional' requires unit}}
ktdf_arch.device @core_links_bidirectional_value attributes {ktdf_arch.core_links = {topology = "ring", bidirectional = 1, bandwidth = 8, latency = 1}} {
}

// -----

// expected-error @below {{'ktdf_arch.core_links' intrisic requires dictionary attribute}}
ktdf_arch.device @core_links_not_a_dictionary attributes {ktdf_arch.core_links = "ring"} {
}
