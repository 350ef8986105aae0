// The verifier checks dominance as MLIR's does (issue 19, item 4): a use before its
// definition is a located error on the use, with a note on the definition.
// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @use_before_def() -> index {
  // expected-error @below {{operand #0 does not dominate this use}}
  %b = arith.addi %a, %a : index
  // expected-note @below {{operand defined here}}
  %a = arith.constant 1 : index
  return %b : index
}

// -----

func.func @own_region() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{operand defined here}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%x = %c0) -> (index) {
    // expected-error @below {{operand #1 does not dominate this use}}
    %y = arith.addi %x, %r : index
    scf.yield %y : index
  }
  return
}

// -----

func.func @branch(%c: i1) -> index {
  cf.cond_br %c, ^left, ^right
^left:
  // expected-note @below {{operand defined here}}
  %a = arith.constant 1 : index
  cf.br ^join
^right:
  cf.br ^join
^join:
  // expected-error @below {{operand #0 does not dominate this use}}
  return %a : index
}

// -----

// Valid: block arguments and values of dominating blocks, a graph-region module body, and
// an unreachable block (not checked, as in MLIR).
func.func @valid(%c: i1, %v: index) -> index {
  %a = arith.constant 1 : index
  cf.cond_br %c, ^left, ^right
^left:
  cf.br ^join(%a : index)
^right:
  cf.br ^join(%v : index)
^join(%y: index):
  return %y : index
^dead:
  return %w : index
^dead2:
  %w = arith.constant 2 : index
  cf.br ^dead
}
