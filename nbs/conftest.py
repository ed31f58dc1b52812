"""Notebooks as tests: `pytest --nbval-lax --nbval-current-env nbs/` runs every notebook cell nbdev-test would run.

The hygiene policy (README, "Notebooks as tests"): notebooks are committed as `nbdev-clean` leaves them —
outputs kept (GPU outputs recorded on a real GPU are documentation), execution counts and kernel metadata
stripped. nbval then runs in lax mode: every cell must execute without an error, and the assertions inside
the cells are the tests; outputs hold timings, paths and GPU names, so they are compared only in cells
marked `# NBVAL_CHECK_OUTPUT`. Two hooks make nbval agree with that:

- a cell nbdev-test would skip (the `cuda` flag without a GPU, `#| eval: false`, a `skip_exec` notebook)
  is skipped here too, with the reason; nbdev's own `nb_test_cells` decides, so the two cannot drift, and
  `flashinfer_nb.magics.is_cuda_cell` adds GPU magic cells (`cuda` on the line after a `%%magic`);
- a stored output with a null execution count is a cleaned recording, not an "unrun reference cell".
"""
import pytest


def _has_gpu() -> bool:
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False


def _runnable_cells(path, gpu: bool) -> set:
    "Positions (among code cells) of the cells nbdev-test runs in the notebook at `path`."
    from nbdev.config import get_config
    from nbdev.test import nb_test_cells
    from fastcore.nbio import read_nb
    flags = get_config().tst_flags
    flags = flags.split() if isinstance(flags, str) else list(flags or [])
    run = {c.idx_ for c in nb_test_cells(path, skip_flags=flags, force_flags=flags if gpu else [])}
    code = [c.idx_ for c in read_nb(path).cells if c.cell_type == 'code']
    return {i for i, idx in enumerate(code) if idx in run}


def pytest_collection_modifyitems(config, items):
    try: from nbval.plugin import IPyNbCell
    except ImportError: return
    from flashinfer_nb.magics import is_cuda_cell
    gpu, runnable = _has_gpu(), {}
    for item in items:
        if not isinstance(item, IPyNbCell): continue
        path = str(item.parent.fspath)
        if path not in runnable: runnable[path] = _runnable_cells(path, gpu)
        cuda = is_cuda_cell(item.cell.source, item.cell.get('metadata'))
        if not gpu and cuda:
            item.add_marker(pytest.mark.skip(reason='cuda cell: needs a CUDA GPU (none available)'))
        elif item.cell_num not in runnable[path]:
            item.add_marker(pytest.mark.skip(reason='nbdev-test does not run it (eval: false, skip_exec or a skip flag)'))
        elif item.cell.outputs and item.cell.execution_count is None:
            item.cell.execution_count = 0   # recorded, then cleaned by nbdev-clean; see the module docstring
