module {
  func.func @matmul() attributes {grid = [16]} {
    call @local_schedule_0() : () -> ()
    return
  }
  func.func private @local_schedule_0()
}
