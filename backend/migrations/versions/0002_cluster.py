"""Cluster mode: room leases with an epoch (fencing token), the running processes, and the
fence every save of a leased room goes through.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# FOR SHARE: a takeover (which raises the epoch) waits until a save already past its fence has
# committed, so the new owner reads the room with that save in it, and no save of the old
# owner can commit after the takeover.
FENCE = """
CREATE OR REPLACE FUNCTION lounge_fence(room text, expected bigint) RETURNS void AS $$
DECLARE
    current bigint;
BEGIN
    SELECT epoch INTO current FROM room_leases WHERE room_id = room FOR SHARE;
    IF current IS DISTINCT FROM expected THEN
        RAISE EXCEPTION 'lounge_fenced: room % is at epoch %, not %', room, current, expected
            USING ERRCODE = 'LF001';
    END IF;
END
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.String(36), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_room_leases_owner", "room_leases", ["owner"])
    op.create_index("ix_room_leases_expires", "room_leases", ["expires"])
    op.create_table(
        "lounge_nodes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lounge_nodes_expires", "lounge_nodes", ["expires"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FENCE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS lounge_fence(text, bigint)")
    op.drop_table("lounge_nodes")
    op.drop_table("room_leases")
