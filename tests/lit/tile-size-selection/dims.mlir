// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --tile-size-selection | filecheck %s

// Several placeholders in one program: the innermost dimension is sized first (a tile spanning
// whole rows is one contiguous block), then the outer ones with what is left. Two buffers of
// rows x cols f16 in a 4 KiB scratchpad: rows * cols <= 1024, so cols = 32 (all of them) and
// rows = 32 (not 64 rows of 16 columns). The device comes from the module, and its
// mem_space_mapping says where #ktdp.memory_space<ct_local> lives; global memory does not count.

// CHECK-LABEL: func.func @two_dims(
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 32 : index
// CHECK:         %[[COLS:.*]] = arith.constant 32 : index
// CHECK-NEXT:    arith.ceildivui %[[C64]], %[[ROWS]] : index
// CHECK:         arith.ceildivui %[[C32]], %[[COLS]] : index
module {
  ktdf_arch.device @tiny attributes {mem_space_mapping = #ktdf_arch.map<
      #ktdp.memory_space<global> = "DRAM", #ktdp.memory_space<ct_local> = "SPAD">} import("Inputs/tiny_scratchpad.mlir")
  func.func @two_dims() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %k = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %nr = arith.ceildivui %c64, %r : index
    scf.for %i = %c0 to %nr step %c1 {
      %nk = arith.ceildivui %c32, %k : index
      scf.for %j = %c0 to %nk step %c1 {
        %sr = ktdf.tiling.derive_size [%i : %r], total_size = %c64 : index
        %sk = ktdf.tiling.derive_size [%j : %k], total_size = %c32 : index
        %in = memref.alloc(%sr, %sk) : memref<?x?xf16, #ktdp.memory_space<ct_local>>
        %out = memref.alloc(%sr, %sk) : memref<?x?xf16, #ktdp.memory_space<ct_local>>
        %big = memref.alloc(%sr, %sk) : memref<?x?xf32, #ktdp.memory_space<global>>
        "test.use"(%in, %out, %big) : (memref<?x?xf16, #ktdp.memory_space<ct_local>>, memref<?x?xf16, #ktdp.memory_space<ct_local>>, memref<?x?xf32, #ktdp.memory_space<global>>) -> ()
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    return
  }
}

// -----

// Without a mem_space_mapping, ct_local is the core's own memory (Decision 6). Programs are
// sized separately: each function may fill the scratchpad on its own.

// CHECK-LABEL: func.func @first(
// CHECK:         %[[C48:.*]] = arith.constant 48 : index
// CHECK:         %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:    arith.ceildivui %[[C48]], %[[N]] : index
// CHECK-LABEL: func.func @second(
// CHECK:         %[[C48:.*]] = arith.constant 48 : index
// CHECK:         %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:    arith.ceildivui %[[C48]], %[[N]] : index
module {
  ktdf_arch.device @tiny import("Inputs/tiny_scratchpad.mlir")
  func.func @first() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c48 = arith.constant 48 : index
    %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n = arith.ceildivui %c48, %r : index
    %buf = memref.alloc(%r) : memref<?x64xf32, #ktdp.memory_space<ct_local>>
    scf.for %i = %c0 to %n step %c1 {
      "test.use"(%buf) : (memref<?x64xf32, #ktdp.memory_space<ct_local>>) -> ()
    }
    return
  }
  func.func @second() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c48 = arith.constant 48 : index
    %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %n = arith.ceildivui %c48, %r : index
    %buf = memref.alloc(%r) : memref<?x64xf32, #ktdp.memory_space<ct_local>>
    scf.for %i = %c0 to %n step %c1 {
      "test.use"(%buf) : (memref<?x64xf32, #ktdp.memory_space<ct_local>>) -> ()
    }
    return
  }
}
