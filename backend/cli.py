"""The ``lounge`` console command.

Each subcommand lives in its own module, named in :data:`SUBCOMMANDS` with a one-line help. The
module provides ``add_arguments(parser)`` and ``run(args) -> int``, and is imported only when its
subcommand runs (``serve`` must monkey-patch before anything else is loaded). To add one, add a
line here.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("backend.serve", "run the game server"),
    "cluster": ("backend.local_cluster", "run a local cluster: N servers behind HAProxy"),
    "simulate": ("backend.simulate", "play bot-only games and print win rates"),
    "play": ("backend.terminal.app", "play in a room from this terminal"),
    "db": ("backend.db.cli", "bring the database's schema up to date, or inspect it"),
}


def top_parser() -> argparse.ArgumentParser:
    """The parser of ``lounge COMMAND ...``: the command, and the rest for it."""
    lines = "\n".join(f"  {name:<10} {help_}" for name, (_, help_) in SUBCOMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="lounge", description="Gaming Lounge", epilog=f"commands:\n{lines}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=sorted(SUBCOMMANDS), metavar="COMMAND")
    parser.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; its exit status."""
    top = top_parser().parse_args(sys.argv[1:] if argv is None else argv)
    module_name, help_ = SUBCOMMANDS[top.command]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"lounge {top.command}", description=help_)
    module.add_arguments(parser)
    args = parser.parse_args(top.args)
    try:
        return int(module.run(args) or 0)
    except Exception as exc:
        has_option = hasattr(args, "database_url")
        setting = "DATABASE_URL (or --database-url)" if has_option else "DATABASE_URL"
        problem = _database_problem(exc, setting)
        if problem is None:
            raise
        print(f"lounge {top.command}: {problem}", file=sys.stderr)
        return 1


def _database_problem(exc: Exception, setting: str) -> str | None:
    """A database that cannot be used, said in one line (see ``database_problem``)."""
    if "sqlalchemy" not in sys.modules:  # the command never touched a database
        return None
    from .db.database import database_problem

    return database_problem(exc, setting)


if __name__ == "__main__":
    sys.exit(main())
