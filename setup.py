"""Packaging hook (everything else is in pyproject.toml): the wheel carries `include/`, `csrc/` and
`settings.ini` as package data under `flashinfer_nb/data/`, where `flashinfer_nb.jit.env` looks first.

A source checkout and an editable install keep using the top-level folders, so nothing is copied there."""
import shutil
from pathlib import Path
from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA = ['include', 'csrc', 'settings.ini']   # must match MANIFEST.in, which puts them in the sdist


class build_py_with_data(build_py):
    def run(self):
        super().run()
        if getattr(self, 'editable_mode', False): return
        dest = Path(self.build_lib)/'flashinfer_nb'/'data'
        for name in DATA:
            src, dst = ROOT/name, dest/name
            if not src.exists(): raise FileNotFoundError(f"{src} is missing: build from a full checkout or sdist")
            if dst.exists(): shutil.rmtree(dst) if dst.is_dir() else dst.unlink()
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir(): shutil.copytree(src, dst, ignore=shutil.ignore_patterns('__pycache__', '*.pyc', '.*'))
            else: shutil.copy2(src, dst)


setup(cmdclass={'build_py': build_py_with_data})
