"""Shared pytest configuration: GPU tests carry the `cuda` marker and are skipped when no GPU is present."""
import pytest


def _has_gpu() -> bool:
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False


def pytest_collection_modifyitems(config, items):
    if _has_gpu():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (none available)")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def private_tune_db(tmp_path, monkeypatch):
    """The path of a tuning database of the test's own (empty; `$FLASHINFER_NB_TUNE_DB`), with the entries shipped in
    the package hidden, so a test sees exactly the entries it writes (call `tune.reload_db()` after writing)."""
    import importlib
    T = importlib.import_module('flashinfer_nb.tune')
    db = tmp_path/'db.json'
    monkeypatch.setenv(T.DB_ENV, str(db))
    monkeypatch.setattr(T, 'SHIPPED_DB', tmp_path/'shipped_none.json')
    T.reload_db()
    yield db
    monkeypatch.undo()
    T.reload_db()   # the next test reads the real databases again
