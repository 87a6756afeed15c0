"""Users, rooms, seats, matches with their moves, and chat.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ID = sa.String(36)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", ID, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("seen", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_users_seen", "users", ["seen"])
    op.create_table(
        "rooms",
        sa.Column("id", ID, primary_key=True),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("updated", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_rooms_updated", "rooms", ["updated"])
    op.create_table(
        "seats",
        sa.Column("room_id", ID, sa.ForeignKey("rooms.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("user_id", ID, nullable=True),
        sa.Column("level", sa.String(10), nullable=True),
        sa.Column("ready", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("room_id", ID, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("num_players", sa.Integer, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("started", sa.BigInteger, nullable=False),
        sa.Column("finished", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_matches_room_id", "matches", ["room_id"])
    op.create_index("ix_matches_finished", "matches", ["finished"])
    op.create_table(
        "match_moves",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(40), nullable=False),
        sa.Column("args", sa.Text, nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("room_id", ID, sa.ForeignKey("rooms.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("ts", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    for table in ("chat_messages", "match_moves", "matches", "seats", "rooms", "users"):
        op.drop_table(table)
