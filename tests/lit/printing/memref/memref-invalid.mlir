// RUN: dfsched-opt %s --split-input-file --verify-diagnostics

// Bad custom syntax is a located parse error, never a traceback.

func.func @cast_needs_memref(%t: tensor<4xf32>) {
  // expected-error @+1 {{expected a memref type}}
  %0 = memref.cast %t : tensor<4xf32> to memref<4xf32>
  return
}

// -----

func.func @copy_needs_to(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{xpected 'to'}}
  memref.copy %a, %b : memref<4xf32>, memref<4xf32>
  return
}

// -----

// expected-error @+1 {{expected a dense elements initial value}}
memref.global @bad : memref<4xf32> = 1.0

// -----

// expected-error @+1 {{alignment attribute value 3 is not a power of 2}}
memref.global @misaligned : memref<4xf32> = dense<0.0> {alignment = 3}
