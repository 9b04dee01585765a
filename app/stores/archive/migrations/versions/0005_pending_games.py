"""The outbox of the games offers make: a matched pair of seeks, or a taken challenge, kept
until its game is made in the live store and told to its players.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _player(name: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([name], ["players.id"], name=f"fk_pending_games_{name}_players")


def upgrade() -> None:
    op.create_table(
        "pending_games",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("via", sa.String(32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("one", sa.String(64), nullable=False),
        sa.Column("one_offer", sa.String(64), nullable=False),
        sa.Column("other", sa.String(64), nullable=False),
        sa.Column("other_offer", sa.String(64), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("restore", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("claimed_at", sa.BigInteger(), nullable=False),
        _player("one"),
        _player("other"),
        sa.PrimaryKeyConstraint("id", name="pk_pending_games"),
    )
    op.create_index("ix_pending_games_claimed_at", "pending_games", ["claimed_at"])


def downgrade() -> None:
    op.drop_table("pending_games")
