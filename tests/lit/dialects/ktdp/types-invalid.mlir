// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{tile element type must be 'index', but got: f16}}
func.func @tile_element_not_index(%a: !ktdp.access_tile<32x64xf16>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg underlying type must be a builtin type (index, integer, or float), but got: tensor<4xf16>}}
func.func @runtime_arg_not_scalar(%a: !ktdp.runtime_arg<tensor<4xf16>>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg granularity must be positive, but got: 0}}
func.func @granularity_zero(%a: !ktdp.runtime_arg<index, granularity=0>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg upperbound must be positive, but got: -3}}
func.func @upperbound_negative(%a: !ktdp.runtime_arg<index, upperbound=-3>) {
  return
}

// -----

// expected-error @+1 {{duplicate 'granularity' keyword}}
func.func @granularity_twice(%a: !ktdp.runtime_arg<index, granularity=2, granularity=4>) {
  return
}

// -----

// expected-error @+1 {{duplicate 'upperbound' keyword}}
func.func @upperbound_twice(%a: !ktdp.runtime_arg<index, upperbound=2, granularity=1, upperbound=4>) {
  return
}

// -----

// expected-error @+1 {{expected 'granularity' or 'upperbound' keyword}}
func.func @unknown_clause(%a: !ktdp.runtime_arg<index, alignment=2>) {
  return
}

// -----

// expected-error @+1 {{tile_future must carry at least one partial type}}
func.func @future_without_partials(%a: !ktdp.tile_future<(), groups = affine_set<(g) : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have exactly one dimension (g)}}
func.func @future_groups_two_dims(%a: !ktdp.tile_future<(tensor<4xf16>), groups = affine_set<(g, h) : (g == 0, h == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have no symbols}}
func.func @future_groups_symbol(%a: !ktdp.tile_future<(tensor<4xf16>), groups = affine_set<(g)[n] : (g >= 0, n - g - 1 >= 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future partial types must be ranked tensors, but got: f16}}
func.func @future_scalar_partial(%a: !ktdp.tile_future<(f16), groups = affine_set<(g) : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{expected memory space kind 'global' or 'ct_local'}}
func.func @unknown_memory_kind(%a: memref<8xf16, #ktdp.memory_space<HBM>>) {
  return
}

// -----

// expected-error @+1 {{ct_id must be non-negative, but got: -2}}
func.func @negative_ct_id(%a: memref<8xf16, #ktdp.memory_space<ct_local, ct_id = -2>>) {
  return
}

// -----

// expected-error @+1 {{ct_id is only valid for ct_local memory spaces, but got memory space 'global' with ct_id = 3}}
func.func @ct_id_on_global(%a: memref<8xf16, #ktdp.memory_space<global, ct_id = 3>>) {
  return
}
