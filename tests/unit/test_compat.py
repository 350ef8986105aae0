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
