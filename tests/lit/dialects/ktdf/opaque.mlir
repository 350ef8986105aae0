// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s -cse -canonicalize | filecheck %s --check-prefix=EFFECTS

// ktdf.opaque: a target intrinsic with destination-passing style; `ins`/`outs` go on
// their own lines, indented two spaces past the op; results are named after the template.

// CHECK-LABEL: func.func @on_tensors
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<64xf16>, %[[EPS:[^:]*]]: f32)
// CHECK-NEXT:    %[[OUT:.*]] = tensor.empty() : tensor<64xf16>
// CHECK-NEXT:    %[[R:RSQRT_EPS]] = ktdf.opaque "RSQRT_EPS" {lanes = 64 : i64} -> tensor<64xf16>
// CHECK-NEXT:  {{^      }}ins(%[[X]], %[[EPS]]: tensor<64xf16>, f32)
// CHECK-NEXT:  {{^      }}outs(%[[OUT]]: tensor<64xf16>)
// CHECK-NEXT:    return %[[R]]
func.func @on_tensors(%x: tensor<64xf16>, %eps: f32) -> tensor<64xf16> {
  %out = tensor.empty() : tensor<64xf16>
  %r = ktdf.opaque "RSQRT_EPS" {lanes = 64} -> tensor<64xf16>
    ins(%x, %eps: tensor<64xf16>, f32)
    outs(%out: tensor<64xf16>)
  return %r : tensor<64xf16>
}

// On memrefs there are no results; empty lists print as `ins()`.
// CHECK-LABEL: func.func @on_memrefs
// CHECK-NEXT:    ktdf.opaque "ZERO"
// CHECK-NEXT:      ins()
// CHECK-NEXT:      outs(%{{.*}}: memref<64xf16, "L1">)
// CHECK-NEXT:    ktdf.opaque "COPY"
// CHECK-NEXT:      ins(%{{.*}}: memref<64xf16, "L1">)
// CHECK-NEXT:      outs(%{{.*}}, %{{.*}}: memref<64xf16, "L1">, memref<64xf16, "L1">)
func.func @on_memrefs(%a: memref<64xf16, "L1">, %b: memref<64xf16, "L1">) {
  ktdf.opaque "ZERO" ins() outs(%a: memref<64xf16, "L1">)
  ktdf.opaque "COPY" ins(%a: memref<64xf16, "L1">) outs(%b, %a: memref<64xf16, "L1">, memref<64xf16, "L1">)
  return
}

// Memory effects follow linalg: on tensors the op is pure (CSE merges twins, an unused
// one is dead); on memrefs it reads and writes, so it stays.
// EFFECTS-LABEL: func.func @effects
// EFFECTS-NEXT:    %[[OUT:.*]] = tensor.empty
// EFFECTS-NEXT:    %[[R:.*]] = ktdf.opaque "NEG"
// EFFECTS-NEXT:      ins
// EFFECTS-NEXT:      outs
// EFFECTS-NEXT:    ktdf.opaque "ZERO"
// EFFECTS-NEXT:      ins()
// EFFECTS-NEXT:      outs
// EFFECTS-NEXT:    return %[[R]], %[[R]]
func.func @effects(%x: tensor<8xf16>, %m: memref<8xf16>) -> (tensor<8xf16>, tensor<8xf16>) {
  %out = tensor.empty() : tensor<8xf16>
  %r1 = ktdf.opaque "NEG" -> tensor<8xf16> ins(%x: tensor<8xf16>) outs(%out: tensor<8xf16>)
  %r2 = ktdf.opaque "NEG" -> tensor<8xf16> ins(%x: tensor<8xf16>) outs(%out: tensor<8xf16>)
  %dead = ktdf.opaque "EXP" -> tensor<8xf16> ins(%x: tensor<8xf16>) outs(%out: tensor<8xf16>)
  ktdf.opaque "ZERO" ins() outs(%m: memref<8xf16>)
  return %r1, %r2 : tensor<8xf16>, tensor<8xf16>
}
