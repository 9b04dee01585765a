"""Players, their ratings by pool, and each rated game's changes of them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
    )
    op.create_index("ix_players_owner", "players", ["owner"])
    op.create_table(
        "ratings",
        sa.Column("pool", sa.String(128), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["player"], ["players.id"], name="fk_ratings_player_players"),
        sa.PrimaryKeyConstraint("pool", "player", name="pk_ratings"),
    )
    op.create_index("ix_ratings_pool_rating_player", "ratings", ["pool", "rating", "player"])
    op.create_table(
        "rating_changes",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(128), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_player_seq", "rating_changes", ["player", "seq"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("players")
