// The -ktir-to-dfir pipeline, as far as it has landed, in upstream order.
// RUN: dfsched-opt -ktir-to-dfir --dump-pass-pipeline %s -verify-diagnostics 2>&1 | filecheck %s

// CHECK:      builtin.module(
// CHECK-NEXT:   ensure-device-declaration,
// CHECK-NEXT:   ktir-legality-check,
// CHECK-NEXT:   compute-group-extraction,
// CHECK-NEXT:   construct-three-stage-pipeline,
// CHECK-NEXT:   builtin.module(
// CHECK:          func.func(
// CHECK-NEXT:       ktdfarch-apply-patterns{groups={pre_scheduling}}
// CHECK-NEXT:     )
// CHECK-NEXT:   ),
// CHECK-NEXT:   path-expansion,
// CHECK-NEXT:   scalar-broadcast-legalization,
// CHECK-NEXT:   normalize-scf-for-loops,
// CHECK-NEXT:   canonicalize,
// CHECK-NEXT:   tile-scf-for-loops
// CHECK-NEXT:   canonicalize,
// CHECK-NEXT:   loop-invariant-code-motion,
// CHECK-NEXT:   stage-coarsening,
// CHECK-NEXT:   reduction-dim-chunking,
// CHECK-NEXT:   reduction-loop-exposure,
// CHECK-NEXT:   map-reduction-partials,
// CHECK-NEXT:   broadcast-promotion,
// CHECK-NEXT:   double-buffering,
// CHECK-NEXT:   parallelize-loops-across-instances,
// CHECK-NEXT:   tile-size-selection,
// CHECK-NEXT:   canonicalize,
// CHECK-NEXT:   affine-min-canonicalization,
// CHECK-NEXT:   subsume-linearize-index,
// CHECK-NEXT:   address-assignment,
// CHECK-NEXT:   normalize-grid-to-1d,
// CHECK-NEXT:   ktdf-to-ktdflowering{uniform-grid-cores=3},
// CHECK-NEXT:   ktdflowering-to-dfir,
// CHECK-NEXT:   wrap-program-dfir
// CHECK-NEXT: )

// expected-error @below {{no 'ktdf_arch.device' is present in the module}}
module {
}

// -kEmitDFIR (upstream's spelling) is the same pipeline followed by the split output files.
// RUN: dfsched-opt -kEmitDFIR --dump-pass-pipeline %s -verify-diagnostics 2>&1 | filecheck %s --check-prefix=EMIT
// EMIT:      wrap-program-dfir,
// EMIT-NEXT: emit-split-dfir
