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
