"""Shared test set-up: an artifact cache of the test run's own.

Tests that compile through `dfsched.compile` or `dfsched build` use the default cache folder
unless they pass one. Point it at a fresh folder per pytest process (each xdist worker has
its own), so the suite never reads or fills the user's cache and workers do not share one.
Tests that are about the cache still pass their own folder (`DFSCHED_CACHE_DIR` or `cache=`)."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _own_artifact_cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DFSCHED_CACHE_DIR", str(tmp_path_factory.mktemp("dfsched-cache")))
        yield
