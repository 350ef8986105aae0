// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --ktdfarch-apply-patterns=groups=g

// Device patterns the pass cannot run are reported on the pattern op when the patterns of
// the enabled groups are loaded, before anything is rewritten.

module {
  ktdf_arch.device @dev {
    %m = memory {kind = "M", size = 64}
    patterns ["g"] {
      pdl.pattern : benefit(1) {
        %t = type
        %x = operand : %t
        %op = operation "math.exp" (%x : !pdl.value) -> (%t : !pdl.type)
        // expected-error @below {{PDL native constraint 'ktdf_arch.is_fast' is not registered (known: ktdf_arch.has_feature, ktdf_arch.mapped_to)}}
        apply_native_constraint "ktdf_arch.is_fast" (%op : !pdl.operation)
        rewrite %op {
          erase %op
        }
      }
    }
  }
  func.func @f(%a: f16) {
    %e = math.exp %a : f16
    return
  }
}

// -----

module {
  ktdf_arch.device @dev {
    %m = memory {kind = "M", size = 64}
    patterns ["g"] {
      pdl.pattern : benefit(1) {
        %t = type
        %x = operand : %t
        %op = operation "math.exp" (%x : !pdl.value) -> (%t : !pdl.type)
        rewrite %op {
          // expected-error @below {{PDL native rewrite 'ktdf_arch.split' is not registered (known: ktdf_arch.map_to, ktdf_arch.set_feature)}}
          apply_native_rewrite "ktdf_arch.split" (%op : !pdl.operation)
        }
      }
    }
  }
  func.func @f(%a: f16) {
    %e = math.exp %a : f16
    return
  }
}

// -----

module {
  ktdf_arch.device @dev {
    %m = memory {kind = "M", size = 64}
    patterns ["g"] {
      pdl.pattern : benefit(1) {
        // expected-error @below {{'pdl.types' is not supported in device patterns (xDSL's PDL interpreter cannot run it)}}
        %ts = types
        %xs = operands
        %op = operation "math.exp" (%xs : !pdl.range<value>) -> (%ts : !pdl.range<type>)
        rewrite %op {
          erase %op
        }
      }
    }
  }
  func.func @f(%a: f16) {
    %e = math.exp %a : f16
    return
  }
}

// -----

module {
  ktdf_arch.device @dev {
    %m = memory {kind = "M", size = 64}
    patterns ["g"] {
      // expected-error @below {{device pattern has no single root operation; name it in 'pdl.rewrite %root'}}
      pdl.pattern : benefit(1) {
        %t = type
        %x = operand : %t
        %a = operation "math.exp" (%x : !pdl.value) -> (%t : !pdl.type)
        %b = operation "math.log" (%x : !pdl.value) -> (%t : !pdl.type)
        rewrite {
          erase %a
          erase %b
        }
      }
    }
  }
  func.func @f(%a: f16) {
    %e = math.exp %a : f16
    return
  }
}

// -----

// A pattern that matches what it produced never converges: an error, not a hang.
module {
  ktdf_arch.device @dev {
    %m = memory {kind = "M", size = 64}
    patterns ["g"] {
      pdl.pattern : benefit(1) {
        %t = type
        %x = operand : %t
        %op = operation "math.exp" (%x : !pdl.value) -> (%t : !pdl.type)
        rewrite %op {
          %unit = attribute = "again"
          apply_native_rewrite "ktdf_arch.map_to" (%op, %unit : !pdl.operation, !pdl.attribute)
        }
      }
    }
  }
  // expected-error @below {{greedy pattern application did not converge (a pattern keeps matching what it produced)}}
  func.func @f(%a: f16) -> f16 {
    %e = math.exp %a : f16
    return %e : f16
  }
}
