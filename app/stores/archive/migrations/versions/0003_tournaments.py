"""Tournaments: events, their entrants, their pairings and results, and their streams' events.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _tournament(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.String(64), nullable=False)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("organiser", sa.String(64), nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("openings", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("changes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("ended_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["organiser"], ["players.id"], name="fk_tournaments_organiser_players"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_organiser", "tournaments", ["organiser"])
    op.create_table(
        "entrants",
        _tournament("tournament"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("withdrawn", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament"],
            ["tournaments.id"],
            name="fk_entrants_tournament_tournaments",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["player"], ["players.id"], name="fk_entrants_player_players"),
        sa.PrimaryKeyConstraint("tournament", "number", name="pk_entrants"),
    )
    op.create_index(
        "ix_entrants_tournament_player", "entrants", ["tournament", "player"], unique=True
    )
    op.create_table(
        "tournament_rounds",
        _tournament("tournament"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("claimed_at", sa.BigInteger(), nullable=False),
        sa.Column("paired_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament"],
            ["tournaments.id"],
            name="fk_tournament_rounds_tournament_tournaments",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament", "number", name="pk_tournament_rounds"),
    )
    op.create_table(
        "pairings",
        _tournament("tournament"),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("seat1", sa.Integer(), nullable=False),
        sa.Column("seat2", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("discs1", sa.SmallInteger(), nullable=True),
        sa.Column("discs2", sa.SmallInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament"],
            ["tournaments.id"],
            name="fk_pairings_tournament_tournaments",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament", "round", "board", name="pk_pairings"),
        sa.UniqueConstraint("game_id", name="uq_pairings_game_id"),
    )
    op.create_table(
        "tournament_events",
        _tournament("tournament"),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(32), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament"],
            ["tournaments.id"],
            name="fk_tournament_events_tournament_tournaments",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament", "seq", name="pk_tournament_events"),
    )


def downgrade() -> None:
    op.drop_table("tournament_events")
    op.drop_table("pairings")
    op.drop_table("tournament_rounds")
    op.drop_table("entrants")
    op.drop_table("tournaments")
