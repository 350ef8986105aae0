"""A generated family of row-tiled KTIR kernels and shrunken devices, for the cost-model tests."""

from __future__ import annotations

from pathlib import Path

from dfsched.arch.loading import DEVICES_DIR

# device file, its scratchpad line, the scratchpad kind
DEVICES = {
    "sample": ("sample_device.mlir", '#scratchpad = {kind = "L1", size = 1048576}', "L1"),
    "quad_corelet": ("quad_corelet.mlir", '#spad = {kind = "SPAD", size = 524288}', "SPAD"),
    "spyre": ("spyre.mlir", '#scratchpad = {kind = "LX", size = 2097152}', "LX"),
}


def small_device(tmp: Path, name: str, scratchpad_bytes: int) -> str:
    """A copy of shipped device `name` whose scratchpad holds `scratchpad_bytes`."""
    file, line, kind = DEVICES[name]
    text = (Path(DEVICES_DIR) / file).read_text()
    assert line in text, f"{file} changed: update tests/unit/tile_family.py"
    path = tmp / f"{name}_{scratchpad_bytes}.mlir"
    path.write_text(text.replace(line, line.replace(line.split("size = ")[1].rstrip("}"), str(scratchpad_bytes))))
    return str(path)


def rows_kernel(rows: int, width: int, operands: int) -> str:
    """out[r, :] = in0[r, :] + ... + in{operands-1}[r, :], f16, one compute tile."""
    row_bytes = width * 2
    names = [f"in{i}" for i in range(operands)] + ["out"]
    lines = [
        f"#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + {width - 1} >= 0)>",
        "#row_major = affine_map<(d0, d1) -> (d0, d1)>",
        "module {",
        "  func.func @rows() attributes {grid = [1]} {",
        "    %c0 = arith.constant 0 : index",
    ]
    for i, name in enumerate(names):
        lines += [
            f"    %{name}_address = arith.constant {i * rows * row_bytes} : index",
            f"    %{name} = ktdp.construct_memory_view %{name}_address, sizes: [{rows}, {width}], "
            f"strides: [{width}, 1] {{coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>}} "
            f": memref<{rows}x{width}xf16>",
            f"    %{name}_all = ktdp.construct_access_tile %{name}[%c0, %c0] {{access_tile_set = #matrix, "
            f"access_tile_order = #row_major}} : memref<{rows}x{width}xf16> -> !ktdp.access_tile<{rows}x{width}xindex>",
        ]
    tensor = f"tensor<{rows}x{width}xf16>"
    for name in names[:-1]:
        lines.append(f"    %{name}_v = ktdp.load %{name}_all : <{rows}x{width}xindex> -> {tensor}")
    current = "%in0_v"
    for i in range(1, operands):
        lines.append(f"    %sum{i} = arith.addf {current}, %in{i}_v : {tensor}")
        current = f"%sum{i}"
    lines += [
        f"    ktdp.store {current}, %out_all : {tensor}, <{rows}x{width}xindex>",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def matmul_kernel(rows: int, inner: int, columns: int) -> str:
    """C = A B, f16, one compute tile: A `rows` x `inner`, B `inner` x `columns`, Inductor style
    (a `linalg.matmul` on loaded tiles into a zero fill), as benchmarks/kernels/matmul_1024_tile.mlir."""
    shapes = {"a": (rows, inner), "b": (inner, columns), "c": (rows, columns)}
    lines = ["#row_major = affine_map<(d0, d1) -> (d0, d1)>"]
    for name, (r, c) in shapes.items():
        lines.append(f"#{name}_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {c - 1} >= 0)>")
    lines += ["module {", "  func.func @matmul() attributes {grid = [1]} {", "    %c0 = arith.constant 0 : index",
              "    %zero = arith.constant 0.000000e+00 : f16"]
    address = 0
    for name, (r, c) in shapes.items():
        memref, tile = f"memref<{r}x{c}xf16>", f"{r}x{c}xindex"
        lines += [
            f"    %{name}_address = arith.constant {address} : index",
            f"    %{name} = ktdp.construct_memory_view %{name}_address, sizes: [{r}, {c}], strides: [{c}, 1] "
            f"{{coordinate_set = #{name}_set, memory_space = #ktdp.memory_space<global>}} : {memref}",
            f"    %{name}_all = ktdp.construct_access_tile %{name}[%c0, %c0] {{access_tile_set = #{name}_set, "
            f"access_tile_order = #row_major}} : {memref} -> !ktdp.access_tile<{tile}>",
        ]
        address += r * c * 2
    a, b, c = (f"tensor<{r}x{k}xf16>" for r, k in shapes.values())
    lines += [
        f"    %x = ktdp.load %a_all : <{rows}x{inner}xindex> -> {a}",
        f"    %y = ktdp.load %b_all : <{inner}x{columns}xindex> -> {b}",
        f"    %empty = tensor.empty() : {c}",
        f"    %init = linalg.fill ins(%zero : f16) outs(%empty : {c}) -> {c}",
        f"    %product = linalg.matmul ins(%x, %y : {a}, {b}) outs(%init : {c}) -> {c}",
        f"    ktdp.store %product, %c_all : {c}, <{rows}x{columns}xindex>",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"
