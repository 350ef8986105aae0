// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// Addresses that arrive as kernel arguments. The kernel numbers its index arguments by
// position (-1, -3; the memref in between uses up -2). Each program says which input its
// own argument is (-3: it is called with the kernel's third argument), and a view whose
// base is that input reads the input's symbol. Decision 8: symbols are byte addresses, like
// every view start address, so a base that is the input itself needs no symbol of its own.
// Where the grid elements start at different offsets each gets a symbol, defined once at
// function level (input + offset in bytes), and the view selects its element's symbol with
// a unit-keyed map. A tile offset of a reinterpret_cast counts elements: 64 f16 are 128
// bytes. A second view at the same place reuses the symbols.

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %[[A:.*]]: index, %{{.*}}: memref<4xf16>, %[[B:.*]]: index)
// CHECK-NEXT:    symbol.create_id %[[A]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[B]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:    call @prog(%[[B]])

// CHECK-LABEL: func.func private @prog(%
// CHECK-SAME:      [[X:arg[0-9]+]]: index) attributes {grid = [2]} {
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:         %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU"
// CHECK:         %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU"
// CHECK:         %[[DDR:.*]] = dataflow.get_unit {name = "ddr", type = "ddr"} : index
// CHECK-NEXT:    symbol.create_id %[[X]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:    %[[ROW1:.*]] = arith.addi %[[X]], %[[C1024]] : index
// CHECK-NEXT:    symbol.create_id %[[ROW1]] {symbol_id = -4 : si64} : index
// CHECK-NEXT:    %[[TILE1:.*]] = arith.addi %[[X]], %[[C128]] : index
// CHECK-NEXT:    symbol.create_id %[[TILE1]] {symbol_id = -5 : si64} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[U0]], %[[U1]]) : {
// CHECK-NEXT:      %[[S:.*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK-NEXT:      %[[WHOLE:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[S]] {layout_map = #{{.*}}} : index, index, memref<8x64xf16>
// CHECK-NEXT:      %[[R0:.*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK-NEXT:      %[[R1:.*]] = symbol.create_symbol {SymbolId = -4 : i64} : index
// CHECK:           %[[RM:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[R0]]], [%[[U1]] -> %[[R1]]]):index
// CHECK-NEXT:      %[[RQ:.*]] = uniform.query_map(map:%[[RM]], key:%[[IT]]) : index
// CHECK-NEXT:      %[[ROWS:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[RQ]]
// CHECK-NEXT:      %[[T0:.*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK-NEXT:      %[[T1:.*]] = symbol.create_symbol {SymbolId = -5 : i64} : index
// CHECK:           %[[TM:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[T0]]], [%[[U1]] -> %[[T1]]]):index
// CHECK-NEXT:      %[[TQ:.*]] = uniform.query_map(map:%[[TM]], key:%[[IT]]) : index
// CHECK-NEXT:      %[[TILES:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[TQ]]
// CHECK-NEXT:      %[[U0S:.*]] = symbol.create_symbol {SymbolId = -3 : i64} : index
// CHECK-NEXT:      %[[U1S:.*]] = symbol.create_symbol {SymbolId = -5 : i64} : index
// CHECK:           uniform.def_immutable_mapping([%[[U0]] -> %[[U0S]]], [%[[U1]] -> %[[U1S]]]):index
// CHECK:           "test.use"(%[[WHOLE]], %[[ROWS]], %[[TILES]], %{{.*}})
// CHECK-NOT:     symbol.create_id
// CHECK:         return
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  module {
    func.func @kernel(%a: index, %t: memref<4xf16>, %b: index) attributes {grid = [2]} {
      call @prog(%b) : (index) -> ()
      return
    }
    func.func private @prog(index)
  }
  module @prog {
    func.func private @prog(%x: index) attributes {grid = [2]} {
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %tile = ktdp.get_compute_tile_id : index
      %row_bytes = arith.muli %tile, %c1024 : index
      %row_base = arith.addi %x, %row_bytes : index
      %tile_elems = arith.muli %tile, %c64 : index
      %v = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %whole = memref.memory_space_cast %v : memref<8x64xf16> to memref<8x64xf16, "DDR">
      %w = ktdp.construct_memory_view %row_base, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %rows = memref.memory_space_cast %w : memref<8x64xf16> to memref<8x64xf16, "DDR">
      %v2 = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %d2 = memref.memory_space_cast %v2 : memref<8x64xf16> to memref<8x64xf16, "DDR">
      %tiles = memref.reinterpret_cast %d2 to offset: [%tile_elems], sizes: [8, 64], strides: [64, 1] : memref<8x64xf16, "DDR"> to memref<8x64xf16, strided<[64, 1], offset: ?>, "DDR">
      %v3 = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
      %d3 = memref.memory_space_cast %v3 : memref<8x64xf16> to memref<8x64xf16, "DDR">
      %again = memref.reinterpret_cast %d3 to offset: [%tile_elems], sizes: [8, 64], strides: [64, 1] : memref<8x64xf16, "DDR"> to memref<8x64xf16, strided<[64, 1], offset: ?>, "DDR">
      ktdf_lowering.execute_on %q {
        "test.use"(%whole, %rows, %tiles, %again) : (memref<8x64xf16, "DDR">, memref<8x64xf16, "DDR">, memref<8x64xf16, strided<[64, 1], offset: ?>, "DDR">, memref<8x64xf16, strided<[64, 1], offset: ?>, "DDR">) -> ()
      }
      return
    }
  }
}

// -----

// What cannot be a symbol: an address from two inputs, from a value that only exists while
// the program runs (a loop index), through an operator whose definition cannot be read
// back, or displaced by such a value.

#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  module {
    func.func @kernel(%a: index, %b: index) attributes {grid = [1]} {
      call @two_inputs(%a, %b) : (index, index) -> ()
      return
    }
    func.func private @two_inputs(index, index)
  }
  module @two_inputs {
    func.func private @two_inputs(%x: index, %y: index) attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k = arith.constant 0 : index
      %m = uniform.def_immutable_mapping([%k -> %u]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      // expected-error @below {{start address is computed from more than one run input, so no single symbol stands for it}}
      %base = arith.addi %x, %y : index
      %v = ktdp.construct_memory_view %base, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %d = memref.memory_space_cast %v : memref<64xf16> to memref<64xf16, "DDR">
      ktdf_lowering.execute_on %q {
        "test.use"(%d) : (memref<64xf16, "DDR">) -> ()
      }
      return
    }
  }
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  module {
    func.func @kernel(%a: index, %n: index) attributes {grid = [1]} {
      call @loop_index(%a, %n) : (index, index) -> ()
      return
    }
    func.func private @loop_index(index, index)
  }
  module @loop_index {
    func.func private @loop_index(%x: index, %n: index) attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k = arith.constant 0 : index
      %m = uniform.def_immutable_mapping([%k -> %u]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      %c1 = arith.constant 1 : index
      scf.for %i = %k to %n step %c1 {
        // expected-error @below {{start address is computed from a run input and from a value that only exists while the program runs, so no symbol stands for it}}
        %base = arith.addi %x, %i : index
        %v = ktdp.construct_memory_view %base, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
        %d = memref.memory_space_cast %v : memref<64xf16> to memref<64xf16, "DDR">
        ktdf_lowering.execute_on %q {
          "test.use"(%d) : (memref<64xf16, "DDR">) -> ()
        }
      }
      return
    }
  }
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  module {
    func.func @kernel(%a: index) attributes {grid = [1]} {
      call @masked(%a) : (index) -> ()
      return
    }
    func.func private @masked(index)
  }
  module @masked {
    func.func private @masked(%x: index) attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k = arith.constant 0 : index
      %m = uniform.def_immutable_mapping([%k -> %u]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      %mask = arith.constant 4095 : index
      // expected-error @below {{start address is computed from a run input by an operation whose definition cannot be written as a symbol expression}}
      %base = arith.andi %x, %mask : index
      %v = ktdp.construct_memory_view %base, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %d = memref.memory_space_cast %v : memref<64xf16> to memref<64xf16, "DDR">
      ktdf_lowering.execute_on %q {
        "test.use"(%d) : (memref<64xf16, "DDR">) -> ()
      }
      return
    }
  }
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  module {
    func.func @kernel(%a: index) attributes {grid = [2]} {
      call @odd_offset(%a) : (index) -> ()
      return
    }
    func.func private @odd_offset(index)
  }
  module @odd_offset {
    func.func private @odd_offset(%x: index) attributes {grid = [2]} {
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      %tile = ktdp.get_compute_tile_id : index
      // expected-error @below {{the start address is computed from a run input and displaced by a value only known while the program runs, so no symbol stands for it}}
      %odd = arith.andi %tile, %k1 : index
      %v = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %d = memref.memory_space_cast %v : memref<64xf16> to memref<64xf16, "DDR">
      %r = memref.reinterpret_cast %d to offset: [%odd], sizes: [32], strides: [1] : memref<64xf16, "DDR"> to memref<32xf16, strided<[1], offset: ?>, "DDR">
      ktdf_lowering.execute_on %q {
        "test.use"(%r) : (memref<32xf16, strided<[1], offset: ?>, "DDR">) -> ()
      }
      return
    }
  }
}

// -----

// A displacement computed from the program's own argument (the row a host loop passes to each
// call, Decision 50) has no value when symbols are defined: the view starts at the input's
// symbol plus that displacement in bytes, computed by the unit (192 f16 elements, 384 bytes,
// per row).

// CHECK-LABEL: func.func private @row_of_call(%
// CHECK-SAME:      [[X:arg[0-9]+]]: index, %[[ROW:arg[0-9]+]]: index)
// CHECK:         symbol.create_id %[[X]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    dataflow.program_unit
// CHECK-NEXT:      %[[OFF:.*]] = arith.muli %[[ROW]], %c192 : index
// CHECK-NEXT:      %[[S:.*]] = symbol.create_symbol {SymbolId = -1 : i64} : index
// CHECK-NEXT:      %[[BYTES:.*]] = arith.muli %[[OFF]], %c2 : index
// CHECK-NEXT:      %[[START:.*]] = arith.addi %[[S]], %[[BYTES]] : index
// CHECK-NEXT:      dataflow.get_logical_memory_view %{{.*}}, %[[START]]
#s3 = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
module {
  module {
    func.func @kernel3(%a: index) attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c2 step %c1 {
        func.call @row_of_call(%a, %i) : (index, index) -> ()
      }
      return
    }
    func.func private @row_of_call(index, index)
  }
  module @row_of_call {
    func.func private @row_of_call(%x: index, %row: index) attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k = arith.constant 0 : index
      %m = uniform.def_immutable_mapping([%k -> %u]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      %c192 = arith.constant 192 : index
      %off = arith.muli %row, %c192 : index
      %v = ktdp.construct_memory_view %x, sizes: [1024], strides: [1] {coordinate_set = #s3, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
      %d = memref.memory_space_cast %v : memref<1024xf16> to memref<1024xf16, "DDR">
      %r = memref.reinterpret_cast %d to offset: [%off], sizes: [64], strides: [1] : memref<1024xf16, "DDR"> to memref<64xf16, strided<[1], offset: ?>, "DDR">
      ktdf_lowering.execute_on %q {
        "test.use"(%r) : (memref<64xf16, strided<[1], offset: ?>, "DDR">) -> ()
      }
      return
    }
  }
}

// -----

// Two kernels number their inputs one after the other (-1; -2, -3); a program reached from
// the second kernel's last argument is input -3, as that kernel declares it (upstream would
// count from -1 again for every kernel).

// CHECK-LABEL: func.func @first_kernel(
// CHECK-NEXT:    symbol.create_id %{{.*}} {symbol_id = -1 : si64} : index
// CHECK-LABEL: func.func @second_kernel(
// CHECK-NEXT:    symbol.create_id %{{.*}} {symbol_id = -2 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[C:.*]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:    call @late(%[[C]])
// CHECK-LABEL: func.func private @late(%
// CHECK:         symbol.create_id %arg0 {symbol_id = -3 : si64} : index
// CHECK:         symbol.create_symbol {SymbolId = -3 : i64} : index
#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  module {
    func.func @first_kernel(%a: index) attributes {grid = [1]} {
      return
    }
    func.func @second_kernel(%b: index, %c: index) attributes {grid = [1]} {
      call @late(%c) : (index) -> ()
      return
    }
    func.func private @late(index)
  }
  module @late {
    func.func private @late(%x: index) attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %tid = ktdp.get_compute_tile_id : index
      %k = arith.constant 0 : index
      %m = uniform.def_immutable_mapping([%k -> %u]):index
      %q = uniform.query_map(map:%m, key:%tid) : index
      %v = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %d = memref.memory_space_cast %v : memref<64xf16> to memref<64xf16, "DDR">
      ktdf_lowering.execute_on %q {
        "test.use"(%d) : (memref<64xf16, "DDR">) -> ()
      }
      return
    }
  }
}
