// RUN: dfsched-opt %s --ensure-device-declaration --device=%devices/sample_device.mlir | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %s --ensure-device-declaration --device=sample | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %s "--ensure-device-declaration=device-filename=%devices/quad_corelet.mlir" | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt %s "--ensure-device-declaration=device-filename=%S/Inputs/two-devices.mlir device-name=right" | filecheck %s --check-prefix=NAMED
// RUN: dfsched-opt %s "--ensure-device-declaration=device-filename=%S/Inputs/mapped-device.mlir" | filecheck %s --check-prefix=MAPPED
// RUN: cd %S && dfsched-opt %s "--ensure-device-declaration=device-filename=Inputs/two-devices.mlir device-name=left" | filecheck %s --check-prefix=RELATIVE
// RUN: dfsched-opt %s --pass-pipeline='builtin.module(ensure-device-declaration{device-filename="%devices/sample_device.mlir" device-name="sample_device"})' | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %s --ensure-device-declaration --disable-ensure-device-declaration --device=sample | filecheck %s --check-prefix=DISABLED

// A module without a device gets an import declaration of the device file, at its start,
// naming no path of the machine: a shipped device by its file name (`dfsched:`), any other
// by its content digest and file name (`sha256:`), so every checkout prints the same text.
// The name comes from the file (its only device) or from `device-name`. Decision 6: when
// the device says nothing about `mem_space_mapping`, the declaration maps `global` to the
// memory the cores share and `ct_local` to a core's own.

// SAMPLE:      module {
// SAMPLE-NEXT:   ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("dfsched:sample_device.mlir")
// SAMPLE:        func.func @kernel()

// QUAD:        ktdf_arch.device @quad_corelet attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "GMEM", #ktdp.memory_space<ct_local> = "SPAD">} import("dfsched:quad_corelet.mlir")

// NAMED:       ktdf_arch.device @right attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DRAM", #ktdp.memory_space<ct_local> = "BUF">} import("sha256:{{[0-9a-f]+}}/two-devices.mlir")

// The device's own mapping stands: the declaration adds none.
// MAPPED:      ktdf_arch.device @mapped import("sha256:{{[0-9a-f]+}}/mapped-device.mlir")

// RELATIVE:    ktdf_arch.device @left attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "HBM", #ktdp.memory_space<ct_local> = "SRAM">} import("sha256:{{[0-9a-f]+}}/two-devices.mlir")

// DISABLED-NOT: ktdf_arch.device
// DISABLED:     func.func @kernel()

func.func @kernel() {
  return
}
