// test_patterns: a small invented device whose description carries PDL rewrites, to test
// ktdfarch-apply-patterns (Decision 9: device patterns are real).
//
// One core. DMA engines move data between the device memory MEM and the core's scratchpad
// SPAD; a vector unit VEC (16 f16 / 8 f32 lanes) reads SPAD through a load queue unit VLD
// and writes back through a store queue unit VST:
//
//   MEM -> DMAI -> SPAD -> VLD -> VEC -> VST -> SPAD -> DMAO -> MEM
//
// Pattern groups (enable them with ktdfarch-apply-patterns{groups=...}):
//   (ungrouped)      every spyreop.exp not yet mapped gets ktdf_arch.maps_to = "VEC"
//   pre_scheduling   spyreop.silu x     ->  arith.mulf x, (spyreop.sigmoid x)
//   expand_sigmoid   spyreop.sigmoid x  ->  spyreop.reciprocal (1.0 + spyreop.exp (-x))
//   features         spyreop.reciprocal gets the feature dfsched.table = "recip_lut", then
//                    is mapped to the table that feature names
//
// Short name: --device=test_patterns.

#main_memory = {kind = "MEM", size = 268435456}
#scratchpad = {kind = "SPAD", size = 262144}
#vector_registers = {kind = "VREG", size = 512}

#dma_in = {
  kind = "DMAI",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      word_size = #ktdf_arch.map<"MEM" = 32, "SPAD" = 32>,
      access_granularity = #ktdf_arch.map<
        "MEM" = [{size_in_words = 1, align_in_words = 1}],
        "SPAD" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#dma_out = {
  kind = "DMAO",
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      word_size = #ktdf_arch.map<"MEM" = 32, "SPAD" = 32>,
      access_granularity = #ktdf_arch.map<
        "MEM" = [{size_in_words = 1, align_in_words = 1}],
        "SPAD" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}

#vector_unit = {
  kind = "VEC",
  ktdf_arch.features = {
    ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 16, f32 = 8>}
  }
}
#vector_load = {
  kind = "VLD",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      access_granularity = #ktdf_arch.map<"SPAD" = [{size_in_words = 16, align_in_words = 16}]>
    }
  }
}
#vector_store = {
  kind = "VST",
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      access_granularity = #ktdf_arch.map<"SPAD" = [{size_in_words = 16, align_in_words = 16}]>
    }
  }
}

#dma_link = {ktdf_arch.transfer_granularity = array<i64: 32>}
#spad_queue = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8, ordered}}}
#vector_queue = {
  ktdf_arch.transfer_granularity = array<i64: 32>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8, ordered}}
}

ktdf_arch.device @test_patterns {
  %mem = memory #main_memory

  group {kind = "core"} share(%mem) {
    %spad = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #dma_link %mem to %dmai : memory, exec_unit
    datapath #dma_link %dmai to %spad : exec_unit, memory
    datapath #dma_link %spad to %dmao : memory, exec_unit
    datapath #dma_link %dmao to %mem : exec_unit, memory

    group share(%spad) {
      %vec = group {kind = "VEC_Block"} share() {
        %regs = memory #vector_registers
        %unit = exec_unit #vector_unit
        yield %unit
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vector_queue %vld to %vec : exec_unit, exec_unit
      datapath #vector_queue %vec to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }
  }

  // Ungrouped: applies at every checkpoint. Map each exponential onto the vector unit.
  patterns [] {
    pdl.pattern @map_exp : benefit(1) {
      %t = type
      %x = operand : %t
      %exp = operation "spyreop.exp" (%x : !pdl.value) -> (%t : !pdl.type)
      apply_native_constraint "ktdf_arch.mapped_to" (%exp : !pdl.operation) : !pdl.attribute {isNegated = true}
      rewrite %exp {
        %unit = attribute = "VEC"
        apply_native_rewrite "ktdf_arch.map_to" (%exp, %unit : !pdl.operation, !pdl.attribute)
      }
    }
  }

  // The VEC unit has no SiLU instruction: x * sigmoid(x).
  patterns ["pre_scheduling"] {
    pdl.pattern @expand_silu : benefit(1) {
      %f16 = type : f16
      %x = operand : %f16
      %silu = operation "spyreop.silu" (%x : !pdl.value) -> (%f16 : !pdl.type)
      rewrite %silu {
        %sigmoid_op = operation "spyreop.sigmoid" (%x : !pdl.value) -> (%f16 : !pdl.type)
        %sigmoid = result 0 of %sigmoid_op
        %product_op = operation "arith.mulf" (%x, %sigmoid : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        %product = result 0 of %product_op
        replace %silu with (%product : !pdl.value)
      }
    }
  }

  // Nor a sigmoid instruction: 1 / (1 + e^-x).
  patterns ["expand_sigmoid"] {
    pdl.pattern @expand_sigmoid : benefit(1) {
      %f16 = type : f16
      %x = operand : %f16
      %sigmoid = operation "spyreop.sigmoid" (%x : !pdl.value) -> (%f16 : !pdl.type)
      rewrite %sigmoid {
        %negated_op = operation "arith.negf" (%x : !pdl.value) -> (%f16 : !pdl.type)
        %negated = result 0 of %negated_op
        %exp_op = operation "spyreop.exp" (%negated : !pdl.value) -> (%f16 : !pdl.type)
        %exp = result 0 of %exp_op
        %one_value = attribute = 1.000000e+00 : f16
        %one_op = operation "spyreop.constant" {"value" = %one_value} -> (%f16 : !pdl.type)
        %one = result 0 of %one_op
        %sum_op = operation "arith.addf" (%one, %exp : !pdl.value, !pdl.value) -> (%f16 : !pdl.type)
        %sum = result 0 of %sum_op
        %reciprocal_op = operation "spyreop.reciprocal" (%sum : !pdl.value) -> (%f16 : !pdl.type)
        %reciprocal = result 0 of %reciprocal_op
        replace %sigmoid with (%reciprocal : !pdl.value)
      }
    }
  }

  // Reciprocals go through a lookup table: record which one as a feature, then map the
  // op to the table the feature names.
  patterns ["features"] {
    pdl.pattern @choose_table : benefit(2) {
      %t = type
      %x = operand : %t
      %reciprocal = operation "spyreop.reciprocal" (%x : !pdl.value) -> (%t : !pdl.type)
      %feature = attribute = "dfsched.table"
      apply_native_constraint "ktdf_arch.has_feature" (%reciprocal, %feature : !pdl.operation, !pdl.attribute) : !pdl.attribute {isNegated = true}
      rewrite %reciprocal {
        %table = attribute = "recip_lut"
        apply_native_rewrite "ktdf_arch.set_feature" (%reciprocal, %feature, %table : !pdl.operation, !pdl.attribute, !pdl.attribute)
      }
    }
    pdl.pattern @map_to_table : benefit(1) {
      %t = type
      %x = operand : %t
      %reciprocal = operation "spyreop.reciprocal" (%x : !pdl.value) -> (%t : !pdl.type)
      %feature = attribute = "dfsched.table"
      %table = apply_native_constraint "ktdf_arch.has_feature" (%reciprocal, %feature : !pdl.operation, !pdl.attribute) : !pdl.attribute
      apply_native_constraint "ktdf_arch.mapped_to" (%reciprocal : !pdl.operation) : !pdl.attribute {isNegated = true}
      rewrite %reciprocal {
        apply_native_rewrite "ktdf_arch.map_to" (%reciprocal, %table : !pdl.operation, !pdl.attribute)
      }
    }
  }
}
