// Two compute groups in a host loop nest, on 4x64 f16 matrices: for i in [0, 2) and j in
// [0, 4) step 2, C[r] = A[r] + B[r] with r = 2 * i + j / 2 (the inner loop's group), then
// D[2i] = A[2i] * A[2i] (the outer loop's group). The orchestrator keeps both loops and calls
// the two programs in them; loop normalisation turns the step-2 index into an affine.apply.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @two_groups_in_loops() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 512 : index
    %c_address = arith.constant 1024 : index
    %d_address = arith.constant 1536 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %d = ktdp.construct_memory_view %d_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c4 step %c2 {
        %twice = arith.muli %i, %c2 : index
        %half = arith.divui %j, %c2 : index
        %r = arith.addi %twice, %half : index
        %ta = ktdp.construct_access_tile %a[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #row_major
        } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
        %tb = ktdp.construct_access_tile %b[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #row_major
        } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
        %tc = ktdp.construct_access_tile %c[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #row_major
        } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
        %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
        %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1x64xf16>
        %s = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>)
                        outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
        ktdp.store %s, %tc : tensor<1x64xf16>, <1x64xindex>
      }
      %row = arith.muli %i, %c2 : index
      %ta2 = ktdp.construct_access_tile %a[%row, %c0] {
        access_tile_set = #one_row, access_tile_order = #row_major
      } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %td = ktdp.construct_access_tile %d[%row, %c0] {
        access_tile_set = #one_row, access_tile_order = #row_major
      } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x2 = ktdp.load %ta2 : <1x64xindex> -> tensor<1x64xf16>
      %e2 = tensor.empty() : tensor<1x64xf16>
      %p = linalg.mul ins(%x2, %x2 : tensor<1x64xf16>, tensor<1x64xf16>)
                      outs(%e2 : tensor<1x64xf16>) -> tensor<1x64xf16>
      ktdp.store %p, %td : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
