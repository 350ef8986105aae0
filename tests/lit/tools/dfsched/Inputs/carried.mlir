// Input of failure.test: a kernel with a loop carrying a value, which the legality check
// rejects.
module {
  func.func @carried() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %c0) -> (index) {
      scf.yield %i : index
    }
    return
  }
}
