// RUN: dfsched-opt %s -cse -canonicalize --print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=AFTER
// RUN: dfsched-opt %s -cse --mlir-print-ir-before-all -o /dev/null 2>&1 | filecheck %s --check-prefix=BEFORE
// RUN: dfsched-opt %s -cse -canonicalize --dump-pass-pipeline -o /dev/null 2>&1 | filecheck %s --check-prefix=PIPE

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  func.return %d : i32
}

// AFTER: // -----// IR Dump After {{.*}} (cse) //----- //
// AFTER: arith.addi
// AFTER-NOT: arith.addi
// AFTER: // -----// IR Dump After {{.*}} (canonicalize) //----- //

// BEFORE: // -----// IR Dump Before {{.*}} (cse) //----- //
// BEFORE: arith.addi
// BEFORE: arith.addi

// PIPE:      builtin.module(
// PIPE-NEXT:   cse,
// PIPE-NEXT:   canonicalize
// PIPE-NEXT: )
