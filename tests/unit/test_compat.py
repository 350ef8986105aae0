"""compat.py's repairs of xDSL 0.74 that are not about parsing or printing."""

import threading

import pytest

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



def _reference_walk(op, region_first=False):
    """xDSL's recursive walk, written out (its block iterator reads the next op before handing
    out the current one): the order `fast_walks` must keep."""
    if not region_first:
        yield op
    for region in op.regions:
        for block in region.blocks:
            inner = block.first_op
            while inner is not None:
                following = inner.next_op
                yield from _reference_walk(inner, region_first)
                inner = following
    if region_first:
        yield op


_NESTED = """
  func.func @f(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %r = scf.for %i = %c0 to %n step %n iter_args(%a = %c0) -> (index) {
      %b = scf.for %j = %c0 to %n step %n iter_args(%x = %a) -> (index) {
        %s = arith.addi %x, %n : index
        scf.yield %s : index
      }
      %t = arith.addi %b, %i : index
      scf.yield %t : index
    }
    %u = arith.addi %r, %c0 : index
    func.return %u : index
  }
  func.func @g() {
    func.return
  }
"""


def _parsed():
    from dfsched.tools.opt import DfschedOptMain

    return DfschedOptMain(["-"]).parse("t", _NESTED)


def test_fast_walks_keep_xdsls_order():
    """Pre- and post-order walks of ops, regions and blocks yield what xDSL's recursive walks
    yield, in the same order; reverse walks and block iteration keep working."""
    from dfsched.compat import fast_walks

    fast_walks()
    fast_walks()  # idempotent
    module = _parsed()
    for region_first in (False, True):
        expected = list(_reference_walk(module, region_first))
        assert len(expected) == 13
        assert list(module.walk(region_first=region_first)) == expected
        inner = [op for op in expected if op is not module]
        assert list(module.body.walk(region_first=region_first)) == inner
        assert list(module.body.block.walk(region_first=region_first)) == inner
    assert set(module.walk(reverse=True)) == set(module.walk()) and next(module.walk(reverse=True)) is module
    funcs = list(module.body.block.ops)
    assert len(module.body.block.ops) == 2 and list(reversed(module.body.block.ops)) == funcs[::-1]


def test_fast_walks_allow_erasing_the_op_handed_out():
    """As with xDSL's walk, the next op is read before the current one is handed out, and an
    op's regions when it has been handled: detaching the outer loop when it is handed out still
    walks its body, then goes on after it."""
    from dfsched.compat import fast_walks

    def names(walk, module):
        seen = []
        for op in walk(module):
            seen.append(op.name)
            if op.name == "scf.for" and op.parent_op().name == "func.func":
                op.results[0].replace_all_uses_with(op.operands[0])
                op.detach()
        return seen

    expected = names(_reference_walk, _parsed())
    fast_walks()
    assert names(lambda m: m.walk(), _parsed()) == expected
    assert expected.count("scf.for") == 2 and expected[-3:] == ["func.return", "func.func", "func.return"]


KERNEL = """
func.func @f(%a: i32, %i: index) -> i32 {
  %c = arith.constant 1 : i32
  %s = arith.addi %a, %c : i32
  func.return %s : i32
}
"""


def _counted_verifier(monkeypatch):
    """A `VerifyWhenChanged` on KERNEL and the number of full verifications it has run."""
    from dfsched import compat
    from dfsched.compat import LocatingParser, VerifyWhenChanged
    from dfsched.dialects import make_context

    runs = []
    full = compat.verify_module
    monkeypatch.setattr(compat, "verify_module", lambda root: (runs.append(1), full(root)))
    module = LocatingParser(make_context(), KERNEL, "k.mlir").parse_module()
    verify = VerifyWhenChanged()
    verify(module)
    return module, verify, runs


def _break_attribute(func):
    constant = func.body.block.first_op
    constant.properties["value"] = arith.IntegerAttr(1, 64)


def _break_operand(func):
    add = func.body.block.first_op.next_op
    add.operands[1] = func.body.block.args[1]


def _break_order(func):
    add = func.body.block.first_op.next_op
    add.detach()
    func.body.block.insert_op_before(add, func.body.block.first_op)


def _break_argument(func):
    from xdsl.dialects.builtin import i64

    func.body.block.insert_arg(i64, 0)



@pytest.mark.parametrize("change", [_break_attribute, _break_operand, _break_order, _break_argument])
def test_verification_is_skipped_only_when_nothing_changed(monkeypatch, change):
    """Decision 116: a pass that leaves the IR as it was verified is not verified again; any
    change the verifiers read (a property, an operand, the order of ops, a block argument) is."""
    from dfsched.diagnostics import DiagnosticError

    module, verify, runs = _counted_verifier(monkeypatch)
    verify(module)
    assert len(runs) == 1
    change(module.body.block.first_op)
    with pytest.raises(DiagnosticError):
        verify(module)
    assert len(runs) == 2
