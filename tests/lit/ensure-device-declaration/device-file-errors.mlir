// Problems with the device file given on the command line. Each fails the pass; the error
// is located in the device file when it is about its contents, else on the module.

// RUN: not dfsched-opt %s --ensure-device-declaration --device=%S/Inputs/missing.mlir 2>&1 | filecheck %s --check-prefix=NOFILE
// NOFILE: device-file-errors.mlir:[[# @LINE + 20]]:1: error: unable to import device: cannot open input file '/{{.*}}Inputs/missing.mlir': No such file or directory
// NOFILE: note: --device also accepts a shipped device name: {{.*}}sample

// RUN: not dfsched-opt %s --ensure-device-declaration --device=%S/Inputs/broken.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// PARSE: broken.mlir:3:36: error: attribute expected
// PARSE: device-file-errors.mlir:[[# @LINE + 15]]:1: note: while reading the device file '/{{.*}}Inputs/broken.mlir' for this module

// RUN: not dfsched-opt %s --ensure-device-declaration --device=%S/Inputs/no-device.mlir 2>&1 | filecheck %s --check-prefix=NODEVICE
// NODEVICE: no-device.mlir:{{[0-9]+}}:{{[0-9]+}}: error: no device in import file

// RUN: not dfsched-opt %s --ensure-device-declaration --device=%S/Inputs/two-devices.mlir 2>&1 | filecheck %s --check-prefix=MULTI
// MULTI: two-devices.mlir:{{[0-9]+}}:{{[0-9]+}}: error: multiple devices in import file

// RUN: not dfsched-opt %s "--ensure-device-declaration=device-filename=%S/Inputs/two-devices.mlir device-name=middle" 2>&1 | filecheck %s --check-prefix=NONAME
// NONAME: device-file-errors.mlir:[[# @LINE + 6]]:1: error: 'ktdf_arch.device' op unable to import device graph: no device named 'middle'

// A failed pass prints nothing on stdout.
// RUN: not dfsched-opt %s --ensure-device-declaration --device=%S/Inputs/no-device.mlir 2>/dev/null | filecheck %s --allow-empty --check-prefix=EMPTY
// EMPTY-NOT: {{.}}

module {
  func.func @kernel() {
    return
  }
}
