// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every vectorchain op. A mask follows the operands with no space before `[`; enum
// attributes print as #vectorchain<mnemonic value>; default-valued attributes are elided.

// CHECK-LABEL: func.func @essential
// CHECK-SAME:    (%[[A:[^:]*]]: vector<64xf16>, %[[B:[^:]*]]: vector<64xf16>, %[[M:[^:]*]]: vector<64xi1>, %[[ONE:[^:]*]]: vector<1xf16>, %[[S:[^:]*]]: f16, %[[I:[^:]*]]: index)
// CHECK-NEXT:    vectorchain.binary %[[A]], %[[B]] {binary_op = #vectorchain<binary_operator add>, op_specific_map = #{{.*}}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.binary %[[A]], %[[B]][%[[M]] : vector<64xi1>] {binary_op = #vectorchain<binary_operator abs_max>, dbgName = "mx", op_specific_map = #{{.*}}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.shuffle input(%[[ONE]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.shuffle input(%[[A]]), variable(%[[S]], %[[I]]), pad(%[[S]]), mask(%[[M]]) {indices = [0 : i32, -1 : i32, -2 : i32, -3 : i32], repetition = 16 : i32} : vector<64xf16>, f16, index, f16, vector<64xi1>, vector<64xf16>
// CHECK-NEXT:    vectorchain.shuffle input(%[[A]]), pad(%[[S]]) {indices = [63 : i32, -1 : i32], repetition = 32 : i32} : vector<64xf16>, f16, vector<64xf16>
// CHECK-NEXT:    vectorchain.constant_bitstream {value = [0x0, 0x3c00]} : vector<2xf16>
// CHECK-NEXT:    vectorchain.constant_bitstream {value = [0xffffffffffffffff, 0x7fffffffffffffff]} : vector<2xi64>
// CHECK-NEXT:    vectorchain.constant_bitstream {is_symbol = true, value = [-3]} : vector<1xi32>
// GENERIC-LABEL: sym_name = "essential"
// GENERIC:         "vectorchain.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{indices = [0 : i32, -1 : i32, -2 : i32, -3 : i32], operandSegmentSizes = array<i32: 1, 2, 1, 1>, repetition = 16 : i32}> : (vector<64xf16>, f16, index, f16, vector<64xi1>) -> vector<64xf16>
// GENERIC:         "vectorchain.constant_bitstream"() <{value = [0, 15360]}> : () -> vector<2xf16>
func.func @essential(%a: vector<64xf16>, %b: vector<64xf16>, %m: vector<64xi1>, %one: vector<1xf16>, %s: f16, %i: index) {
  %0 = vectorchain.binary %a, %b {binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  %1 = vectorchain.binary %a, %b [%m : vector<64xi1>] {binary_op = #vectorchain<binary_operator abs_max>, dbgName = "mx", op_specific_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  %2 = vectorchain.shuffle input(%one) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
  %3 = vectorchain.shuffle input(%a), variable(%s, %i), pad(%s), mask(%m) {indices = [0 : i32, -1 : i32, -2 : i32, -3 : i32], repetition = 16 : i32} : vector<64xf16>, f16, index, f16, vector<64xi1>, vector<64xf16>
  %4 = vectorchain.shuffle input(%a), pad(%s) {indices = [63 : i32, -1 : i32], repetition = 32 : i32} : vector<64xf16>, f16, vector<64xf16>
  %5 = vectorchain.constant_bitstream {value = [0x0, 0x3C00]} : vector<2xf16>
  %6 = vectorchain.constant_bitstream {value = [-1, 0x7fffffffffffffff]} : vector<2xi64>
  %7 = vectorchain.constant_bitstream {is_symbol = true, value = [-3]} : vector<1xi32>
  return
}

// CHECK-LABEL: func.func @peripheral
// CHECK-SAME:    (%[[A:[^:]*]]: vector<64xf16>, %[[B:[^:]*]]: vector<64xf16>, %[[M:[^:]*]]: vector<64xi1>, %[[I:[^:]*]]: index, %[[CV:[^:]*]]: !dataflow.custom_vector<64xf16>)
// CHECK-NEXT:    vectorchain.select %[[A]] {selection_map = #{{.*}}} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.multiply %[[A]], %[[CV]] {reduction_map = #{{.*}}} : vector<64xf16>, !dataflow.custom_vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.element_wise_compare %[[A]], %[[B]][%[[M]] : vector<64xi1>] {compare_op = #vectorchain<element_wise_compare_operator compare_lt>} : vector<64xf16>, vector<64xf16>, vector<64xi1>
// CHECK-NEXT:    vectorchain.merge %[[A]], %[[B]] {access_function_A = #{{.*}}, access_function_B = #{{.*}}, access_function_CA = #{{.*}}, access_function_CB = #{{.*}}, iteration_space_CA = #{{.*}}, iteration_space_CB = #{{.*}}} : vector<64xf16>, vector<64xf16>, vector<128xf16>
// CHECK-NEXT:    vectorchain.create_affine_mask %[[I]] {mask_set = #{{.*}}} : vector<64xi1>
// CHECK-NEXT:    vectorchain.create_affine_mask {mask_set = #{{.*}}} : vector<64xi1>
// CHECK-NEXT:    vectorchain.pack %[[A]], %[[B]] {indices = [0, 1], repetition = 32 : index} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.pack %[[A]], %[[B]][%[[M]] : vector<64xi1>] {indices = [0, 1], repetition = 32 : index, sign_extend = true} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.cast %[[A]][%[[M]] : vector<64xi1>] : vector<64xf16>, vector<64xf32>
// CHECK-NEXT:    vectorchain.fast_exp %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.exp_estimate %[[A]][%[[M]] : vector<64xi1>] {version = #vectorchain<exp_estimate b>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.sigmoid_estimate %[[A]] {version = #vectorchain<estimate_versions slope>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.tanh_estimate %[[A]] {dbgName = "t", version = #vectorchain<estimate_versions offset>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.floor %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.rec_estimate %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.ln_estimate %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.rsqrt_estimate %[[A]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.neg %[[A]][%[[M]] : vector<64xi1>] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.multiply_and_accumulate %[[A]], %[[B]], %[[CV]][%[[M]] : vector<64xi1>] {reduction_map = #{{.*}}} : vector<64xf16>, vector<64xf16>, !dataflow.custom_vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.element_wise_selection %[[M]] ? %[[A]] : %[[B]] : vector<64xi1>, vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.scan_with_gap %[[A]] {eval_order = #vectorchain<eval_order right_to_left>, gap = 2 : index, reduction_op = #vectorchain<binary_operator max>} : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:    vectorchain.rotate %[[A]], %[[I]] : vector<64xf16>, index, vector<64xf16>
// CHECK-NEXT:    vectorchain.rotate %[[A]], %[[I]] {right_shift = false} : vector<64xf16>, index, vector<64xf16>
// GENERIC-LABEL: sym_name = "peripheral"
// GENERIC:         "vectorchain.pack"(%{{.*}}, %{{.*}}) <{indices = [0, 1], repetition = 32 : index, sign_extend = false}> : (vector<64xf16>, vector<64xf16>) -> vector<64xf16>
func.func @peripheral(%a: vector<64xf16>, %b: vector<64xf16>, %m: vector<64xi1>, %i: index, %cv: !dataflow.custom_vector<64xf16>) {
  %0 = vectorchain.select %a {selection_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>
  %1 = vectorchain.multiply %a, %cv {reduction_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, !dataflow.custom_vector<64xf16>, vector<64xf16>
  %2 = vectorchain.element_wise_compare %a, %b[%m : vector<64xi1>] {compare_op = #vectorchain<element_wise_compare_operator compare_lt>} : vector<64xf16>, vector<64xf16>, vector<64xi1>
  %3 = vectorchain.merge %a, %b {access_function_A = affine_map<(d0) -> (d0)>, access_function_B = affine_map<(d0) -> (d0)>, access_function_CA = affine_map<(d0) -> (d0)>, access_function_CB = affine_map<(d0) -> (d0 + 64)>, iteration_space_CA = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, iteration_space_CB = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>} : vector<64xf16>, vector<64xf16>, vector<128xf16>
  %4 = vectorchain.create_affine_mask %i {mask_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)>} : vector<64xi1>
  %5 = vectorchain.create_affine_mask {mask_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>} : vector<64xi1>
  %6 = vectorchain.pack %a, %b {indices = [0, 1], repetition = 32 : index, sign_extend = false} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  %7 = vectorchain.pack %a, %b[%m : vector<64xi1>] {indices = [0, 1], repetition = 32 : index, sign_extend = true} : vector<64xf16>, vector<64xf16>, vector<64xf16>
  %8 = vectorchain.cast %a [%m : vector<64xi1>] : vector<64xf16>, vector<64xf32>
  %9 = vectorchain.fast_exp %a : vector<64xf16>, vector<64xf16>
  %10 = vectorchain.exp_estimate %a[%m : vector<64xi1>] {version = #vectorchain<exp_estimate b>} : vector<64xf16>, vector<64xf16>
  %11 = vectorchain.sigmoid_estimate %a {version = #vectorchain<estimate_versions slope>} : vector<64xf16>, vector<64xf16>
  %12 = vectorchain.tanh_estimate %a {dbgName = "t", version = #vectorchain<estimate_versions offset>} : vector<64xf16>, vector<64xf16>
  %13 = vectorchain.floor %a : vector<64xf16>, vector<64xf16>
  %14 = vectorchain.rec_estimate %a : vector<64xf16>, vector<64xf16>
  %15 = vectorchain.ln_estimate %a : vector<64xf16>, vector<64xf16>
  %16 = vectorchain.rsqrt_estimate %a : vector<64xf16>, vector<64xf16>
  %17 = vectorchain.neg %a[%m : vector<64xi1>] : vector<64xf16>, vector<64xf16>
  %18 = vectorchain.multiply_and_accumulate %a, %b, %cv[%m : vector<64xi1>] {reduction_map = affine_map<(d0) -> (d0)>} : vector<64xf16>, vector<64xf16>, !dataflow.custom_vector<64xf16>, vector<64xf16>
  %19 = vectorchain.element_wise_selection %m ? %a : %b : vector<64xi1>, vector<64xf16>, vector<64xf16>, vector<64xf16>
  %20 = vectorchain.scan_with_gap %a {eval_order = #vectorchain<eval_order right_to_left>, gap = 2 : index, reduction_op = #vectorchain<binary_operator max>} : vector<64xf16>, vector<64xf16>
  %21 = vectorchain.rotate %a, %i {right_shift = true} : vector<64xf16>, index, vector<64xf16>
  %22 = vectorchain.rotate %a, %i {right_shift = false} : vector<64xf16>, index, vector<64xf16>
  return
}
