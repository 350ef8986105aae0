// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// The yield must produce one exec unit per group result.
ktdf_arch.device @missing_yield {
  // expected-error @below {{region branch point has 0 operands, but region successor needs 1 inputs}}
  %g = group share() {
    %u = exec_unit
    // expected-note @below {{region branch point}}
    yield
  } -> exec_unit
}

// -----

ktdf_arch.device @extra_yield {
  // expected-error @below {{region branch point has 2 operands, but region successor needs 1 inputs}}
  %g = group share() {
    %u = exec_unit
    %v = exec_unit
    // expected-note @below {{region branch point}}
    yield %u, %v
  } -> exec_unit
}

// -----

// Groups are isolated: outer values must be shared explicitly.
ktdf_arch.device @uncaptured {
  %m = memory {kind = "M"}
  group share() {
    %u = exec_unit
    // expected-error @below {{use of undeclared SSA value name}}
    datapath %m to %u : memory, exec_unit
  }
}

// -----

// Only memories can be shared.
ktdf_arch.device @share_unit {
  // expected-note @below {{prior use here}}
  %u = exec_unit
  // expected-error @below {{use of value '%u' expects different type than prior uses: '!ktdf_arch.memory' vs '!ktdf_arch.exec_unit'}}
  group share(%u) {
  }
}

// -----

ktdf_arch.device @foreign_in_group {
  // expected-error @below {{'ktdf_arch.group' op expects child ops to be resources}}
  group share() {
    // expected-note @below {{unexpected child is here}}
    %c = arith.constant 1 : index
  }
}

// -----

// Resources live in devices.
func.func @stray() {
  // expected-error @below {{'ktdf_arch.group' op expects parent op to be 'ktdf_arch.device' or another resource}}
  ktdf_arch.group share() {
  }
  func.return
}
