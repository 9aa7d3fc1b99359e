"""Build the compiled engine: ``bakersdozen._position``, ``_table`` and ``_search``.

One extension module per ``.pyx``; they ``cimport`` each other through their
``.pxd`` files, whose inline functions (make/unmake, the move generators,
the table lookups) are compiled into every module that uses them.

Compiler directives are set here, once.  ``BAKERSDOZEN_DEBUG=1`` in the
environment builds with bounds checking, assertions and no optimisation,
for hunting engine bugs; the default build is ``-O3`` without
``-march=native`` so that wheels run on any x86-64 or aarch64 machine.
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("BAKERSDOZEN_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "wraparound": False,
    "cdivision": True,
    "boundscheck": DEBUG,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}

if os.name == "nt":
    compile_args = ["/O2"] if not DEBUG else ["/Od"]
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

MODULES = ["_position", "_table", "_search", "_shortest", "_layers", "_player"]

extensions = [
    Extension(
        f"bakersdozen.{name}",
        [f"src/bakersdozen/{name}.pyx"],
        extra_compile_args=compile_args,
        define_macros=[] if DEBUG else [("NDEBUG", "1")],
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
