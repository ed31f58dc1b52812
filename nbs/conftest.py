"""`pytest --nbval nbs/`: cells flagged `cuda` — by nbdev's directive, also on the line after a `%%magic` — are
skipped when no GPU is present, the same cells `nbdev-test` skips (see `flashinfer_nb.magics.is_cuda_cell`)."""
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
    from flashinfer_nb.magics import is_cuda_cell
    skip = pytest.mark.skip(reason="cuda cell: needs a CUDA GPU (none available)")
    for item in items:
        cell = getattr(item, "cell", None)   # nbval's notebook-cell items
        if cell is not None and cell.get("cell_type") == "code" and is_cuda_cell(cell.source, cell.get("metadata")):
            item.add_marker(skip)
