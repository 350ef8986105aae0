// A function declaration that returns nothing prints without `-> ()`, as mlir-opt prints it.
// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s

func.func private @no_results(index)
func.func private @nothing() -> ()
func.func private @one_result(index) -> index

// CHECK: func.func private @no_results(index){{$}}
// CHECK: func.func private @nothing(){{$}}
// CHECK: func.func private @one_result(index) -> index{{$}}
