// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering | filecheck %s

// An outer pipeline whose middle stage runs an inner pipeline per row. The global stage DAG
// links leaf stages: MNILU -> the inner pipeline's first stage (L1LU), the inner pipeline's
// last stage (L1SU) -> MNISU. Signals only name those boundary units, and sit after the
// outer stage that encloses the producer at the level of the pipeline holding both.

// CHECK-LABEL: func.func @outer_inner
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[SFU:.*]] = uniform.query_map
// CHECK:       %[[L1SU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]], %[[SFU]], %[[L1SU]], %[[MNISU]] {
// CHECK:         %[[T0:.*]] = ktdf.create_token
// CHECK:         %[[T1:.*]] = ktdf.create_token
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:      "test.load"
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[L1LU]], %[[SFU]], %[[L1SU]] {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        ktdf_lowering.execute_on %[[L1LU]], %[[SFU]], %[[L1SU]] {
// CHECK:               ktdf.create_token
// CHECK:               ktdf.create_token
// CHECK-NEXT:          ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:            "test.to_fifo"
// CHECK:               }
// CHECK-NEXT:          ktdf_lowering.execute_on %[[SFU]] {
// CHECK-NEXT:            "test.compute"
// CHECK:               }
// CHECK-NEXT:          ktdf_lowering.execute_on %[[L1SU]] {
// CHECK-NEXT:            "test.from_fifo"
// CHECK:               }
// CHECK:             }
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[L1SU]], %[[MNISU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:      "test.store"
// CHECK:         }
// CHECK:       }
// CHECK:       return
func.func @outer_inner(%rows: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      %b = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %b : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t#0) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t#0) depends_out(%t#1) {
      scf.for %r = %c0 to %rows step %c1 {
        ktdf.pipeline {
          %u:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
            %a = ktdf.create_token : !ktdf.token
            %b = ktdf.create_token : !ktdf.token
            ktdf.private_yield %a, %b : !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%u#0) {
            "test.to_fifo"(%r) : (index) -> ()
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%u#0) depends_out(%u#1) {
            "test.compute"() : () -> ()
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%u#1) depends_out(none) {
            "test.from_fifo"(%r) : (index) -> ()
          } {applicable_units = ["L1SU"]}
        }
      }
    } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    ktdf.stage depends_in(%t#1) depends_out(none) {
      "test.store"() : () -> ()
    } {applicable_units = ["MNISU"]}
  }
  return
}

// -----

// A signal inside an inner pipeline: MNILU -> L1LU, both in the inner pipeline, is signalled
// right after the inner MNILU stage; the outer stage alone has no neighbours.
// CHECK-LABEL: func.func @inner_signal
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]] {
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]] {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]] {
// CHECK:               ktdf.create_token
// CHECK-NEXT:          ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:            "test.load"
// CHECK:               }
// CHECK-NEXT:          ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:          ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:            "test.to_fifo"
// CHECK-NOT:   ktdf_lowering.signal
func.func @inner_signal(%n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      scf.for %i = %c0 to %n step %c1 {
        ktdf.pipeline {
          %u = ktdf.private -> (!ktdf.token) {
            %a = ktdf.create_token : !ktdf.token
            ktdf.private_yield %a : !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%u) {
            "test.load"(%i) : (index) -> ()
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%u) depends_out(none) {
            "test.to_fifo"(%i) : (index) -> ()
          } {applicable_units = ["L1LU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {applicable_units = ["MNILU", "L1LU"]}
  }
  return
}

// -----

// Three levels. The stage after MNILU holds a pipeline of two independent stages: an MNISU
// stage, and a stage holding a third pipeline (L1LU -> SFU). A stage's first leaf stages
// come from the first pipeline a post-order walk of it reaches, the innermost one here: the
// edge goes to the L1LU stage only, and MNILU -> MNISU gets no signal (upstream's rule,
// kept; with two levels it is simply the nested pipeline).
// CHECK-LABEL: func.func @three_levels
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[SFU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:    "test.load"
// CHECK:       }
// CHECK-NEXT:  ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:  ktdf_lowering.execute_on %[[MNISU]], %[[L1LU]], %[[SFU]] {
// CHECK-NOT:   ktdf_lowering.signal
func.func @three_levels() attributes {grid = [1]} {
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t) depends_out(none) {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "test.store"() : () -> ()
        } {applicable_units = ["MNISU"]}
        ktdf.stage depends_in(none) depends_out(none) {
          ktdf.pipeline {
            %u = ktdf.private -> (!ktdf.token) {
              %a = ktdf.create_token : !ktdf.token
              ktdf.private_yield %a : !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%u) {
              "test.to_fifo"() : () -> ()
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%u) depends_out(none) {
              "test.compute"() : () -> ()
            } {applicable_units = ["SFU"]}
          }
        } {applicable_units = ["L1LU", "SFU"]}
      }
    } {applicable_units = ["MNISU", "L1LU", "SFU"]}
  }
  return
}

// -----

// Sibling pipelines in one outer stage: the outer stage's first leaf stages are those of
// the first nested pipeline a post-order walk reaches (the MNISU pipeline written first),
// so MNILU -> MNISU is signalled and the L1LU pipeline after it gets no signal, although
// L1LU reads L1 too (upstream's rule, kept).
// CHECK-LABEL: func.func @siblings
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:    "test.load"
// CHECK:       }
// CHECK-NEXT:  ktdf_lowering.signal %[[MNILU]], %[[MNISU]]
// CHECK-NEXT:  ktdf_lowering.execute_on %[[MNISU]], %[[L1LU]] {
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:        ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:          "test.store"
// CHECK:             }
// CHECK:           }
// CHECK-NEXT:      ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:        ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:          "test.to_fifo"
// CHECK:             }
// CHECK:           }
// CHECK:         }
// CHECK:       }
// CHECK-NOT:   ktdf_lowering.signal
func.func @siblings(%n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t) depends_out(none) {
      scf.for %i = %c0 to %n step %c1 {
        ktdf.pipeline {
          ktdf.stage depends_in(none) depends_out(none) {
            "test.store"(%i) : (index) -> ()
          } {applicable_units = ["MNISU"]}
        }
        ktdf.pipeline {
          ktdf.stage depends_in(none) depends_out(none) {
            "test.to_fifo"(%i) : (index) -> ()
          } {applicable_units = ["L1LU"]}
        }
      }
    } {applicable_units = ["MNISU", "L1LU"]}
  }
  return
}
