"""compat.py's repairs of xDSL 0.74 that are not about parsing or printing."""

import threading

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith
from xdsl.dialects.builtin import i32
from xdsl.ir import Block

from dfsched.compat import thread_safe_implicit_builder


def test_implicit_builders_overlapping_on_two_threads_insert_each_op_once():
    """Thread A enters, B enters, A leaves, B leaves: xDSL alone then inserts every op twice."""
    thread_safe_implicit_builder()
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def thread_a():
        with ImplicitBuilder(Block()):
            a_in.set()
            b_in.wait()
        a_out.set()

    def thread_b():
        a_in.wait()
        with ImplicitBuilder(Block()):
            b_in.set()
            a_out.wait()

    threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    block = Block()
    with ImplicitBuilder(block):
        arith.ConstantOp.from_int_and_width(1, i32)
    assert len(block.ops) == 1


def test_fast_isolated_from_above_gives_xdsls_verdicts():
    """A function using a value defined outside it is refused with xDSL's message; one using its
    own values (nested regions included) verifies."""
    import pytest
    from xdsl.dialects.builtin import IndexType, ModuleOp
    from xdsl.dialects.func import FuncOp, ReturnOp
    from xdsl.utils.exceptions import VerifyException

    from dfsched.compat import fast_isolated_from_above
    from dfsched.tools.opt import DfschedOptMain

    fast_isolated_from_above()
    fast_isolated_from_above()  # idempotent
    DfschedOptMain(["-"]).parse("t", """
      func.func @f(%n: index) -> index {
        %c0 = arith.constant 0 : index
        %r = scf.for %i = %c0 to %n step %n iter_args(%a = %c0) -> (index) {
          %s = arith.addi %a, %n : index
          scf.yield %s : index
        }
        return %r : index
      }""").verify()
    outer = arith.ConstantOp.from_int_and_width(0, IndexType())
    func = FuncOp("f", ((), (IndexType(),)))
    func.body.block.add_op(ReturnOp(outer.result))
    ModuleOp([outer, func])
    with pytest.raises(VerifyException, match="IsolatedFromAbove parent"):
        func.verify(verify_nested_ops=False)
