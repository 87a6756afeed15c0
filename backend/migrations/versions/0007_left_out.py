"""The players a rematch started without (their connection was lost past the grace period),
kept with the room (JSON: a list of user ids), so that after a restart or a takeover by
another process they are still told why they only watch this game.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("left_out", sa.Text, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("left_out")
