"""Notebooks as tests: `pytest --nbval-lax --nbval-current-env nbs/` runs every notebook cell nbdev-test would run.

The hygiene policy (README, "Notebooks as tests"): notebooks are committed as `nbdev-clean` leaves them —
outputs kept (GPU outputs recorded on a real GPU are documentation), execution counts and kernel metadata
stripped. nbval then runs in lax mode: every cell must execute without an error, and the assertions inside
the cells are the tests; outputs hold timings, paths and GPU names, so they are compared only in cells
marked `# NBVAL_CHECK_OUTPUT`. Two hooks make nbval agree with that:

- a cell nbdev-test would skip (the `cuda` flag without a GPU, `#| eval: false`, a `skip_exec` notebook)
  is skipped here too, with the reason: `flashinfer_nb.docs.runnable_code_cells` decides — nbdev's own
  `nb_test_cells`, so the two cannot drift, plus GPU magic cells (`cuda` on the line after a `%%magic`,
  `flashinfer_nb.magics_common.is_cuda_cell`);
- a stored output with a null execution count is a cleaned recording, not an "unrun reference cell".

Scratch notebooks, `nbs/_*.ipynb`, are not collected (nbdev-test, nbdev-export and the docs skip them too).
"""
import pytest

collect_ignore_glob = ['_*.ipynb']   # scratch work: see README, "Scratch notebooks"


def pytest_collection_modifyitems(config, items):
    try: from nbval.plugin import IPyNbCell
    except ImportError: return
    from flashinfer_nb.docs import runnable_code_cells   # the docs build executes the same cells
    from flashinfer_nb.magics_common import is_cuda_cell, _cuda_available   # the magics' own GPU check
    gpu, runnable = _cuda_available(), {}
    for item in items:
        if not isinstance(item, IPyNbCell): continue
        path = str(item.parent.fspath)
        if path not in runnable: runnable[path] = runnable_code_cells(path, gpu)
        if item.cell_num not in runnable[path]:
            why = ('cuda cell: needs a CUDA GPU (none available)' if is_cuda_cell(item.cell.source, item.cell.get('metadata'))
                   else 'nbdev-test does not run it (eval: false, skip_exec or a skip flag)')
            item.add_marker(pytest.mark.skip(reason=why))
        elif item.cell.outputs and item.cell.execution_count is None:
            item.cell.execution_count = 0   # recorded, then cleaned by nbdev-clean; see the module docstring
