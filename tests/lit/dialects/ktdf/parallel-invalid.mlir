// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics

// Syntax errors and verifier rules of ktdf.parallel / ktdf.parallel_yield.

func.func @only_instance_id(%a: index) {
  // expected-error @+1 {{expected at least one induction variable plus an instance id (got 1 block arguments)}}
  ktdf.parallel (%inst) = () to () step () distribute(num_instances = 2) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @too_few_bounds(%a: index) {
  // expected-error @+1 {{expected 2 operands}}
  ktdf.parallel (%i, %j, %inst) = (%a) to (%a, %a) step (%a, %a) distribute(num_instances = 2) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @too_many_steps(%a: index) {
  // expected-error @+1 {{expected 1 operands}}
  ktdf.parallel (%i, %inst) = (%a) to (%a) step (%a, %a) distribute(num_instances = 2) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @missing_distribute(%a: index) {
  // expected-error @+1 {{Expected 'distribute'}}
  ktdf.parallel (%i, %inst) = (%a) to (%a) step (%a) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @zero_instances(%a: index) {
  // expected-error @+1 {{expected num_instances >= 1, got 0}}
  ktdf.parallel (%i, %inst) = (%a) to (%a) step (%a) distribute(num_instances = 0) {
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @no_loops() {
  // expected-error @+1 {{expected at least one induction variable}}
  "ktdf.parallel"() <{num_instances = 2 : i64}> ({
  ^bb0(%inst: index):
    "ktdf.parallel_yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @block_argument_count(%a: index) {
  // expected-error @+1 {{expected 2 block arguments (one per induction variable plus the instance id), got 1}}
  "ktdf.parallel"(%a, %a, %a) <{num_instances = 2 : i64}> ({
  ^bb0(%i: index):
    "ktdf.parallel_yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @block_argument_type(%a: index) {
  // expected-error @+1 {{all block arguments (induction variables and instance id) must be of type index}}
  "ktdf.parallel"(%a, %a, %a) <{num_instances = 2 : i64}> ({
  ^bb0(%i: index, %inst: i32):
    "ktdf.parallel_yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @missing_yield(%a: index) {
  // expected-error @+1 {{region must be terminated by a ktdf.parallel_yield operation}}
  ktdf.parallel (%i, %inst) = (%a) to (%a) step (%a) distribute(num_instances = 2) {
    "probe.body"() : () -> ()
  }
  return
}

// -----

func.func @instances_not_i64(%a: index) {
  // expected-error @+1 {{attribute 'num_instances' failed to satisfy constraint: 64-bit signless integer attribute}}
  "ktdf.parallel"(%a, %a, %a) <{num_instances = 2 : i32}> ({
  ^bb0(%i: index, %inst: index):
    "ktdf.parallel_yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @yield_outside_parallel() {
  // expected-error @+1 {{expects parent op 'ktdf.parallel'}}
  ktdf.parallel_yield
}
