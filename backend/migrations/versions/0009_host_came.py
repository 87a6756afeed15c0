"""Whether a room's host has ever joined it, kept with the room, so that a room rebuilt after a
restart or a takeover before its host came still closes as ``host_never_came`` (after
``UNCLAIMED_ROOM_SECONDS``) rather than as its host's lost connection. Rooms saved before it
count as joined: the host grace period they had before.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host_came", sa.Boolean, nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_came")
