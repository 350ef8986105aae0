// RUN: dfsched-opt %s --ktdfarch-apply-patterns | filecheck %s --check-prefix=NONE
// RUN: dfsched-opt %s --ktdfarch-apply-patterns=groups=strength | filecheck %s --check-prefix=STRENGTH
// RUN: dfsched-opt %s --ktdfarch-apply-patterns="groups=strength,tag" | filecheck %s --check-prefix=TAG
// RUN: dfsched-opt %s --pass-pipeline='builtin.module(func.func(ktdfarch-apply-patterns{groups=tag}))' | filecheck %s --check-prefix=TAGONLY

// A device carrying patterns in three blocks: an ungrouped one (always applied), one in
// group "strength" and one in group "tag". Only the patterns of the enabled groups run,
// greedily, until nothing changes.
//   ungrouped  x - x              -> 0.0
//   strength   x * 2.0            -> x + x   (matches through the constant's result)
//   tag        math.sqrt not yet mapped -> ktdf_arch.maps_to = "sqrt_table"

module {
  ktdf_arch.device @accel {
    %m = memory {kind = "M", size = 1024}
    %u = exec_unit {kind = "U", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath %m to %u : memory, exec_unit

    patterns [] {
      pdl.pattern @self_difference : benefit(1) {
        %t = type : f16
        %x = operand : %t
        %diff = operation "arith.subf" (%x, %x : !pdl.value, !pdl.value) -> (%t : !pdl.type)
        rewrite %diff {
          %zero_value = attribute = 0.000000e+00 : f16
          %zero_op = operation "arith.constant" {"value" = %zero_value} -> (%t : !pdl.type)
          %zero = result 0 of %zero_op
          replace %diff with (%zero : !pdl.value)
        }
      }
    }
    patterns ["strength"] {
      pdl.pattern @double : benefit(1) {
        %t = type : f16
        %x = operand : %t
        %two_value = attribute = 2.000000e+00 : f16
        %two_op = operation "arith.constant" {"value" = %two_value} -> (%t : !pdl.type)
        %two = result 0 of %two_op
        %mul = operation "arith.mulf" (%x, %two : !pdl.value, !pdl.value) -> (%t : !pdl.type)
        rewrite %mul {
          %add = operation "arith.addf" (%x, %x : !pdl.value, !pdl.value) -> (%t : !pdl.type)
          replace %mul with %add
        }
      }
    }
    patterns ["tag", "unused"] {
      pdl.pattern @map_sqrt : benefit(1) {
        %t = type
        %x = operand : %t
        %sqrt = operation "math.sqrt" (%x : !pdl.value) -> (%t : !pdl.type)
        apply_native_constraint "ktdf_arch.mapped_to" (%sqrt : !pdl.operation) : !pdl.attribute {isNegated = true}
        rewrite %sqrt {
          %table = attribute = "sqrt_table"
          apply_native_rewrite "ktdf_arch.map_to" (%sqrt, %table : !pdl.operation, !pdl.attribute)
        }
      }
    }
  }

  func.func @kernel(%a: f16, %b: f16) -> (f16, f16, f16) {
    %two = arith.constant 2.000000e+00 : f16
    %d = arith.subf %a, %a : f16
    %m = arith.mulf %b, %two : f16
    %s = math.sqrt %b : f16
    return %d, %m, %s : f16, f16, f16
  }
}

// The ungrouped pattern runs without any group; x - x becomes a constant, which the
// greedy driver moves to the top of the function; the now unused 2.0 disappears only
// when the strength pattern consumed its only use.
// NONE-LABEL: func.func @kernel(
// NONE-SAME:      %[[A:[a-zA-Z0-9_]+]]: f16, %[[B:[a-zA-Z0-9_]+]]: f16)
// NONE-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// NONE-DAG:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f16
// NONE-NOT:     arith.subf
// NONE:         %[[M:.*]] = arith.mulf %[[B]], %[[TWO]] : f16
// NONE-NEXT:    %[[S:.*]] = math.sqrt %[[B]] : f16
// NONE:         return %[[ZERO]], %[[M]], %[[S]]

// STRENGTH-LABEL: func.func @kernel(
// STRENGTH-SAME:      %[[A:[a-zA-Z0-9_]+]]: f16, %[[B:[a-zA-Z0-9_]+]]: f16)
// STRENGTH:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// STRENGTH-NEXT:    %[[M:.*]] = arith.addf %[[B]], %[[B]] : f16
// STRENGTH-NEXT:    %[[S:.*]] = math.sqrt %[[B]] : f16
// STRENGTH:         return %[[ZERO]], %[[M]], %[[S]]

// TAG-LABEL: func.func @kernel(
// TAG:         arith.addf
// TAG-NEXT:    math.sqrt %{{.*}} {ktdf_arch.maps_to = "sqrt_table"} : f16

// A block is enabled when any of its groups is: "tag" alone maps the sqrt, the multiply
// by 2.0 stays.
// TAGONLY-LABEL: func.func @kernel(
// TAGONLY:         arith.mulf
// TAGONLY-NEXT:    math.sqrt %{{.*}} {ktdf_arch.maps_to = "sqrt_table"} : f16
