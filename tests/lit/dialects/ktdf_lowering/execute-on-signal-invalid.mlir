// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules and syntax errors of the ktdf_lowering ops.

func.func @unit_not_index(%u: i32) {
  // expected-error @+1 {{expects different type than prior uses: 'index' vs 'i32'}}
  ktdf_lowering.signal %u, %u
  return
}

// -----

func.func @execute_on_with_block_arguments(%u: index) {
  // expected-error @+1 {{body must not have block arguments}}
  "ktdf_lowering.execute_on"(%u) ({
  ^bb0(%x: index):
  }) : (index) -> ()
  return
}

// -----

func.func @execute_on_two_blocks(%u: index) {
  // expected-error @+1 {{Region 'body' at position 0 expected a single block, but got 2 blocks}}
  "ktdf_lowering.execute_on"(%u) ({
  ^bb0:
    "cf.br"()[^bb1] : () -> ()
  ^bb1:
  }) : (index) -> ()
  return
}

// -----

func.func @unit_list_with_parentheses(%u: index) {
  // expected-error @+1 {{expected a region}}
  ktdf_lowering.execute_on(%u) {
  }
  return
}
