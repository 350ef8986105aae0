// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{multiple entries for key "L2"}}
func.func private @twice() attributes {m = #ktdf_arch.map<"L2" = 1, "L2" = 2>}

// -----

// expected-error @below {{multiple entries for key f16}}
func.func private @types() attributes {m = #ktdf_arch.map<f16 = 64, bf16 = 64, f16 = 32>}

// -----

// expected-error @below {{Expected '='}}
func.func private @no_value() attributes {m = #ktdf_arch.map<"L2">}
