// Input of failure.test: a kernel without a grid, which the legality check rejects.
module {
  func.func @no_grid() {
    return
  }
}
