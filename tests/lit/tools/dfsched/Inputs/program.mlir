module {
  module {
    func.func @kernel() {
      call @p() : () -> ()
      return
    }
    func.func private @p()
  }
  module @p {
    func.func @p() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
  }
}
