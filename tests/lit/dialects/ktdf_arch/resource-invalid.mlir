// RUN: dfsched-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

ktdf_arch.device @no_kind {
  // expected-error @below {{attribute 'kind' requires valid memory space}}
  %m = memory
}

// -----

ktdf_arch.device @float_kind {
  // expected-error @below {{attribute 'kind' requires valid memory space}}
  %m = memory {kind = 0.5}
}

// -----

ktdf_arch.device @type_kind {
  // expected-error @below {{attribute 'kind' requires valid memory space}}
  %m = memory {kind = f16}
}

// -----

ktdf_arch.device @empty_memory {
  // expected-error @below {{attribute 'size' failed to satisfy constraint: 64-bit integer attribute whose minimum value is 1}}
  %m = memory {kind = "M", size = 0}
}

// -----

ktdf_arch.device @text_size {
  // expected-error @below {{64-bit integer attribute}}
  %m = memory {kind = "M", size = "1 KiB"}
}

// -----

ktdf_arch.device @numeric_id {
  // expected-error @below {{attribute 'id' failed to satisfy constraint: string attribute}}
  %u = "ktdf_arch.exec_unit"() <{id = 7}> : () -> !ktdf_arch.exec_unit
}

// -----

ktdf_arch.device @loop {
  %u = exec_unit
  // expected-error @below {{can't link resource to itself}}
  datapath %u to %u : exec_unit, exec_unit
}

// -----

ktdf_arch.device @fruit {
  %a = exec_unit
  %b = exec_unit
  // expected-error @below {{expected 'ktdf_arch' type mnemonic, got 'banana'}}
  datapath %a to %b : exec_unit, banana
}

// -----

ktdf_arch.device @wrong_endpoint {
  %a = exec_unit
  %i = "test.value"() : () -> i32
  // expected-error @below {{operand 'target' must be memory, exec_unit or port, but got i32}}
  "ktdf_arch.datapath"(%a, %i) : (!ktdf_arch.exec_unit, i32) -> ()
}

// -----

ktdf_arch.device @small_matrix {
  // expected-error @below {{expected connectivity shape {3, 3}, but got {2, 2}}}
  %p:3 = switch [3] {connectivity = dense<true> : tensor<2x2xi1>}
}

// -----

ktdf_arch.device @int_matrix {
  // expected-error @below {{attribute 'connectivity' failed to satisfy constraint: directed sparse or dense adjacency matrix}}
  %p:2 = switch [2] {connectivity = dense<1> : tensor<2x2xi32>}
}

// -----

func.func @unit_outside() {
  // expected-error @below {{'ktdf_arch.exec_unit' op expects parent op to be 'ktdf_arch.device' or another resource}}
  %u = ktdf_arch.exec_unit
  func.return
}

// -----

func.func @link_outside(%a: !ktdf_arch.exec_unit, %b: !ktdf_arch.exec_unit) {
  // expected-error @below {{'ktdf_arch.datapath' op expects parent op to be 'ktdf_arch.device' or a resource}}
  ktdf_arch.datapath %a to %b : exec_unit, exec_unit
  func.return
}

// -----

func.func @yield_outside() {
  // expected-error @below {{expects parent op 'ktdf_arch.group'}}
  "ktdf_arch.yield"() : () -> ()
}
