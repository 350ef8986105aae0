// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=matrix_unit --ktdflowering-to-dfir

// Diagnostics of the contraction lowerings (hand-written lowered IR; the pipeline never
// emits these forms), each on the generic it is about.

// On the vector lanes a contraction steps one K at a time (reduction-loop-exposure makes each
// step explicit): a buffer generic whose reduction dim still spans 2 is refused.
func.func @unexposed_reduction(%a: memref<1x2xf16, "ACC">, %b: memref<2x8xf16, "ACC">, %c: memref<1x8xf16, "ACC">) attributes {grid = [1]} {
  %mxu = dataflow.get_unit {core = 0 : i32, name = "C0-MXU", type = "MXU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %mxu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    // expected-error @below {{a contraction reaches the vector unit with an unexposed reduction dim (run reduction-loop-exposure first)}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<1x2xf16, "ACC">, memref<2x8xf16, "ACC">) outs(%c : memref<1x8xf16, "ACC">) {
    ^bb0(%x: f16, %y: f16, %acc: f16):
      %p = arith.mulf %x, %y : f16
      %s = arith.addf %p, %acc : f16
      linalg.yield %s : f16
    }
  }
  return
}

// -----

// A matrix step's wide accumulator block is rounded to the result type by one arith.truncf
// (map-reduction-partials); any other generic reading the block is refused.
func.func @block_scaled_while_narrowed(%a: memref<4x4xf16, "ACC">, %b: memref<4x8xf16, "ACC">, %acc: memref<4x8xf32, "ACC">, %out: memref<4x8xf16, "ACC">) attributes {grid = [1]} {
  %mxu = dataflow.get_unit {core = 0 : i32, name = "C0-MXU", type = "MXU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %mxu]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  ktdf_lowering.execute_on %q {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x4xf16, "ACC">, memref<4x8xf16, "ACC">) outs(%acc : memref<4x8xf32, "ACC">) attrs = {dfsched.matrix_tile = array<i64: 4, 8, 4>} {
    ^bb0(%x: f16, %y: f16, %c: f32):
      %xw = arith.extf %x : f16 to f32
      %yw = arith.extf %y : f16 to f32
      %p = arith.mulf %xw, %yw : f32
      %s = arith.addf %p, %c : f32
      linalg.yield %s : f32
    }
    // expected-error @below {{a matrix accumulator block is only narrowed by an arith.truncf}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<4x8xf32, "ACC">) outs(%out : memref<4x8xf16, "ACC">) {
    ^bb0(%w: f32, %o: f16):
      %half = arith.constant 0.5 : f32
      %scaled = arith.mulf %w, %half : f32
      %n = arith.truncf %scaled : f32 to f16
      linalg.yield %n : f16
    }
  }
  return
}
