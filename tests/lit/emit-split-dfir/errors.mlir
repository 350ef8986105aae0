// RUN: rm -rf %t && mkdir -p %t
// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --emit-split-dfir=output-dir=%t/a
// RUN: not dfsched-opt %s --split-input-file --allow-unregistered-dialect --emit-split-dfir=output-dir=%t/b 2>&1 >/dev/null | filecheck %s
// RUN: not test -e %t/../../evil.mlir
// RUN: not test -e /tmp/evil.mlir
// RUN: cat < %s | not dfsched-opt --allow-unregistered-dialect --emit-split-dfir 2>&1 | filecheck %s --check-prefix=STDIN

// A kernel whose module holds no program at all: only global.mlir, and a warning (upstream's).
// CHECK: warning: SplitDFIROutputPass: no implementation functions with dataflow.program_unit ops found

// Without output-dir and without an input file there is nowhere to write.
// STDIN: error: output-dir not specified and source location unavailable

module {
  module {
    func.func @kernel() {
      return
    }
  }
}

// -----

// expected-error @below {{emit-split-dfir: expects a declaration module and program modules, got no child module}}
module {
  func.func @alone() {
    return
  }
}

// -----

module {
  module {
    func.func @kernel() {
      return
    }
  }
  module {
    func.func @twice() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
  }
  // expected-error @below {{emit-split-dfir: two programs would both be written to 'twice.mlir'}}
  module @twice {
    func.func @twice() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
  }
}

// -----

// A program name that is a path (relative or absolute) would write outside the folder.
module {
  module {
    func.func @kernel() {
      return
    }
  }
  // expected-error @below {{emit-split-dfir: program name '../../../evil' cannot be a file name in the output folder}}
  module @"../../../evil" {
    func.func @evil() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
  }
}

// -----

module {
  module {
    func.func @kernel() {
      return
    }
  }
  // expected-error @below {{emit-split-dfir: program name '/tmp/evil' cannot be a file name in the output folder}}
  module @"/tmp/evil" {
    func.func @evil() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
  }
}
