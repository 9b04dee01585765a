"""Seeks, challenges and players' event streams.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _player(name: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([name], ["players.id"], name=f"fk_{table}_{name}_players")


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("terms", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("pool", sa.String(128), nullable=False),
        sa.Column("lo", sa.Double(), nullable=True),
        sa.Column("hi", sa.Double(), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        _player("player", "seeks"),
        sa.PrimaryKeyConstraint("id", name="pk_seeks"),
    )
    op.create_index("ix_seeks_terms_created_at_id", "seeks", ["terms", "created_at", "id"])
    op.create_index("ix_seeks_created_at_id", "seeks", ["created_at", "id"])
    op.create_index("ix_seeks_player", "seeks", ["player"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("challenger", sa.String(64), nullable=False),
        sa.Column("challenged", sa.String(64), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        _player("challenger", "challenges"),
        _player("challenged", "challenges"),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index(
        "ix_challenges_challenger_created_at", "challenges", ["challenger", "created_at"]
    )
    op.create_index(
        "ix_challenges_challenged_created_at", "challenges", ["challenged", "created_at"]
    )
    op.create_table(
        "player_events",
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(32), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        _player("player", "player_events"),
        sa.PrimaryKeyConstraint("player", "seq", name="pk_player_events"),
    )


def downgrade() -> None:
    op.drop_table("player_events")
    op.drop_table("challenges")
    op.drop_table("seeks")
