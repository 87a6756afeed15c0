"""``lounge serve`` under callgrind, counting only inside the calls of some functions (for
``bench/server_instructions.py --only``): each named function is wrapped so that callgrind
collects while any call of one of them is running (what they call, and the turns of the event
loop they wait through, included) and not otherwise. Run with ``--collect-atstart=no``.

    python bench/counted_serve.py HELPER MODULE:QUALNAME[,MODULE:QUALNAME...] SERVE-ARGS...

HELPER is a shared library whose ``toggle()`` is callgrind's ``CALLGRIND_TOGGLE_COLLECT``
(built by :func:`build_helper`). A function imported by name into another module is wrapped
only where it is defined: name it where it is looked up.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import inspect
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HELPER_SOURCE = "#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"


def build_helper(folder: Path) -> Path:
    """The helper library, compiled into ``folder`` (gcc and valgrind's headers)."""
    source, library = folder / "toggle.c", folder / "libtoggle.so"
    source.write_text(HELPER_SOURCE)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(library), str(source)],
                   check=True)
    return library


def wrap_all(targets: list[str], toggle: Callable[[], None]) -> None:
    """Wrap each target so that collection is on while any call of any of them runs."""
    inside = 0

    def counted(original: Callable) -> Callable:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal inside
            inside += 1
            if inside == 1:
                toggle()
            try:
                return original(*args, **kwargs)
            finally:
                inside -= 1
                if inside == 0:
                    toggle()
        return wrapper

    for target in targets:
        module, _, qualname = target.partition(":")
        owner: Any = importlib.import_module(module)
        *path, name = qualname.split(".")
        for part in path:
            owner = getattr(owner, part)
        found = inspect.getattr_static(owner, name)
        if isinstance(found, staticmethod | classmethod):
            setattr(owner, name, type(found)(counted(found.__func__)))
        else:
            setattr(owner, name, counted(found))


def main(argv: list[str]) -> None:
    helper, targets, serve_args = argv[0], argv[1], argv[2:]
    from backend.serve import monkey_patch

    monkey_patch("eventlet")  # before the wrapped modules are imported, as the server does
    wrap_all(targets.split(","), ctypes.CDLL(helper).toggle)
    from backend.cli import main as lounge

    sys.argv = ["lounge", *serve_args]
    lounge()


if __name__ == "__main__":
    main(sys.argv[1:])
