// RUN: not dfsched-opt %s --address-units-to-bytes="address-unit=word" 2>&1 | filecheck %s
// RUN: not dfsched-opt %s --unit word 2>&1 | filecheck %s --check-prefix=FLAG
// CHECK: address-unit must be 'byte' or 'element', got 'word'
// FLAG: argument --unit: invalid choice: 'word'
func.func @k() {
  return
}
