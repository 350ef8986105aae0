#map = affine_map<(d0, d1) -> (d0 * 128 + d1)>
#map1 = affine_map<(d0, d1) -> (d0 * 64 + d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0 * 128 + d1 * 128 + d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0) -> (0, d0 * 64)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0) -> (0, 0, d0 * 64)>
#map7 = affine_map<(d0) -> (d0)>
#map8 = affine_map<(d0) -> (d0, 0)>
#map9 = affine_map<(d0, d1, d2) -> (d0 * 64 + d1 * 64 + d2)>
#map10 = affine_map<(d0) -> (0, 0, 0)>
#map11 = affine_map<(d0) -> (0, 0)>
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1, d2) : (d0 == 0, d1 == 0, d2 >= 0, -d2 + 63 >= 0)>
#set2 = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#set3 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#set4 = affine_set<(d0, d1, d2) : (d0 == 0, d1 == 0, d2 == 0)>
#set5 = affine_set<(d0) : (d0 == 0)>
module {
  func.func @local_schedule_0() {
    call @local_schedule_0_body() : () -> ()
    return
  }
  func.func @local_schedule_0_body() attributes {grid = [16]} {
    %c256 = arith.constant 256 : index
    %c2 = arith.constant 2 : index
    %c512 = arith.constant 512 : index
    %c40448 = arith.constant 40448 : index
    %c39936 = arith.constant 39936 : index
    %c39424 = arith.constant 39424 : index
    %c38912 = arith.constant 38912 : index
    %c38400 = arith.constant 38400 : index
    %c37888 = arith.constant 37888 : index
    %c37376 = arith.constant 37376 : index
    %c36864 = arith.constant 36864 : index
    %c36352 = arith.constant 36352 : index
    %c35840 = arith.constant 35840 : index
    %c35328 = arith.constant 35328 : index
    %c34816 = arith.constant 34816 : index
    %c34304 = arith.constant 34304 : index
    %c33792 = arith.constant 33792 : index
    %c33280 = arith.constant 33280 : index
    %c32768 = arith.constant 32768 : index
    %c15360 = arith.constant 15360 : index
    %c14336 = arith.constant 14336 : index
    %c13312 = arith.constant 13312 : index
    %c12288 = arith.constant 12288 : index
    %c11264 = arith.constant 11264 : index
    %c10240 = arith.constant 10240 : index
    %c9216 = arith.constant 9216 : index
    %c8192 = arith.constant 8192 : index
    %c7168 = arith.constant 7168 : index
    %c6144 = arith.constant 6144 : index
    %c5120 = arith.constant 5120 : index
    %c4096 = arith.constant 4096 : index
    %c3072 = arith.constant 3072 : index
    %c2048 = arith.constant 2048 : index
    %c17408 = arith.constant 17408 : index
    %c1024 = arith.constant 1024 : index
    %c16384 = arith.constant 16384 : index
    %c128 = arith.constant 128 : index
    %c127 = arith.constant 127 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
    %1 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnilu", type = "mnilu"} : index
    %2 = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-mnilu", type = "mnilu"} : index
    %3 = dataflow.get_unit {core = 3 : i32, corelet = 0 : i32, name = "C3-mnilu", type = "mnilu"} : index
    %4 = dataflow.get_unit {core = 4 : i32, corelet = 0 : i32, name = "C4-mnilu", type = "mnilu"} : index
    %5 = dataflow.get_unit {core = 5 : i32, corelet = 0 : i32, name = "C5-mnilu", type = "mnilu"} : index
    %6 = dataflow.get_unit {core = 6 : i32, corelet = 0 : i32, name = "C6-mnilu", type = "mnilu"} : index
    %7 = dataflow.get_unit {core = 7 : i32, corelet = 0 : i32, name = "C7-mnilu", type = "mnilu"} : index
    %8 = dataflow.get_unit {core = 8 : i32, corelet = 0 : i32, name = "C8-mnilu", type = "mnilu"} : index
    %9 = dataflow.get_unit {core = 9 : i32, corelet = 0 : i32, name = "C9-mnilu", type = "mnilu"} : index
    %10 = dataflow.get_unit {core = 10 : i32, corelet = 0 : i32, name = "C10-mnilu", type = "mnilu"} : index
    %11 = dataflow.get_unit {core = 11 : i32, corelet = 0 : i32, name = "C11-mnilu", type = "mnilu"} : index
    %12 = dataflow.get_unit {core = 12 : i32, corelet = 0 : i32, name = "C12-mnilu", type = "mnilu"} : index
    %13 = dataflow.get_unit {core = 13 : i32, corelet = 0 : i32, name = "C13-mnilu", type = "mnilu"} : index
    %14 = dataflow.get_unit {core = 14 : i32, corelet = 0 : i32, name = "C14-mnilu", type = "mnilu"} : index
    %15 = dataflow.get_unit {core = 15 : i32, corelet = 0 : i32, name = "C15-mnilu", type = "mnilu"} : index
    %16 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnisu", type = "mnisu"} : index
    %17 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnisu", type = "mnisu"} : index
    %18 = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-mnisu", type = "mnisu"} : index
    %19 = dataflow.get_unit {core = 3 : i32, corelet = 0 : i32, name = "C3-mnisu", type = "mnisu"} : index
    %20 = dataflow.get_unit {core = 4 : i32, corelet = 0 : i32, name = "C4-mnisu", type = "mnisu"} : index
    %21 = dataflow.get_unit {core = 5 : i32, corelet = 0 : i32, name = "C5-mnisu", type = "mnisu"} : index
    %22 = dataflow.get_unit {core = 6 : i32, corelet = 0 : i32, name = "C6-mnisu", type = "mnisu"} : index
    %23 = dataflow.get_unit {core = 7 : i32, corelet = 0 : i32, name = "C7-mnisu", type = "mnisu"} : index
    %24 = dataflow.get_unit {core = 8 : i32, corelet = 0 : i32, name = "C8-mnisu", type = "mnisu"} : index
    %25 = dataflow.get_unit {core = 9 : i32, corelet = 0 : i32, name = "C9-mnisu", type = "mnisu"} : index
    %26 = dataflow.get_unit {core = 10 : i32, corelet = 0 : i32, name = "C10-mnisu", type = "mnisu"} : index
    %27 = dataflow.get_unit {core = 11 : i32, corelet = 0 : i32, name = "C11-mnisu", type = "mnisu"} : index
    %28 = dataflow.get_unit {core = 12 : i32, corelet = 0 : i32, name = "C12-mnisu", type = "mnisu"} : index
    %29 = dataflow.get_unit {core = 13 : i32, corelet = 0 : i32, name = "C13-mnisu", type = "mnisu"} : index
    %30 = dataflow.get_unit {core = 14 : i32, corelet = 0 : i32, name = "C14-mnisu", type = "mnisu"} : index
    %31 = dataflow.get_unit {core = 15 : i32, corelet = 0 : i32, name = "C15-mnisu", type = "mnisu"} : index
    %32 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu-CL0", type = "l1lu"} : index
    %33 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu-CL0", type = "l1lu"} : index
    %34 = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-l1lu-CL0", type = "l1lu"} : index
    %35 = dataflow.get_unit {core = 3 : i32, corelet = 0 : i32, name = "C3-l1lu-CL0", type = "l1lu"} : index
    %36 = dataflow.get_unit {core = 4 : i32, corelet = 0 : i32, name = "C4-l1lu-CL0", type = "l1lu"} : index
    %37 = dataflow.get_unit {core = 5 : i32, corelet = 0 : i32, name = "C5-l1lu-CL0", type = "l1lu"} : index
    %38 = dataflow.get_unit {core = 6 : i32, corelet = 0 : i32, name = "C6-l1lu-CL0", type = "l1lu"} : index
    %39 = dataflow.get_unit {core = 7 : i32, corelet = 0 : i32, name = "C7-l1lu-CL0", type = "l1lu"} : index
    %40 = dataflow.get_unit {core = 8 : i32, corelet = 0 : i32, name = "C8-l1lu-CL0", type = "l1lu"} : index
    %41 = dataflow.get_unit {core = 9 : i32, corelet = 0 : i32, name = "C9-l1lu-CL0", type = "l1lu"} : index
    %42 = dataflow.get_unit {core = 10 : i32, corelet = 0 : i32, name = "C10-l1lu-CL0", type = "l1lu"} : index
    %43 = dataflow.get_unit {core = 11 : i32, corelet = 0 : i32, name = "C11-l1lu-CL0", type = "l1lu"} : index
    %44 = dataflow.get_unit {core = 12 : i32, corelet = 0 : i32, name = "C12-l1lu-CL0", type = "l1lu"} : index
    %45 = dataflow.get_unit {core = 13 : i32, corelet = 0 : i32, name = "C13-l1lu-CL0", type = "l1lu"} : index
    %46 = dataflow.get_unit {core = 14 : i32, corelet = 0 : i32, name = "C14-l1lu-CL0", type = "l1lu"} : index
    %47 = dataflow.get_unit {core = 15 : i32, corelet = 0 : i32, name = "C15-l1lu-CL0", type = "l1lu"} : index
    %48 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-l1lu-CL1", type = "l1lu"} : index
    %49 = dataflow.get_unit {core = 1 : i32, corelet = 1 : i32, name = "C1-l1lu-CL1", type = "l1lu"} : index
    %50 = dataflow.get_unit {core = 2 : i32, corelet = 1 : i32, name = "C2-l1lu-CL1", type = "l1lu"} : index
    %51 = dataflow.get_unit {core = 3 : i32, corelet = 1 : i32, name = "C3-l1lu-CL1", type = "l1lu"} : index
    %52 = dataflow.get_unit {core = 4 : i32, corelet = 1 : i32, name = "C4-l1lu-CL1", type = "l1lu"} : index
    %53 = dataflow.get_unit {core = 5 : i32, corelet = 1 : i32, name = "C5-l1lu-CL1", type = "l1lu"} : index
    %54 = dataflow.get_unit {core = 6 : i32, corelet = 1 : i32, name = "C6-l1lu-CL1", type = "l1lu"} : index
    %55 = dataflow.get_unit {core = 7 : i32, corelet = 1 : i32, name = "C7-l1lu-CL1", type = "l1lu"} : index
    %56 = dataflow.get_unit {core = 8 : i32, corelet = 1 : i32, name = "C8-l1lu-CL1", type = "l1lu"} : index
    %57 = dataflow.get_unit {core = 9 : i32, corelet = 1 : i32, name = "C9-l1lu-CL1", type = "l1lu"} : index
    %58 = dataflow.get_unit {core = 10 : i32, corelet = 1 : i32, name = "C10-l1lu-CL1", type = "l1lu"} : index
    %59 = dataflow.get_unit {core = 11 : i32, corelet = 1 : i32, name = "C11-l1lu-CL1", type = "l1lu"} : index
    %60 = dataflow.get_unit {core = 12 : i32, corelet = 1 : i32, name = "C12-l1lu-CL1", type = "l1lu"} : index
    %61 = dataflow.get_unit {core = 13 : i32, corelet = 1 : i32, name = "C13-l1lu-CL1", type = "l1lu"} : index
    %62 = dataflow.get_unit {core = 14 : i32, corelet = 1 : i32, name = "C14-l1lu-CL1", type = "l1lu"} : index
    %63 = dataflow.get_unit {core = 15 : i32, corelet = 1 : i32, name = "C15-l1lu-CL1", type = "l1lu"} : index
    %64 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu-CL0", type = "sfu"} : index
    %65 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu-CL0", type = "sfu"} : index
    %66 = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-sfu-CL0", type = "sfu"} : index
    %67 = dataflow.get_unit {core = 3 : i32, corelet = 0 : i32, name = "C3-sfu-CL0", type = "sfu"} : index
    %68 = dataflow.get_unit {core = 4 : i32, corelet = 0 : i32, name = "C4-sfu-CL0", type = "sfu"} : index
    %69 = dataflow.get_unit {core = 5 : i32, corelet = 0 : i32, name = "C5-sfu-CL0", type = "sfu"} : index
    %70 = dataflow.get_unit {core = 6 : i32, corelet = 0 : i32, name = "C6-sfu-CL0", type = "sfu"} : index
    %71 = dataflow.get_unit {core = 7 : i32, corelet = 0 : i32, name = "C7-sfu-CL0", type = "sfu"} : index
    %72 = dataflow.get_unit {core = 8 : i32, corelet = 0 : i32, name = "C8-sfu-CL0", type = "sfu"} : index
    %73 = dataflow.get_unit {core = 9 : i32, corelet = 0 : i32, name = "C9-sfu-CL0", type = "sfu"} : index
    %74 = dataflow.get_unit {core = 10 : i32, corelet = 0 : i32, name = "C10-sfu-CL0", type = "sfu"} : index
    %75 = dataflow.get_unit {core = 11 : i32, corelet = 0 : i32, name = "C11-sfu-CL0", type = "sfu"} : index
    %76 = dataflow.get_unit {core = 12 : i32, corelet = 0 : i32, name = "C12-sfu-CL0", type = "sfu"} : index
    %77 = dataflow.get_unit {core = 13 : i32, corelet = 0 : i32, name = "C13-sfu-CL0", type = "sfu"} : index
    %78 = dataflow.get_unit {core = 14 : i32, corelet = 0 : i32, name = "C14-sfu-CL0", type = "sfu"} : index
    %79 = dataflow.get_unit {core = 15 : i32, corelet = 0 : i32, name = "C15-sfu-CL0", type = "sfu"} : index
    %80 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-sfu-CL1", type = "sfu"} : index
    %81 = dataflow.get_unit {core = 1 : i32, corelet = 1 : i32, name = "C1-sfu-CL1", type = "sfu"} : index
    %82 = dataflow.get_unit {core = 2 : i32, corelet = 1 : i32, name = "C2-sfu-CL1", type = "sfu"} : index
    %83 = dataflow.get_unit {core = 3 : i32, corelet = 1 : i32, name = "C3-sfu-CL1", type = "sfu"} : index
    %84 = dataflow.get_unit {core = 4 : i32, corelet = 1 : i32, name = "C4-sfu-CL1", type = "sfu"} : index
    %85 = dataflow.get_unit {core = 5 : i32, corelet = 1 : i32, name = "C5-sfu-CL1", type = "sfu"} : index
    %86 = dataflow.get_unit {core = 6 : i32, corelet = 1 : i32, name = "C6-sfu-CL1", type = "sfu"} : index
    %87 = dataflow.get_unit {core = 7 : i32, corelet = 1 : i32, name = "C7-sfu-CL1", type = "sfu"} : index
    %88 = dataflow.get_unit {core = 8 : i32, corelet = 1 : i32, name = "C8-sfu-CL1", type = "sfu"} : index
    %89 = dataflow.get_unit {core = 9 : i32, corelet = 1 : i32, name = "C9-sfu-CL1", type = "sfu"} : index
    %90 = dataflow.get_unit {core = 10 : i32, corelet = 1 : i32, name = "C10-sfu-CL1", type = "sfu"} : index
    %91 = dataflow.get_unit {core = 11 : i32, corelet = 1 : i32, name = "C11-sfu-CL1", type = "sfu"} : index
    %92 = dataflow.get_unit {core = 12 : i32, corelet = 1 : i32, name = "C12-sfu-CL1", type = "sfu"} : index
    %93 = dataflow.get_unit {core = 13 : i32, corelet = 1 : i32, name = "C13-sfu-CL1", type = "sfu"} : index
    %94 = dataflow.get_unit {core = 14 : i32, corelet = 1 : i32, name = "C14-sfu-CL1", type = "sfu"} : index
    %95 = dataflow.get_unit {core = 15 : i32, corelet = 1 : i32, name = "C15-sfu-CL1", type = "sfu"} : index
    %96 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1su-CL0", type = "l1su"} : index
    %97 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1su-CL0", type = "l1su"} : index
    %98 = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-l1su-CL0", type = "l1su"} : index
    %99 = dataflow.get_unit {core = 3 : i32, corelet = 0 : i32, name = "C3-l1su-CL0", type = "l1su"} : index
    %100 = dataflow.get_unit {core = 4 : i32, corelet = 0 : i32, name = "C4-l1su-CL0", type = "l1su"} : index
    %101 = dataflow.get_unit {core = 5 : i32, corelet = 0 : i32, name = "C5-l1su-CL0", type = "l1su"} : index
    %102 = dataflow.get_unit {core = 6 : i32, corelet = 0 : i32, name = "C6-l1su-CL0", type = "l1su"} : index
    %103 = dataflow.get_unit {core = 7 : i32, corelet = 0 : i32, name = "C7-l1su-CL0", type = "l1su"} : index
    %104 = dataflow.get_unit {core = 8 : i32, corelet = 0 : i32, name = "C8-l1su-CL0", type = "l1su"} : index
    %105 = dataflow.get_unit {core = 9 : i32, corelet = 0 : i32, name = "C9-l1su-CL0", type = "l1su"} : index
    %106 = dataflow.get_unit {core = 10 : i32, corelet = 0 : i32, name = "C10-l1su-CL0", type = "l1su"} : index
    %107 = dataflow.get_unit {core = 11 : i32, corelet = 0 : i32, name = "C11-l1su-CL0", type = "l1su"} : index
    %108 = dataflow.get_unit {core = 12 : i32, corelet = 0 : i32, name = "C12-l1su-CL0", type = "l1su"} : index
    %109 = dataflow.get_unit {core = 13 : i32, corelet = 0 : i32, name = "C13-l1su-CL0", type = "l1su"} : index
    %110 = dataflow.get_unit {core = 14 : i32, corelet = 0 : i32, name = "C14-l1su-CL0", type = "l1su"} : index
    %111 = dataflow.get_unit {core = 15 : i32, corelet = 0 : i32, name = "C15-l1su-CL0", type = "l1su"} : index
    %112 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-l1su-CL1", type = "l1su"} : index
    %113 = dataflow.get_unit {core = 1 : i32, corelet = 1 : i32, name = "C1-l1su-CL1", type = "l1su"} : index
    %114 = dataflow.get_unit {core = 2 : i32, corelet = 1 : i32, name = "C2-l1su-CL1", type = "l1su"} : index
    %115 = dataflow.get_unit {core = 3 : i32, corelet = 1 : i32, name = "C3-l1su-CL1", type = "l1su"} : index
    %116 = dataflow.get_unit {core = 4 : i32, corelet = 1 : i32, name = "C4-l1su-CL1", type = "l1su"} : index
    %117 = dataflow.get_unit {core = 5 : i32, corelet = 1 : i32, name = "C5-l1su-CL1", type = "l1su"} : index
    %118 = dataflow.get_unit {core = 6 : i32, corelet = 1 : i32, name = "C6-l1su-CL1", type = "l1su"} : index
    %119 = dataflow.get_unit {core = 7 : i32, corelet = 1 : i32, name = "C7-l1su-CL1", type = "l1su"} : index
    %120 = dataflow.get_unit {core = 8 : i32, corelet = 1 : i32, name = "C8-l1su-CL1", type = "l1su"} : index
    %121 = dataflow.get_unit {core = 9 : i32, corelet = 1 : i32, name = "C9-l1su-CL1", type = "l1su"} : index
    %122 = dataflow.get_unit {core = 10 : i32, corelet = 1 : i32, name = "C10-l1su-CL1", type = "l1su"} : index
    %123 = dataflow.get_unit {core = 11 : i32, corelet = 1 : i32, name = "C11-l1su-CL1", type = "l1su"} : index
    %124 = dataflow.get_unit {core = 12 : i32, corelet = 1 : i32, name = "C12-l1su-CL1", type = "l1su"} : index
    %125 = dataflow.get_unit {core = 13 : i32, corelet = 1 : i32, name = "C13-l1su-CL1", type = "l1su"} : index
    %126 = dataflow.get_unit {core = 14 : i32, corelet = 1 : i32, name = "C14-l1su-CL1", type = "l1su"} : index
    %127 = dataflow.get_unit {core = 15 : i32, corelet = 1 : i32, name = "C15-l1su-CL1", type = "l1su"} : index
    %128 = dataflow.get_unit {name = "ddr", type = "ddr"} : index
    %129 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
    %130 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
    %131 = dataflow.get_unit {core = 2 : i32, name = "C2-l1", type = "l1"} : index
    %132 = dataflow.get_unit {core = 3 : i32, name = "C3-l1", type = "l1"} : index
    %133 = dataflow.get_unit {core = 4 : i32, name = "C4-l1", type = "l1"} : index
    %134 = dataflow.get_unit {core = 5 : i32, name = "C5-l1", type = "l1"} : index
    %135 = dataflow.get_unit {core = 6 : i32, name = "C6-l1", type = "l1"} : index
    %136 = dataflow.get_unit {core = 7 : i32, name = "C7-l1", type = "l1"} : index
    %137 = dataflow.get_unit {core = 8 : i32, name = "C8-l1", type = "l1"} : index
    %138 = dataflow.get_unit {core = 9 : i32, name = "C9-l1", type = "l1"} : index
    %139 = dataflow.get_unit {core = 10 : i32, name = "C10-l1", type = "l1"} : index
    %140 = dataflow.get_unit {core = 11 : i32, name = "C11-l1", type = "l1"} : index
    %141 = dataflow.get_unit {core = 12 : i32, name = "C12-l1", type = "l1"} : index
    %142 = dataflow.get_unit {core = 13 : i32, name = "C13-l1", type = "l1"} : index
    %143 = dataflow.get_unit {core = 14 : i32, name = "C14-l1", type = "l1"} : index
    %144 = dataflow.get_unit {core = 15 : i32, name = "C15-l1", type = "l1"} : index
    %145 = dataflow.get_unit {name = "sfu_reg", type = "sfu_reg"} : index
    dataflow.program_unit iter_arg : %arg0 -> (%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15) : {
      %146 = uniform.def_immutable_mapping([%0 -> %129], [%1 -> %130], [%2 -> %131], [%3 -> %132], [%4 -> %133], [%5 -> %134], [%6 -> %135], [%7 -> %136], [%8 -> %137], [%9 -> %138], [%10 -> %139], [%11 -> %140], [%12 -> %141], [%13 -> %142], [%14 -> %143], [%15 -> %144]):index
      %147 = uniform.query_map(map:%146, key:%arg0) : index
      %148 = uniform.def_immutable_mapping([%0 -> %c0], [%1 -> %c1024], [%2 -> %c2048], [%3 -> %c3072], [%4 -> %c4096], [%5 -> %c5120], [%6 -> %c6144], [%7 -> %c7168], [%8 -> %c8192], [%9 -> %c9216], [%10 -> %c10240], [%11 -> %c11264], [%12 -> %c12288], [%13 -> %c13312], [%14 -> %c14336], [%15 -> %c15360]):index
      %149 = uniform.query_map(map:%148, key:%arg0) : index
      %150 = dataflow.get_logical_memory_view %128, %149 {layout_map = #map} : index, index, memref<64x128xf16>
      %151 = dataflow.get_logical_memory_view %128, %c16384 {layout_map = #map1} : index, index, memref<128x64xf16>
      %152 = dataflow.get_logical_memory_view %147, %c0 {layout_map = #map2} : index, index, memref<4x1x128xf16>
      %153 = dataflow.get_logical_memory_view %147, %c1024 {layout_map = #map1} : index, index, memref<128x64xf16>
      scf.for %arg1 = %c0 to %c4 step %c1 {
        agen.composite_load_and_store src:%150[%arg1, 0] dst:%152[%arg1, 0, 0]
         time_symbols(), load_iv(%arg2:vector<64xf16>)
         {load_order = #map3, load_set = #set, load_time_addr_map = #map4, store_order = #map5, store_set = #set1, store_time_addr_map = #map6, time_order = #map7, time_set = #set2}
        {
          agen.yield
        } : memref<64x128xf16>, memref<4x1x128xf16>
        agen.composite_load_and_store src:%151[0, %c0 * 64] dst:%153[0, 0]
         time_symbols(), load_iv(%arg2:vector<64xf16>)
         {load_order = #map3, load_set = #set, load_time_addr_map = #map8, store_order = #map3, store_set = #set, store_time_addr_map = #map8, time_order = #map7, time_set = #set3}
        {
          agen.yield
        } : memref<128x64xf16>, memref<128x64xf16>
      }
      %154 = uniform.def_immutable_mapping([%0 -> %32], [%1 -> %33], [%2 -> %34], [%3 -> %35], [%4 -> %36], [%5 -> %37], [%6 -> %38], [%7 -> %39], [%8 -> %40], [%9 -> %41], [%10 -> %42], [%11 -> %43], [%12 -> %44], [%13 -> %45], [%14 -> %46], [%15 -> %47]):index
      %155 = uniform.query_map(map:%154, key:%arg0) : index
      %156 = uniform.def_immutable_mapping([%0 -> %48], [%1 -> %49], [%2 -> %50], [%3 -> %51], [%4 -> %52], [%5 -> %53], [%6 -> %54], [%7 -> %55], [%8 -> %56], [%9 -> %57], [%10 -> %58], [%11 -> %59], [%12 -> %60], [%13 -> %61], [%14 -> %62], [%15 -> %63]):index
      %157 = uniform.query_map(map:%156, key:%arg0) : index
      dataflow.sync_send %155 {wait_immediately_for_async_transfers = true} : index
      dataflow.sync_send %157 {wait_immediately_for_async_transfers = true} : index
      dataflow.sync_recv %155 : index
      dataflow.sync_recv %157 : index
    }
    dataflow.program_unit iter_arg : %arg0 -> (%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63) : {
      %146 = uniform.def_immutable_mapping([%32 -> %129], [%33 -> %130], [%34 -> %131], [%35 -> %132], [%36 -> %133], [%37 -> %134], [%38 -> %135], [%39 -> %136], [%40 -> %137], [%41 -> %138], [%42 -> %139], [%43 -> %140], [%44 -> %141], [%45 -> %142], [%46 -> %143], [%47 -> %144], [%48 -> %129], [%49 -> %130], [%50 -> %131], [%51 -> %132], [%52 -> %133], [%53 -> %134], [%54 -> %135], [%55 -> %136], [%56 -> %137], [%57 -> %138], [%58 -> %139], [%59 -> %140], [%60 -> %141], [%61 -> %142], [%62 -> %143], [%63 -> %144]):index
      %147 = uniform.query_map(map:%146, key:%arg0) : index
      %148 = uniform.def_immutable_mapping([%32 -> %c0], [%33 -> %c0], [%34 -> %c0], [%35 -> %c0], [%36 -> %c0], [%37 -> %c0], [%38 -> %c0], [%39 -> %c0], [%40 -> %c0], [%41 -> %c0], [%42 -> %c0], [%43 -> %c0], [%44 -> %c0], [%45 -> %c0], [%46 -> %c0], [%47 -> %c0], [%48 -> %c512], [%49 -> %c512], [%50 -> %c512], [%51 -> %c512], [%52 -> %c512], [%53 -> %c512], [%54 -> %c512], [%55 -> %c512], [%56 -> %c512], [%57 -> %c512], [%58 -> %c512], [%59 -> %c512], [%60 -> %c512], [%61 -> %c512], [%62 -> %c512], [%63 -> %c512]):index
      %149 = uniform.query_map(map:%148, key:%arg0) : index
      %150 = dataflow.get_logical_memory_view %147, %149 {layout_map = #map2} : index, index, memref<4x1x128xf16>
      %151 = dataflow.get_logical_memory_view %147, %c1024 {layout_map = #map1} : index, index, memref<128x64xf16>
      %152 = uniform.def_immutable_mapping([%32 -> %0], [%33 -> %1], [%34 -> %2], [%35 -> %3], [%36 -> %4], [%37 -> %5], [%38 -> %6], [%39 -> %7], [%40 -> %8], [%41 -> %9], [%42 -> %10], [%43 -> %11], [%44 -> %12], [%45 -> %13], [%46 -> %14], [%47 -> %15], [%48 -> %0], [%49 -> %1], [%50 -> %2], [%51 -> %3], [%52 -> %4], [%53 -> %5], [%54 -> %6], [%55 -> %7], [%56 -> %8], [%57 -> %9], [%58 -> %10], [%59 -> %11], [%60 -> %12], [%61 -> %13], [%62 -> %14], [%63 -> %15]):index
      %153 = uniform.query_map(map:%152, key:%arg0) : index
      dataflow.sync_send %153 {wait_immediately_for_async_transfers = true} : index
      dataflow.sync_recv %153 : index
      scf.for %arg1 = %c0 to %c2 step %c1 {
        scf.for %arg2 = %c0 to %c128 step %c1 {
          %154 = agen.vector_load %150[%arg1, 0, %arg2] {load_order = #map5, load_set = #set4} : memref<4x1x128xf16>, vector<1xf16>
          %155 = uniform.def_immutable_mapping([%32 -> %64], [%33 -> %65], [%34 -> %66], [%35 -> %67], [%36 -> %68], [%37 -> %69], [%38 -> %70], [%39 -> %71], [%40 -> %72], [%41 -> %73], [%42 -> %74], [%43 -> %75], [%44 -> %76], [%45 -> %77], [%46 -> %78], [%47 -> %79], [%48 -> %80], [%49 -> %81], [%50 -> %82], [%51 -> %83], [%52 -> %84], [%53 -> %85], [%54 -> %86], [%55 -> %87], [%56 -> %88], [%57 -> %89], [%58 -> %90], [%59 -> %91], [%60 -> %92], [%61 -> %93], [%62 -> %94], [%63 -> %95]):index
          %156 = uniform.query_map(map:%155, key:%arg0) : index
          dataflow.send %156, %154 : vector<1xf16>
          %157 = agen.vector_load %151[%arg2, 0] {load_order = #map3, load_set = #set} : memref<128x64xf16>, vector<64xf16>
          %158 = uniform.def_immutable_mapping([%32 -> %64], [%33 -> %65], [%34 -> %66], [%35 -> %67], [%36 -> %68], [%37 -> %69], [%38 -> %70], [%39 -> %71], [%40 -> %72], [%41 -> %73], [%42 -> %74], [%43 -> %75], [%44 -> %76], [%45 -> %77], [%46 -> %78], [%47 -> %79], [%48 -> %80], [%49 -> %81], [%50 -> %82], [%51 -> %83], [%52 -> %84], [%53 -> %85], [%54 -> %86], [%55 -> %87], [%56 -> %88], [%57 -> %89], [%58 -> %90], [%59 -> %91], [%60 -> %92], [%61 -> %93], [%62 -> %94], [%63 -> %95]):index
          %159 = uniform.query_map(map:%158, key:%arg0) : index
          dataflow.send %159, %157 : vector<64xf16>
        }
      }
    }
    dataflow.program_unit iter_arg : %arg0 -> (%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95) : {
      scf.for %arg1 = %c0 to %c2 step %c1 {
        %146 = dataflow.get_logical_memory_view %145, %c0 {layout_map = #map1} : index, index, memref<1x64xf16>
        %147 = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
        %148 = vectorchain.shuffle input(%147) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
        agen.vector_store %148, %146[%c0, %c0] {store_order = #map3, store_set = #set} : memref<1x64xf16>, vector<64xf16>
        scf.for %arg2 = %c0 to %c128 step %c1 {
          %149 = uniform.def_immutable_mapping([%64 -> %32], [%65 -> %33], [%66 -> %34], [%67 -> %35], [%68 -> %36], [%69 -> %37], [%70 -> %38], [%71 -> %39], [%72 -> %40], [%73 -> %41], [%74 -> %42], [%75 -> %43], [%76 -> %44], [%77 -> %45], [%78 -> %46], [%79 -> %47], [%80 -> %48], [%81 -> %49], [%82 -> %50], [%83 -> %51], [%84 -> %52], [%85 -> %53], [%86 -> %54], [%87 -> %55], [%88 -> %56], [%89 -> %57], [%90 -> %58], [%91 -> %59], [%92 -> %60], [%93 -> %61], [%94 -> %62], [%95 -> %63]):index
          %150 = uniform.query_map(map:%149, key:%arg0) : index
          %151 = dataflow.receive %150 : vector<1xf16>
          %152 = uniform.def_immutable_mapping([%64 -> %32], [%65 -> %33], [%66 -> %34], [%67 -> %35], [%68 -> %36], [%69 -> %37], [%70 -> %38], [%71 -> %39], [%72 -> %40], [%73 -> %41], [%74 -> %42], [%75 -> %43], [%76 -> %44], [%77 -> %45], [%78 -> %46], [%79 -> %47], [%80 -> %48], [%81 -> %49], [%82 -> %50], [%83 -> %51], [%84 -> %52], [%85 -> %53], [%86 -> %54], [%87 -> %55], [%88 -> %56], [%89 -> %57], [%90 -> %58], [%91 -> %59], [%92 -> %60], [%93 -> %61], [%94 -> %62], [%95 -> %63]):index
          %153 = uniform.query_map(map:%152, key:%arg0) : index
          %154 = dataflow.receive %153 : vector<64xf16>
          %155 = vectorchain.shuffle input(%151) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
          %156 = agen.vector_load %146[%c0, %c0] {load_order = #map3, load_set = #set} : memref<1x64xf16>, vector<64xf16>
          %157 = vectorchain.binary %155, %154 {binary_op = #vectorchain<binary_operator mul>, op_specific_map = #map7} : vector<64xf16>, vector<64xf16>, vector<64xf16>
          %158 = vectorchain.binary %157, %156 {binary_op = #vectorchain<binary_operator add>, op_specific_map = #map7} : vector<64xf16>, vector<64xf16>, vector<64xf16>
          agen.vector_store %158, %146[%c0, %c0] {store_order = #map3, store_set = #set} : memref<1x64xf16>, vector<64xf16>
          %159 = arith.cmpi eq, %arg2, %c127 : index
          scf.if %159 {
            %160 = uniform.def_immutable_mapping([%64 -> %96], [%65 -> %97], [%66 -> %98], [%67 -> %99], [%68 -> %100], [%69 -> %101], [%70 -> %102], [%71 -> %103], [%72 -> %104], [%73 -> %105], [%74 -> %106], [%75 -> %107], [%76 -> %108], [%77 -> %109], [%78 -> %110], [%79 -> %111], [%80 -> %112], [%81 -> %113], [%82 -> %114], [%83 -> %115], [%84 -> %116], [%85 -> %117], [%86 -> %118], [%87 -> %119], [%88 -> %120], [%89 -> %121], [%90 -> %122], [%91 -> %123], [%92 -> %124], [%93 -> %125], [%94 -> %126], [%95 -> %127]):index
            %161 = uniform.query_map(map:%160, key:%arg0) : index
            %162 = agen.vector_load %146[%c0, %c0] {load_order = #map3, load_set = #set} : memref<1x64xf16>, vector<64xf16>
            dataflow.send %161, %162 : vector<64xf16>
          }
        }
      }
    }
    dataflow.program_unit iter_arg : %arg0 -> (%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127) : {
      %146 = uniform.def_immutable_mapping([%96 -> %129], [%97 -> %130], [%98 -> %131], [%99 -> %132], [%100 -> %133], [%101 -> %134], [%102 -> %135], [%103 -> %136], [%104 -> %137], [%105 -> %138], [%106 -> %139], [%107 -> %140], [%108 -> %141], [%109 -> %142], [%110 -> %143], [%111 -> %144], [%112 -> %129], [%113 -> %130], [%114 -> %131], [%115 -> %132], [%116 -> %133], [%117 -> %134], [%118 -> %135], [%119 -> %136], [%120 -> %137], [%121 -> %138], [%122 -> %139], [%123 -> %140], [%124 -> %141], [%125 -> %142], [%126 -> %143], [%127 -> %144]):index
      %147 = uniform.query_map(map:%146, key:%arg0) : index
      %148 = uniform.def_immutable_mapping([%96 -> %c0], [%97 -> %c0], [%98 -> %c0], [%99 -> %c0], [%100 -> %c0], [%101 -> %c0], [%102 -> %c0], [%103 -> %c0], [%104 -> %c0], [%105 -> %c0], [%106 -> %c0], [%107 -> %c0], [%108 -> %c0], [%109 -> %c0], [%110 -> %c0], [%111 -> %c0], [%112 -> %c256], [%113 -> %c256], [%114 -> %c256], [%115 -> %c256], [%116 -> %c256], [%117 -> %c256], [%118 -> %c256], [%119 -> %c256], [%120 -> %c256], [%121 -> %c256], [%122 -> %c256], [%123 -> %c256], [%124 -> %c256], [%125 -> %c256], [%126 -> %c256], [%127 -> %c256]):index
      %149 = uniform.query_map(map:%148, key:%arg0) : index
      %150 = arith.addi %149, %c17408 : index
      %151 = dataflow.get_logical_memory_view %147, %150 {layout_map = #map9} : index, index, memref<4x1x64xf16>
      scf.for %arg1 = %c0 to %c2 step %c1 {
        scf.for %arg2 = %c0 to %c128 step %c1 {
          %154 = arith.cmpi eq, %arg2, %c127 : index
          scf.if %154 {
            %155 = uniform.def_immutable_mapping([%96 -> %64], [%97 -> %65], [%98 -> %66], [%99 -> %67], [%100 -> %68], [%101 -> %69], [%102 -> %70], [%103 -> %71], [%104 -> %72], [%105 -> %73], [%106 -> %74], [%107 -> %75], [%108 -> %76], [%109 -> %77], [%110 -> %78], [%111 -> %79], [%112 -> %80], [%113 -> %81], [%114 -> %82], [%115 -> %83], [%116 -> %84], [%117 -> %85], [%118 -> %86], [%119 -> %87], [%120 -> %88], [%121 -> %89], [%122 -> %90], [%123 -> %91], [%124 -> %92], [%125 -> %93], [%126 -> %94], [%127 -> %95]):index
            %156 = uniform.query_map(map:%155, key:%arg0) : index
            %157 = dataflow.receive %156 : vector<64xf16>
            agen.vector_store %157, %151[%arg1, 0, 0] {store_order = #map5, store_set = #set1} : memref<4x1x64xf16>, vector<64xf16>
          }
        }
      }
      %152 = uniform.def_immutable_mapping([%96 -> %16], [%97 -> %17], [%98 -> %18], [%99 -> %19], [%100 -> %20], [%101 -> %21], [%102 -> %22], [%103 -> %23], [%104 -> %24], [%105 -> %25], [%106 -> %26], [%107 -> %27], [%108 -> %28], [%109 -> %29], [%110 -> %30], [%111 -> %31], [%112 -> %16], [%113 -> %17], [%114 -> %18], [%115 -> %19], [%116 -> %20], [%117 -> %21], [%118 -> %22], [%119 -> %23], [%120 -> %24], [%121 -> %25], [%122 -> %26], [%123 -> %27], [%124 -> %28], [%125 -> %29], [%126 -> %30], [%127 -> %31]):index
      %153 = uniform.query_map(map:%152, key:%arg0) : index
      dataflow.sync_send %153 {wait_immediately_for_async_transfers = true} : index
      dataflow.sync_recv %153 : index
    }
    dataflow.program_unit iter_arg : %arg0 -> (%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31) : {
      %146 = uniform.def_immutable_mapping([%16 -> %129], [%17 -> %130], [%18 -> %131], [%19 -> %132], [%20 -> %133], [%21 -> %134], [%22 -> %135], [%23 -> %136], [%24 -> %137], [%25 -> %138], [%26 -> %139], [%27 -> %140], [%28 -> %141], [%29 -> %142], [%30 -> %143], [%31 -> %144]):index
      %147 = uniform.query_map(map:%146, key:%arg0) : index
      %148 = uniform.def_immutable_mapping([%16 -> %c32768], [%17 -> %c33280], [%18 -> %c33792], [%19 -> %c34304], [%20 -> %c34816], [%21 -> %c35328], [%22 -> %c35840], [%23 -> %c36352], [%24 -> %c36864], [%25 -> %c37376], [%26 -> %c37888], [%27 -> %c38400], [%28 -> %c38912], [%29 -> %c39424], [%30 -> %c39936], [%31 -> %c40448]):index
      %149 = uniform.query_map(map:%148, key:%arg0) : index
      %150 = dataflow.get_logical_memory_view %128, %149 {layout_map = #map1} : index, index, memref<64x64xf16>
      %151 = dataflow.get_logical_memory_view %147, %c17408 {layout_map = #map9} : index, index, memref<4x1x64xf16>
      %152 = uniform.def_immutable_mapping([%16 -> %96], [%17 -> %97], [%18 -> %98], [%19 -> %99], [%20 -> %100], [%21 -> %101], [%22 -> %102], [%23 -> %103], [%24 -> %104], [%25 -> %105], [%26 -> %106], [%27 -> %107], [%28 -> %108], [%29 -> %109], [%30 -> %110], [%31 -> %111]):index
      %153 = uniform.query_map(map:%152, key:%arg0) : index
      %154 = uniform.def_immutable_mapping([%16 -> %112], [%17 -> %113], [%18 -> %114], [%19 -> %115], [%20 -> %116], [%21 -> %117], [%22 -> %118], [%23 -> %119], [%24 -> %120], [%25 -> %121], [%26 -> %122], [%27 -> %123], [%28 -> %124], [%29 -> %125], [%30 -> %126], [%31 -> %127]):index
      %155 = uniform.query_map(map:%154, key:%arg0) : index
      dataflow.sync_send %153 {wait_immediately_for_async_transfers = true} : index
      dataflow.sync_send %155 {wait_immediately_for_async_transfers = true} : index
      dataflow.sync_recv %153 : index
      dataflow.sync_recv %155 : index
      scf.for %arg1 = %c0 to %c4 step %c1 {
        agen.composite_load_and_store src:%151[%arg1, 0, 0] dst:%150[%arg1, %c0 * 64]
         time_symbols(), load_iv(%arg2:vector<64xf16>)
         {load_order = #map5, load_set = #set1, load_time_addr_map = #map10, store_order = #map3, store_set = #set, store_time_addr_map = #map11, time_order = #map7, time_set = #set5}
        {
          agen.yield
        } : memref<4x1x64xf16>, memref<64x64xf16>
      }
    }
    return
  }
}
