// RUN: dfsched-opt %s --compute-group-extraction | filecheck %s

// One straight-line group: the kernel becomes an orchestrator that only calls the
// program; the program holds copies of everything the group needs (views, tile id,
// address arithmetic, constants), operands before users, and the kernel's grid. The device
// declaration stays at the top level, after the orchestrator.

// CHECK:      module {
// CHECK-NEXT:   module {
// CHECK:          func.func @scale(%[[ALPHA:[a-zA-Z0-9_]+]]: f16) attributes {grid = [4{{( : i64)?}}]} {
// CHECK-NEXT:       call @local_schedule_0(%[[ALPHA]]) : (f16) -> ()
// CHECK:            return
// CHECK:          }
// CHECK:          func.func private @local_schedule_0(f16)
// CHECK:        }
// CHECK-NEXT:   ktdf_arch.device @sample_device import("sample_device.mlir")
// CHECK-NEXT:   module @local_schedule_0 {
// CHECK:          func.func @local_schedule_0(%[[P:[a-zA-Z0-9_]+]]: f16) attributes {grid = [4{{( : i64)?}}]} {
// CHECK:            %[[XADDR:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:       %[[XVIEW:[a-zA-Z0-9_]+]] = ktdp.construct_memory_view %[[XADDR]], sizes: [32, 64]
// CHECK-NEXT:       %[[ID:[a-zA-Z0-9_]+]] = ktdp.get_compute_tile_id : index
// CHECK:            %[[ROWS:[a-zA-Z0-9_]+]] = arith.constant 8 : index
// CHECK-NEXT:       %[[ROW:[a-zA-Z0-9_]+]] = arith.muli %[[ID]], %[[ROWS]] : index
// CHECK:            %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:       %[[XTILE:[a-zA-Z0-9_]+]] = ktdp.construct_access_tile %[[XVIEW]][%[[ROW]], %[[C0]]]
// CHECK-NEXT:       %[[X:[a-zA-Z0-9_]+]] = ktdp.load %[[XTILE]]
// CHECK-NEXT:       %[[SPLAT:[a-zA-Z0-9_]+]] = tensor.splat %[[P]] : tensor<8x64xf16>
// CHECK:            %[[INIT:[a-zA-Z0-9_]+]] = tensor.empty() : tensor<8x64xf16>
// CHECK-NEXT:       %[[Y:[a-zA-Z0-9_]+]] = linalg.mul ins(%[[X]], %[[SPLAT]] : {{.*}}) outs(%[[INIT]] : tensor<8x64xf16>)
// CHECK:            %[[YADDR:[a-zA-Z0-9_]+]] = arith.constant 4096 : index
// CHECK-NEXT:       %[[YVIEW:[a-zA-Z0-9_]+]] = ktdp.construct_memory_view %[[YADDR]], sizes: [32, 64]
// CHECK-NEXT:       %[[YTILE:[a-zA-Z0-9_]+]] = ktdp.construct_access_tile %[[YVIEW]][%[[ROW]], %[[C0]]]
// CHECK-NEXT:       ktdp.store %[[Y]], %[[YTILE]]
// CHECK:            return
// CHECK:          }
// CHECK:        }
// CHECK:      }

ktdf_arch.device @sample_device import("sample_device.mlir")

func.func @scale(%alpha: f16) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 8 : index
  %x_addr = arith.constant 0 : index
  %y_addr = arith.constant 4096 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %rows : index
  %x_view = ktdp.construct_memory_view %x_addr, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<32x64xf16>
  %y_view = ktdp.construct_memory_view %y_addr, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<32x64xf16>
  %x_tile = ktdp.construct_access_tile %x_view[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
  %y_tile = ktdp.construct_access_tile %y_view[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
  %x = ktdp.load %x_tile : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %a = tensor.splat %alpha : tensor<8x64xf16>
  %init = tensor.empty() : tensor<8x64xf16>
  %y = linalg.mul ins(%x, %a : tensor<8x64xf16>, tensor<8x64xf16>) outs(%init : tensor<8x64xf16>) -> tensor<8x64xf16>
  ktdp.store %y, %y_tile : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
