"""Fixtures several unit-test files share (plain helpers are in unit_helpers.py)."""

import pytest


@pytest.fixture(scope="module")
def sample():
    """The shipped sample device's model."""
    from dfsched.arch.loading import load_device

    return load_device("sample")
