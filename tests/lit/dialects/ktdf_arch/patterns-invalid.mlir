// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

ktdf_arch.device @not_a_pattern {
  // expected-error @below {{'ktdf_arch.patterns' op expects child ops to be 'pdl.pattern'}}
  patterns ["cleanup"] {
    // expected-note @below {{unexpected child is here}}
    %c = arith.constant 3 : i64
  }
}

// -----

ktdf_arch.device @numbered_groups {
  // expected-error @below {{expected an array of strings for the pattern groups}}
  patterns [1, 2] {}
}

// -----

ktdf_arch.device @patterns_in_group {
  group share() {
    // expected-error @below {{expects parent op 'ktdf_arch.device'}}
    patterns {}
  }
}
