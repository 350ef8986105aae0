// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect | dfsched-opt -split-input-file -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect --print-op-generic | dfsched-opt -split-input-file -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every ktdf_arch op, printed in its custom form, re-parsed, and through the generic form.

// A tiny accelerator: one host memory, one tile with a private buffer and a unit.
#tile_buffer = {kind = "BUF", size = 4096}

// Dictionaries with a string `kind` print as aliases named after the kind.
// CHECK-DAG: #ALU = {kind = "ALU", ktdf_arch.features = {ktdf_arch.feature.compute}}
// CHECK-DAG: #BUF = {kind = "BUF", size = 4096 : i64}
// CHECK-DAG: #HOST = {kind = "HOST", size = 65536 : i64}
// CHECK-DAG: #tile = {kind = "tile"}
// CHECK-DAG: #wire = {kind = "wire"}
// CHECK-LABEL: ktdf_arch.device @tiny {
// CHECK-NEXT:    %[[HOST:[^ ]+]] = {{(ktdf_arch\.)?}}memory @host #HOST
// CHECK-NEXT:    %[[TILE:[^ ]+]] = {{(ktdf_arch\.)?}}group @tile0 #tile share(%[[HOST]]) {
// CHECK-NEXT:      %[[BUF:[^ ]+]] = {{(ktdf_arch\.)?}}memory #BUF
// CHECK-NEXT:      %[[ALU:[^ ]+]] = {{(ktdf_arch\.)?}}exec_unit #ALU
// CHECK-NEXT:      {{(ktdf_arch\.)?}}datapath %[[HOST]] to %[[BUF]] : memory, memory
// CHECK-NEXT:      {{(ktdf_arch\.)?}}datapath #wire %[[BUF]] to %[[ALU]] : memory, exec_unit
// CHECK-NEXT:      {{(ktdf_arch\.)?}}yield %[[ALU]]
// CHECK-NEXT:    } -> exec_unit
// CHECK-NEXT:    {{(ktdf_arch\.)?}}datapath @writeback %[[TILE]] to %[[HOST]] : exec_unit, memory
// CHECK-NEXT:  }
ktdf_arch.device @tiny {
  %host = memory @host {kind = "HOST", size = 65536}
  %alu = group @tile0 {kind = "tile"} share(%host) {
    %buf = memory #tile_buffer
    %alu = exec_unit {ktdf_arch.features = {ktdf_arch.feature.compute}, kind = "ALU"}
    datapath %host to %buf : memory, memory
    datapath {kind = "wire"} %buf to %alu : memory, exec_unit
    yield %alu
  } -> exec_unit
  datapath @writeback %alu to %host : exec_unit, memory
}

// GENERIC-LABEL: "ktdf_arch.device"() <{sym_name = "tiny"}> ({
// GENERIC:         "ktdf_arch.memory"() <{{{.*}}id = "host"{{.*}}}> : () -> !ktdf_arch.memory
// GENERIC:         "ktdf_arch.group"(%{{.*}}) <{{{.*}}kind = "tile"{{.*}}}> ({
// GENERIC-NEXT:    ^{{.*}}(%{{.*}}: !ktdf_arch.memory):
// GENERIC:           "ktdf_arch.yield"(%{{.*}}) : (!ktdf_arch.exec_unit) -> ()
// GENERIC-NEXT:    }) : (!ktdf_arch.memory) -> !ktdf_arch.exec_unit
// GENERIC:         "ktdf_arch.datapath"(%{{.*}}, %{{.*}}) <{id = "writeback"}> : (!ktdf_arch.exec_unit, !ktdf_arch.memory) -> ()

// -----

// Declarations: imported devices keep their path and attributes; an empty
// `attributes {}` is dropped.

// CHECK-LABEL: {{(builtin.)?}}module
// CHECK-NEXT:    ktdf_arch.device @declared attributes {mem_space_mapping = #ktdf_arch.map<"global" = "HOST", "local" = "BUF">, version = 2 : i64} import("devices/tiny.mlir")
// CHECK-NEXT:    ktdf_arch.device @bare import("/abs/bare.mlir")
ktdf_arch.device @declared attributes {mem_space_mapping = #ktdf_arch.map<"global" = "HOST", "local" = "BUF">, version = 2} import("devices/tiny.mlir")
ktdf_arch.device @bare attributes {} import("/abs/bare.mlir")

// GENERIC-LABEL: "builtin.module"
// GENERIC:       "ktdf_arch.device"() <{import_path = "devices/tiny.mlir", sym_name = "declared", version = 2 : i64}> ({
// GENERIC-NEXT:  }) {mem_space_mapping = {{.*}}} : () -> ()

// -----

// Groups re-bind shared memories under the outer names; empty `share()` and
// groups without results print without `yield` and `->`.

// CHECK: #lane = {kind = "lane"}
// CHECK-LABEL: ktdf_arch.device @nested {
// CHECK-NEXT:    %[[M:[^ ]+]] = {{(ktdf_arch\.)?}}memory {kind = 3 : i64}
// CHECK-NEXT:    {{(ktdf_arch\.)?}}group share(%[[M]]) {
// CHECK-NEXT:      %[[INNER:[^ ]+]] = {{(ktdf_arch\.)?}}group #lane share() {
// CHECK-NEXT:        %[[U:[^ ]+]] = {{(ktdf_arch\.)?}}exec_unit
// CHECK-NEXT:        {{(ktdf_arch\.)?}}yield %[[U]]
// CHECK-NEXT:      } -> exec_unit
// CHECK-NEXT:      {{(ktdf_arch\.)?}}datapath %[[M]] to %[[INNER]] : memory, exec_unit
// CHECK-NEXT:    }
// CHECK-NEXT:    {{(ktdf_arch\.)?}}group share() {
// CHECK-NEXT:    }
// CHECK-NEXT:  }
ktdf_arch.device @nested {
  %m = memory {kind = 3}
  group share(%m) {
    %lane = group {kind = "lane"} share() {
      %u = exec_unit
      yield %u
    } -> exec_unit
    datapath %m to %lane : memory, exec_unit
  }
  group share() {}
}

// -----

// Switches: ports as results, default connectivity elided.

// CHECK: #xbar = {connectivity = dense<{{\[\[}}false, true], [true, false]]> : tensor<2x2xi1>, kind = "xbar"}
// CHECK-LABEL: ktdf_arch.device @switched {
// CHECK-NEXT:    %[[E:[^ ]+]] = {{(ktdf_arch\.)?}}exec_unit
// CHECK-NEXT:    {{.*}} = {{(ktdf_arch\.)?}}switch [3]{{$}}
// CHECK-NEXT:    {{.*}} = {{(ktdf_arch\.)?}}switch [2] #xbar
// CHECK-NEXT:    {{(ktdf_arch\.)?}}datapath %[[E]] to %{{[^ ]+}} : exec_unit, port
ktdf_arch.device @switched {
  %e = exec_unit
  %p:3 = switch [3]
  %q:2 = switch [2] {kind = "xbar", connectivity = dense<[[false, true], [true, false]]> : tensor<2x2xi1>}
  datapath %e to %p#2 : exec_unit, port
}

// -----

// Pattern containers, with and without groups; full type spellings are accepted
// where a short one is printed.

// CHECK-LABEL: ktdf_arch.device @with_patterns {
// CHECK-NEXT:    {{(ktdf_arch\.)?}}patterns {
// CHECK-NEXT:    }
// CHECK-NEXT:    {{(ktdf_arch\.)?}}patterns ["early", "late"] {
// CHECK-NEXT:      pdl.pattern : benefit(2) {
// CHECK:               {{(pdl\.)?}}erase
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[A:[^ ]+]] = {{(ktdf_arch\.)?}}exec_unit
// CHECK-NEXT:    %[[B:[^ ]+]] = {{(ktdf_arch\.)?}}exec_unit
// CHECK-NEXT:    {{(ktdf_arch\.)?}}datapath %[[A]] to %[[B]] : exec_unit, exec_unit
ktdf_arch.device @with_patterns {
  patterns [] {}
  patterns ["early", "late"] {
    pdl.pattern : benefit(2) {
      %t = pdl.type : i32
      %root = pdl.operation "arith.muli" -> (%t : !pdl.type)
      pdl.rewrite %root {
        pdl.erase %root
      }
    }
  }
  %a = exec_unit
  %b = exec_unit
  datapath %a to %b : !ktdf_arch.exec_unit, !ktdf_arch.exec_unit
}

// -----

// #ktdf_arch.map keeps its entry order; keys may be types, strings or dictionaries.

// CHECK: func.func private @maps(){{.*}} attributes {m = #ktdf_arch.map<i8 = "x", "k" = 1 : i64, {a} = [1]>, n = #ktdf_arch.map<>}
func.func private @maps() attributes {m = #ktdf_arch.map<i8 = "x", "k" = 1, {a} = [1]>, n = #ktdf_arch.map<>}
