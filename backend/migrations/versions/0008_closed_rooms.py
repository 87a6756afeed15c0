"""Why each recently closed room closed, by its code, so that whoever follows the code later
(on any process of a cluster, and after a restart) is told why rather than that there is no
such room.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "closed_rooms",
        sa.Column("code", sa.String(6), primary_key=True),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("closed", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_closed_rooms_closed", "closed_rooms", ["closed"])


def downgrade() -> None:
    op.drop_table("closed_rooms")
