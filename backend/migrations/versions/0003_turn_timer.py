"""Turn timers and stand-ins: a room's turn time and the deadline of the turn being played,
a seat marked away, and who made each move (the player, or a bot standing in).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Integer, nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("turn_deadline", sa.BigInteger, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("match_moves") as batch:
        batch.add_column(sa.Column("actor", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_moves") as batch:
        batch.drop_column("actor")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("turn_deadline")
        batch.drop_column("turn_seconds")
