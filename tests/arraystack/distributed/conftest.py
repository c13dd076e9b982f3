"""A LocalCluster of two worker processes on the loopback interface, one per test module that asks for
it (`client`), bounded in time and shut down at the module's end."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed")
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
        timeout=60,
    )
    with Client(cluster, timeout=60) as connected:
        yield connected
    cluster.close(timeout=30)
