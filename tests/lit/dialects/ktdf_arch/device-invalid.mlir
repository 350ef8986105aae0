// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// A device needs a name.
// expected-error @below {{expected valid '@'-identifier for symbol name}}
ktdf_arch.device {
}

// -----

// A device without a body must say where to import it from.
// expected-error @below {{empty device requires 'import_path' attribute}}
"ktdf_arch.device"() <{sym_name = "no_body"}> ({}) : () -> ()

// -----

// `{}` is an empty region, not an empty body.
// expected-error @below {{empty device requires 'import_path' attribute}}
ktdf_arch.device @braces_only {}

// -----

// expected-error @below {{non-empty device can't have 'import_path' attribute}}
ktdf_arch.device @both attributes {import_path = "elsewhere.mlir"} {
  %u = exec_unit
}

// -----

// expected-error @below {{expected a string path in 'import(...)'}}
ktdf_arch.device @numeric_path import(42)

// -----

// expected-error @below {{attribute 'version' failed to satisfy constraint}}
ktdf_arch.device @bad_version attributes {version = "1.0"} import("v.mlir")

// -----

// Resource ids are unique in the whole device, nested groups included.
ktdf_arch.device @twice {
  // expected-note @below {{previous definition is here}}
  %a = exec_unit @unit
  group share() {
    group share() {
      // expected-error @below {{resource with id "unit" redefined}}
      %b = exec_unit @unit
    }
  }
}

// -----

ktdf_arch.device @two_memories {
  // expected-note @below {{previous definition is here}}
  %m = memory @bank {kind = "M"}
  // expected-error @below {{resource with id "bank" redefined}}
  %n = memory @bank {kind = "M"}
}

// -----

// Only resources (and `patterns`) may live in a device.
// expected-error @below {{'ktdf_arch.device' op expects child ops to be resources}}
ktdf_arch.device @foreign {
  // expected-note @below {{unexpected child is here}}
  %c = arith.constant 0 : i32
}
