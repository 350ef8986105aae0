// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics
// RUN: not dfsched-opt %s -split-input-file -allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=LOC

// Every verifier rule of ktdf.pipeline, ktdf.stage and ktdf.private, plus their syntax errors.

func.func @foreign_child_in_pipeline() {
  // expected-error @+1 {{immediate children must be 'ktdf.stage' or 'ktdf.private' ops}}
  ktdf.pipeline {
    // expected-note @+1 {{found 'probe.stray' op}}
    "probe.stray"() : () -> ()
  }
  return
}
// LOC: pipeline-stage-private-invalid.mlir:[[# @LINE - 6]]:3: error: 'ktdf.pipeline' op immediate children
// LOC: pipeline-stage-private-invalid.mlir:[[# @LINE - 5]]:5: note: found 'probe.stray' op

// -----

func.func @registered_foreign_child() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{immediate children must be 'ktdf.stage' or 'ktdf.private' ops}}
  ktdf.pipeline {
    // expected-note @+1 {{found 'arith.addi' op}}
    %x = arith.addi %c0, %c0 : index
  }
  return
}

// -----

func.func @two_private_regions() {
  // expected-error @+1 {{at most one immediate 'ktdf.private' child is allowed}}
  ktdf.pipeline {
    // expected-note @+1 {{previous 'ktdf.private' is here}}
    ktdf.private {
    }
    ktdf.private {
    }
  }
  return
}

// -----

func.func @modulo_zero() {
  // expected-error @+1 {{'ktdf.pipeline' op attribute 'modulo' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  ktdf.pipeline modulo(size: 0) {
  }
  return
}

// -----

func.func @modulo_needs_size_keyword() {
  // expected-error @+1 {{Expected 'size'}}
  ktdf.pipeline modulo(2) {
  }
  return
}

// -----

func.func @stage_outside_pipeline() {
  // expected-error @+1 {{expects parent op 'ktdf.pipeline'}}
  ktdf.stage depends_in(none) depends_out(none) {
  }
  return
}

// -----

// A token that is a block argument has no defining op: reported, not a crash.
func.func @token_from_block_argument(%t: !ktdf.token) {
  ktdf.pipeline {
    // expected-error @+1 {{depends_in operand must originate from ktdf.create_token or ktdf.private operation yielding a token created by ktdf.create_token}}
    ktdf.stage depends_in(%t) depends_out(none) {
    }
  }
  return
}

// -----

func.func @token_from_other_op() {
  %t = "probe.make"() : () -> !ktdf.token
  ktdf.pipeline {
    // expected-error @+1 {{depends_out operand must originate from ktdf.create_token}}
    ktdf.stage depends_in(none) depends_out(%t) {
    }
  }
  return
}

// -----

func.func @private_yields_foreign_token() {
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      %k = "probe.make"() : () -> !ktdf.token
      ktdf.private_yield %k : !ktdf.token
    }
    // expected-error @+1 {{depends_out operand must originate from ktdf.create_token or ktdf.private operation yielding a token created by ktdf.create_token}}
    ktdf.stage depends_in(none) depends_out(%t) {
    }
  }
  return
}

// -----

func.func @private_yields_block_argument(%k: !ktdf.token) {
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      ktdf.private_yield %k : !ktdf.token
    }
    // expected-error @+1 {{depends_in operand must originate from ktdf.create_token}}
    ktdf.stage depends_in(%t) depends_out(none) {
    }
  }
  return
}

// -----

func.func @token_of_wrong_type() {
  // expected-note @+1 {{prior use here}}
  %t = "probe.make"() : () -> i32
  ktdf.pipeline {
    // expected-error @+1 {{use of value '%t' expects different type than prior uses: '!ktdf.token' vs 'i32'}}
    ktdf.stage depends_in(%t) depends_out(none) {
    }
  }
  return
}

// -----

func.func @empty_token_list() {
  ktdf.pipeline {
    // expected-error @+1 {{Expected 'none'}}
    ktdf.stage depends_in() depends_out(none) {
    }
  }
  return
}

// -----

func.func @private_outside_pipeline() {
  // expected-error @+1 {{expects parent op 'ktdf.pipeline'}}
  ktdf.private {
  }
  return
}

// -----

func.func @yield_count_mismatch() {
  ktdf.pipeline {
    // expected-error @+1 {{yield operands count (1) must match results count (2)}}
    %r:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t : !ktdf.token
    }
  }
  return
}

// -----

func.func @yield_type_mismatch() {
  ktdf.pipeline {
    // expected-error @+1 {{yield operand type !ktdf.token must match result type memref<4xf16>}}
    %r = ktdf.private -> (memref<4xf16>) {
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t : !ktdf.token
    }
  }
  return
}

// -----

func.func @yield_outside_private() {
  // expected-error @+1 {{expects parent op 'ktdf.private'}}
  ktdf.private_yield
}

// -----

func.func @private_without_yield() {
  ktdf.pipeline {
    "ktdf.private"() ({
      // expected-error @+1 {{terminates block in single-block region but is not a terminator}}
      %c = "arith.constant"() <{value = 0 : index}> : () -> index
    }) : () -> ()
  }
  return
}

// -----

func.func @token_of_other_type() {
  // expected-error @+1 {{index should be of base attribute ktdf.token}}
  %t = ktdf.create_token : index
  return
}
