// Passes given as flags of their own run in command-line order, with MLIR's option syntax,
// and the single-dash spelling of every long flag is accepted.
// RUN: dfsched-opt %s -cse -canonicalize | filecheck %s
// RUN: dfsched-opt %s --pass-pipeline='builtin.module(cse, canonicalize)' | filecheck %s
// RUN: dfsched-opt %s -p cse,canonicalize | filecheck %s
// RUN: dfsched-opt %s -pass-pipeline="builtin.module(func.func(cse))" | filecheck %s

func.func @twice(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  func.return %d : i32
}

// CHECK-LABEL: func.func @twice
// CHECK: %[[SUM:.*]] = arith.addi
// CHECK-NOT: arith.addi
// CHECK: arith.muli %[[SUM]], %[[SUM]] : i32

// `--disable-<pass>` turns a pass into a no-op, wherever it appears in the pipeline.
// RUN: dfsched-opt %s -cse -disable-cse | filecheck %s --check-prefix=DISABLED
// DISABLED: arith.addi
// DISABLED: arith.addi
