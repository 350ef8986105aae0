"""dfsched.arch: architecture descriptions (`ktdf_arch` devices) and what passes read from them.

- `model.DeviceModel`: the facts about a device (memories, units, links, hierarchy, routes);
- `loading`: finding device files (`--device=sample`), import declarations, the device of a kernel;
- `routing.RoutingGraph`: the graph path expansion routes through;
- `views`, `intrinsics`: the structural views and typed intrinsic attributes underneath.

Submodules are imported on use so that parsing IR never pulls in networkx.
"""

from __future__ import annotations

__all__ = ["DeviceModel", "load_device", "device_model_for"]


def __getattr__(name: str):
    if name == "DeviceModel":
        from dfsched.arch.model import DeviceModel

        return DeviceModel
    if name in ("load_device", "device_model_for"):
        from dfsched.arch import loading

        return getattr(loading, name)
    raise AttributeError(name)
