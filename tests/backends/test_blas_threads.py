"""fewer_blas_threads: OpenBLAS lends a core while a compile worker runs, and gets it back."""

import threading
import time

import numpy as np
import pytest

from arraystack.backends import blas_threads as bt

pytestmark = pytest.mark.skipif(bt.blas_threads() is None, reason="NumPy's BLAS here is not OpenBLAS")


def no_holders(timeout=300):
    """Wait until no compile (say, one an earlier test left running in the background) holds a thread."""
    deadline = time.monotonic() + timeout
    while bt._holders and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not bt._holders


@pytest.fixture
def two_threads():
    """OpenBLAS on two threads for the test (restored after), so there is a thread to lend."""
    no_holders()
    get, set_ = bt._openblas()
    before = get()
    set_(2)
    yield
    set_(before)


def test_one_thread_fewer_inside_and_restored_after(two_threads, monkeypatch):
    monkeypatch.setattr(bt, "_cores", lambda: 2)
    with bt.fewer_blas_threads() as counts:
        assert counts == (2, 1)
        assert bt.blas_threads() == 1
        a = np.arange(64 * 64, dtype=np.float64).reshape(64, 64) / 7
        np.testing.assert_allclose(a @ a, np.einsum("ij,jk->ik", a, a))  # products still right
    assert bt.blas_threads() == 2


def test_never_below_one_thread_nor_above_the_count_found(two_threads, monkeypatch):
    monkeypatch.setattr(bt, "_cores", lambda: 1)
    with bt.fewer_blas_threads() as counts:
        assert counts == (2, 1)
    monkeypatch.setattr(bt, "_cores", lambda: 16)  # cores to spare: the count stays
    with bt.fewer_blas_threads() as counts:
        assert counts == (2, 2)
    assert bt.blas_threads() == 2


def test_the_last_of_overlapping_holders_restores(two_threads, monkeypatch):
    monkeypatch.setattr(bt, "_cores", lambda: 2)
    entered, release = threading.Event(), threading.Event()
    seen = {}

    def other():
        with bt.fewer_blas_threads() as counts:
            seen["other"] = counts
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    assert entered.wait(10)
    with bt.fewer_blas_threads() as counts:
        seen["main"] = counts
    assert bt.blas_threads() == 1  # the other holder is still inside
    release.set()
    thread.join(10)
    assert seen == {"other": (2, 1), "main": (2, 1)}
    assert bt.blas_threads() == 2


def test_an_exception_inside_still_restores(two_threads, monkeypatch):
    monkeypatch.setattr(bt, "_cores", lambda: 2)
    with pytest.raises(ZeroDivisionError), bt.fewer_blas_threads():
        raise ZeroDivisionError("inside")
    assert bt.blas_threads() == 2
