"""Alembic's environment: the lounge's models, and the engine handed over in code by
:func:`backend.db.database.upgrade` (or one built from ``sqlalchemy.url``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from backend.db.models import Base

config = context.config
target_metadata = Base.metadata


def run_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    engine = config.attributes.get("engine") or create_engine(
        config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        # On SQLite too, every migration of a run in one transaction (the engine of
        # backend.db.database.upgrade begins it in SQLite itself): all or none.
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=sqlite, transactional_ddl=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
