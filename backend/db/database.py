"""Which database, how to connect to it, and bringing its schema up to date with Alembic.

``DATABASE_URL`` picks the database: empty means an SQLite file in the app's instance folder,
``memory`` keeps rooms in the process only (tests, benchmarks), anything else is an SQLAlchemy
URL. Heroku-style ``postgres://`` URLs are accepted and use the psycopg 3 driver.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError

if TYPE_CHECKING:
    from alembic.config import Config as AlembicConfig

MEMORY = "memory"
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
SQLITE_FILE = "lounge.db"


def database_url(setting: str, instance_path: str | Path) -> str:
    """The SQLAlchemy URL for a ``DATABASE_URL`` setting (or ``memory``)."""
    text = setting.strip()
    if text.lower() in (MEMORY, "memory://"):
        return MEMORY
    if not text:
        folder = Path(instance_path)
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / SQLITE_FILE}"
    for prefix in ("postgres://", "postgresql://"):
        if text.startswith(prefix):
            return "postgresql+psycopg://" + text[len(prefix):]
    try:
        make_url(text)
    except ArgumentError:
        raise ValueError(f"DATABASE_URL={text!r} is not a database URL") from None
    return text


def database_problem(exc: BaseException, setting: str = "DATABASE_URL") -> str | None:
    """What to tell whoever ran a command that failed on the database itself (not running,
    refused, no such file or database): one line instead of a traceback, naming the
    ``setting`` that picks the database; None for any other failure."""
    if not isinstance(exc, OperationalError):
        return None
    lines = str(exc.orig if exc.orig is not None else exc).strip().splitlines()
    reason = lines[0] if lines else type(exc.orig).__name__
    return f"cannot use the database ({reason}). Check that it is running and that {setting} " \
           "names it."


def make_engine(url: str, fsync: bool = False, on_loop: bool = False) -> Engine:
    """An engine for the URL. A commit always survives the lounge's process being killed;
    with ``fsync`` it also waits for the disk, so that it survives a power cut of the
    database's machine (at the cost of a disk flush per commit). ``on_loop`` (SQLite, for
    the saves committed on the event loop): its connections never wait, for a lock held by
    another (an error at once) nor for a checkpoint (none)."""
    if url.startswith("sqlite"):
        wait = 0 if on_loop else 30
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": wait})
        event.listen(engine, "connect", _sqlite_setup(fsync, on_loop))
        return engine
    engine = create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=2)
    if not fsync and engine.dialect.name == "postgresql":
        event.listen(engine, "connect", _postgres_async_commit)
    return engine


def _sqlite_setup(fsync: bool, on_loop: bool = False):
    # WAL with synchronous=NORMAL: a commit is in the write-ahead log, in the OS's hands, when
    # it returns; FULL also flushes it to the disk. A checkpoint flushes the database file.
    # A new database gets 1 KiB pages (an existing one keeps its own): a commit copies and
    # checksums every page it changed, whole, and a move changes a few bytes of one or two.
    pragmas = ("page_size=1024", "journal_mode=WAL",
               f"synchronous={'FULL' if fsync else 'NORMAL'}", "foreign_keys=ON",
               *(["wal_autocheckpoint=0"] if on_loop else []))

    def setup(connection, _record) -> None:
        cursor = connection.cursor()
        for pragma in pragmas:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return setup


def _postgres_async_commit(connection, _record) -> None:
    # The commit is in PostgreSQL's own memory when it returns: safe from the lounge dying,
    # and written to disk by PostgreSQL within a fraction of a second.
    cursor = connection.cursor()
    cursor.execute("SET synchronous_commit TO off")
    cursor.close()
    connection.commit()


def alembic_config(engine: Engine) -> AlembicConfig:
    """Alembic's configuration, built in code (no alembic.ini), bound to the engine."""
    from alembic.config import Config as AlembicConfig

    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False)
                           .replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


MIGRATION_LOCK = 0x6C6F756E6765  # "lounge": the advisory lock held while migrating


@contextmanager
def _migrating(engine: Engine) -> Iterator[Engine]:
    """The engine to migrate through. Python's SQLite driver runs each schema change in a
    transaction of its own: an upgrade cut short (the process killed, a step failing) would
    leave half a migration, and the next start would trip over it ("duplicate column"). For
    SQLite, an engine that hands the transaction to SQLite itself (BEGIN ... COMMIT), so that
    the whole upgrade is one, as on PostgreSQL."""
    if engine.dialect.name != "sqlite":
        yield engine
        return
    migrating = create_engine(engine.url, connect_args={"check_same_thread": False,
                                                        "timeout": 30})
    setup = _sqlite_setup(fsync=True)

    def connect(connection, record) -> None:
        connection.isolation_level = None  # the driver opens no transaction of its own
        setup(connection, record)

    event.listen(migrating, "connect", connect)
    event.listen(migrating, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
    try:
        yield migrating
    finally:
        migrating.dispose()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration up to ``revision``, all or none. On PostgreSQL, processes
    starting together take turns (an advisory lock), so that only the first one migrates."""
    from alembic import command

    if engine.dialect.name != "postgresql":
        with _migrating(engine) as migrating:
            command.upgrade(alembic_config(migrating), revision)
        return
    with engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            command.upgrade(alembic_config(engine), revision)
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            lock.commit()


def downgrade(engine: Engine, revision: str) -> None:
    """Undo migrations down to ``revision`` ("base": no tables at all), all or none."""
    from alembic import command

    with _migrating(engine) as migrating:
        command.downgrade(alembic_config(migrating), revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: no schema yet)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision(engine: Engine) -> str | None:
    """The latest revision of the migration scripts."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
