"""The `device` option every pass that reads the architecture takes (one declaration of it)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.passes import ModulePass


@dataclass(frozen=True)
class DevicePass(ModulePass):
    """A module pass that reads the device the module declares."""

    device: str | None = None
    """Architecture file (or shipped short name) used when the module declares no device."""
