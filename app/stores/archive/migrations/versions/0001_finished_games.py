"""Finished games, their seats and their records, and the keys that signed them.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rule", sa.String(32), nullable=True),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("winner", sa.SmallInteger(), nullable=True),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("ended_at", sa.BigInteger(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("readers", sa.Text(), nullable=False),
        sa.Column("archived_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_games"),
        sa.UniqueConstraint("id", name="uq_games_id"),
    )
    op.create_index("ix_games_private_ended_at_id", "games", ["private", "ended_at", "id"])
    for column in ("game", "rule", "status", "reason"):
        op.create_index(
            f"ix_games_private_{column}_ended_at_id", "games",
            ["private", column, "ended_at", "id"],
        )  # fmt: skip
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("ended_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seats"),
    )
    op.create_index(
        "ix_seats_name_private_ended_at_game_id", "seats",
        ["name", "private", "ended_at", "game_id"],
    )  # fmt: skip
    op.create_index(
        "ix_seats_player_private_ended_at_game_id", "seats",
        ["player", "private", "ended_at", "game_id"],
    )  # fmt: skip
    op.create_table(
        "records",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("format", sa.String(32), nullable=False),
        sa.Column("media_type", sa.String(64), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("refused", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_records_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "format", name="pk_records"),
    )

    op.create_table(
        "signing_keys",
        sa.Column("kid", sa.String(64), nullable=False),
        sa.Column("jwk", sa.Text(), nullable=False),
        sa.Column("added_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("kid", name="pk_signing_keys"),
    )


def downgrade() -> None:
    op.drop_table("signing_keys")
    op.drop_table("records")
    op.drop_table("seats")
    op.drop_table("games")
