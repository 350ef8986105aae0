"""The shared bases of pass declarations: `DevicePass`, the `device` option every pass that reads
the architecture takes (one declaration of it), and `CallPass`, a pass that is one function call."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class DevicePass(ModulePass):
    """A module pass that reads the device the module declares."""

    device: str | None = None
    """Architecture file (or shipped short name) used when the module declares no device."""


class CallPass(ModulePass):
    """A pass without options that is one call, `run(module)` (declared after the function it calls)."""

    run: ClassVar[Callable[[ModuleOp], object]]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.run(op)
