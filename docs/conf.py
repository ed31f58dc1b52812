# Sphinx configuration of the documentation site. Build it with `make docs` (flashinfer_nb.docs stages the
# notebooks, the API page and the benchmarks page into docs/_build/_src, then runs sphinx-build with this
# file); nbs/97_docs.ipynb explains the pipeline.
import flashinfer_nb

project = 'flashinfer_nb'
author = 'flashinfer_nb developers'
copyright = '2026, flashinfer_nb developers'
version = release = flashinfer_nb.__version__

extensions = ['myst_nb', 'sphinx.ext.autodoc', 'sphinx.ext.autosummary', 'sphinx.ext.napoleon',
              'sphinx.ext.viewcode']
root_doc = 'index'
exclude_patterns = ['**.ipynb_checkpoints', 'jupyter_execute']

# Notebooks were executed while staging (cells a CPU cannot run keep their GPU-recorded outputs).
nb_execution_mode = 'off'
nb_merge_streams = True
myst_enable_extensions = ['colon_fence']
myst_heading_anchors = 3
suppress_warnings = ['myst.header']   # notebook prose may skip heading levels; that is not an error

# API reference: one page per module, members as exported (__all__), numpy-style docstrings.
autosummary_generate = True
autodoc_default_options = {'members': True, 'show-inheritance': True}
autodoc_typehints = 'description'
napoleon_numpy_docstring = True
default_role = 'py:obj'   # `name` in a docstring links to it when it exists, else shows as code

html_theme = 'furo'
html_title = f'flashinfer_nb {release}'
pygments_style = 'friendly'
pygments_dark_style = 'monokai'


import re

_TICKS = re.compile(r'(?<!`)`([^`\n]+)`(?!`)')   # a markdown code span: single backticks


def _md_ticks(line: str) -> str:
    "reST ends inline markup only before a space or punctuation: `fsync`s needs an escaped space (`fsync`\\ s)."
    def sep(m):
        pre = '\\ ' if m.start() and line[m.start() - 1].isalnum() else ''
        post = '\\ ' if m.end() < len(line) and line[m.end()].isalnum() else ''
        return f"{pre}`{m[1]}`{post}"
    return _TICKS.sub(sep, line)


def _notebook_docstrings(app, what, name, obj, options, lines):
    """Docstrings are written for notebooks (markdown-ish one-liners), not for reST: make three habits render.
    A code span glued to a word (`x`s) gets reST's escaped space; `...` inside a sentence would end
    autosummary's one-line summary mid-backtick, so it becomes `…`; IPython's `@magic_arguments` appends
    argparse help (indented, reST-hostile), which is shown verbatim."""
    lines[:] = [_md_ticks(l.replace('...', '…')) for l in lines]
    if lines and lines[0] == '::':   # magic_arguments: '::', usage, blank, description, blank, argparse help
        body = [i for i, l in enumerate(lines[1:], 1) if l and not l.startswith(' ')]
        if body:
            desc_end = next((i for i in range(body[0], len(lines)) if not lines[i].strip()), len(lines))
            usage, desc, rest = lines[2:body[0]], lines[body[0]:desc_end], lines[desc_end:]
            lines[:] = [*desc, '', '::', '', *usage, *(['    ' + l if l.strip() else '' for l in rest])]


def setup(app):
    app.connect('autodoc-process-docstring', _notebook_docstrings)

# Wide outputs scroll instead of being clipped; table cells get padding (docs/_static/fnb.css).
html_static_path = ['_static']
html_css_files = ['fnb.css']
