"""The archive's tables: finished games, their seats and their records, as SQLAlchemy Core
declares them (the migrations, ``migrations/versions``, make them; a test keeps the two equal).

* ``games``: one row a finished game. ``seq`` numbers the rows in the order they were archived
  (an export reads the archive as it was when it began: the rows up to its ``seq``); ``id`` is
  the game's. The columns a listing filters on are columns (``game``, ``rule``, ``status``,
  ``reason``, ``ended_at``, ``private``), each with an index that ends with the listing's order
  (``ended_at``, ``id``, newest first), so a page is a walk down one index, never a scan of
  every game. ``summary`` is the listing's JSON of the game, written once. ``readers`` are the
  token hashes that may read a private game (its players' and its spectators').
* ``seats``: a row a seat, with its name and its player (when a player took it), and the game's
  end: what the ``name`` and ``player`` filters walk, in the listing's order.
* ``records``: a finished game's record in each format its kind writes, the bytes ``GET
  /v1/games/{id}/record`` answered at the end (or why a format cannot write the game).
* ``players``: a row a player: its id, its name, the hash of its key (``tokens.token_hash``),
  the client that made it (players are bounded per client: an index counts them) and when.
* ``ratings``: a player's Glicko-2 rating in a pool (``app.contract.pools``), once it played a
  rated game there; the index walks a pool by rating, highest first.
* ``rating_changes``: each rated game's update of each of its players, numbered in the order
  the updates were made (a rated game's players' rows are locked before it is numbered, so two
  updates of one player are numbered in the order they were made): replayed in that order from
  the games' summaries, they make ``ratings`` again.
* ``signing_keys``: the public key (a JWK, by its ``kid``) of every key that signed a record
  kept here, so that a record signed by a process's key made at start (ephemeral) still
  verifies against ``GET /v1/keys`` after that process is gone.

Times are integers, milliseconds since the epoch (the stores' own), so that both databases
order and compare them alike.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
)

# Constraint names spelled out, so that a migration names what it changes on both databases.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

ID_LENGTH = 64  # a game's id (the stores' are 22 characters), a player's
NAME_LENGTH = 64  # a seat's name: 1 to 64 characters (the contract's)
WORD_LENGTH = 32  # a kind's name, a rule, a status, a reason, a format

games = Table(
    "games",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("id", String(ID_LENGTH), nullable=False, unique=True),
    Column("game", String(WORD_LENGTH), nullable=False),
    Column("rule", String(WORD_LENGTH), nullable=True),
    Column("status", String(WORD_LENGTH), nullable=False),
    Column("winner", SmallInteger, nullable=True),
    Column("reason", String(WORD_LENGTH), nullable=True),
    Column("move_count", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("summary", Text, nullable=False),
    Column("readers", Text, nullable=False),
    Column("archived_at", BigInteger, nullable=False),
)
# The listing's order, and one index a filter: each ends with it.
Index(None, games.c.private, games.c.ended_at, games.c.id)
for _column in ("game", "rule", "status", "reason"):
    Index(None, games.c.private, games.c[_column], games.c.ended_at, games.c.id)

seats = Table(
    "seats",
    metadata,
    Column(
        "game_id", String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("seat", SmallInteger, primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=True),
    Column("player", String(ID_LENGTH), nullable=True),
    Column("private", Boolean, nullable=False),
    Column("ended_at", BigInteger, nullable=False),
)
Index(None, seats.c.name, seats.c.private, seats.c.ended_at, seats.c.game_id)
Index(None, seats.c.player, seats.c.private, seats.c.ended_at, seats.c.game_id)

records = Table(
    "records",
    metadata,
    Column(
        "game_id", String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("format", String(WORD_LENGTH), primary_key=True),
    Column("media_type", String(WORD_LENGTH * 2), nullable=False),
    Column("body", LargeBinary, nullable=False),
    Column("refused", Text, nullable=True),
)

signing_keys = Table(
    "signing_keys",
    metadata,
    Column("kid", String(ID_LENGTH), primary_key=True),
    Column("jwk", Text, nullable=False),
    Column("added_at", BigInteger, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("key_hash", String(ID_LENGTH), nullable=False),
    Column("owner", String(ID_LENGTH * 2), nullable=False),
    Column("created_at", BigInteger, nullable=False),
)
Index(None, players.c.owner)

POOL_LENGTH = 128  # a pool's name (``app.contract.pools``)

ratings = Table(
    "ratings",
    metadata,
    Column("pool", String(POOL_LENGTH), primary_key=True),
    Column("player", String(ID_LENGTH), ForeignKey("players.id"), primary_key=True),
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)
Index(None, ratings.c.pool, ratings.c.rating, ratings.c.player)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(ID_LENGTH), nullable=False),
    Column("pool", String(POOL_LENGTH), nullable=False),
    Column("player", String(ID_LENGTH), nullable=False),
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
)
Index(None, rating_changes.c.player, rating_changes.c.seq)

# --- tournaments ----------------------------------------------------------------------------------
#
# * ``tournaments``: one row an event: its organiser (a player), its system, its rounds (all of
#   a round robin's; a Swiss's as asked), the creation body of its games and its openings (JSON),
#   whether its games are rated, its status, and ``changes``: its events so far (``events``).
# * ``entrants``: its players in the seeding order (``number`` 1 to n), each with the round it
#   withdrew after (None: playing on).
# * ``tournament_rounds``: each round, claimed, then paired.
# * ``pairings``: every board of every round: entrants by number (``seat2`` None: a bye), its
#   game (unique: a finished game finds its board), its result and, where the game counts them,
#   its final discs.
# * ``tournament_events``: what its stream says, numbered (a round paired, a result, the end):
#   written in the transaction that makes the change, read by every process's streams.

SYSTEM_LENGTH = 32
RESULT_LENGTH = 8

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("organiser", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("system", String(SYSTEM_LENGTH), nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("game", Text, nullable=False),
    Column("openings", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("status", String(WORD_LENGTH), nullable=False),
    Column("changes", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
)
Index(None, tournaments.c.organiser)

entrants = Table(
    "entrants",
    metadata,
    Column(
        "tournament",
        String(ID_LENGTH),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("number", Integer, primary_key=True),
    Column("player", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("withdrawn", Integer, nullable=True),
)
Index(None, entrants.c.tournament, entrants.c.player, unique=True)

# A round, claimed by the request that pairs it (the key: racing requests pair it once) before
# its games are made, and paired once they all are (``paired_at``): a round left claimed by a
# process that died is claimed again.
tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column(
        "tournament",
        String(ID_LENGTH),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("number", Integer, primary_key=True),
    Column("claimed_at", BigInteger, nullable=False),
    Column("paired_at", BigInteger, nullable=True),
)

pairings = Table(
    "pairings",
    metadata,
    Column(
        "tournament",
        String(ID_LENGTH),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("seat1", Integer, nullable=False),
    Column("seat2", Integer, nullable=True),
    Column("game_id", String(ID_LENGTH), nullable=True, unique=True),
    Column("result", String(RESULT_LENGTH), nullable=True),
    Column("discs1", SmallInteger, nullable=True),
    Column("discs2", SmallInteger, nullable=True),
)

tournament_events = Table(
    "tournament_events",
    metadata,
    Column(
        "tournament",
        String(ID_LENGTH),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("event", String(WORD_LENGTH), nullable=False),
    Column("data", Text, nullable=False),
)

# --- seeks, challenges and players' events --------------------------------------------------------
#
# * ``seeks``: a player's standing offer to play: its game's creation body (canonical JSON) and
#   rated flag, hashed together as ``terms`` (two seeks fit only with equal terms: the index walks
#   a terms' seeks oldest first), its pool (where its players' ratings are read) and the rating
#   range it accepts (None: any).
# * ``challenges``: a player's offer to one other player, until accepted, declined or withdrawn.
# * ``player_events``: what a player's stream says, numbered per player (a game of its began, a
#   challenge came, one was declined, a seek expired), the last ``ADJUDICATOR_PLAYER_EVENTS_KEPT``
#   kept.
# * ``pending_games``: the outbox of the games offers make (``app.api.matches``): a game two
#   seeks or a taken challenge drew (its id, the seat of its first player ``one``, both players
#   and their offers, its creation body, rated flag and creating client), written by the
#   transaction that takes the offers and gone with the one that tells its players, once it is
#   made in the live store; ``restore``: the offer (JSON) put back if it cannot be made.
#   ``claimed_at``: when a process last took it to make (one left longer by a process that died
#   is taken again).

TERMS_LENGTH = 64  # a sha-256, hex

seeks = Table(
    "seeks",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("player", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("terms", String(TERMS_LENGTH), nullable=False),
    Column("kind", String(WORD_LENGTH), nullable=False),
    Column("game", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("pool", String(POOL_LENGTH), nullable=False),
    Column("lo", Double, nullable=True),
    Column("hi", Double, nullable=True),
    Column("created_at", BigInteger, nullable=False),
)
Index(None, seeks.c.terms, seeks.c.created_at, seeks.c.id)
Index(None, seeks.c.created_at, seeks.c.id)
Index(None, seeks.c.player)

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("challenger", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("challenged", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)
Index(None, challenges.c.challenger, challenges.c.created_at)
Index(None, challenges.c.challenged, challenges.c.created_at)

player_events = Table(
    "player_events",
    metadata,
    Column("player", String(ID_LENGTH), ForeignKey("players.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("event", String(WORD_LENGTH), nullable=False),
    Column("data", Text, nullable=False),
)

pending_games = Table(
    "pending_games",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("via", String(WORD_LENGTH), nullable=False),
    Column("seat", SmallInteger, nullable=False),
    Column("one", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("one_offer", String(ID_LENGTH), nullable=False),
    Column("other", String(ID_LENGTH), ForeignKey("players.id"), nullable=False),
    Column("other_offer", String(ID_LENGTH), nullable=False),
    Column("game", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("owner", String(ID_LENGTH * 2), nullable=False),
    Column("restore", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("claimed_at", BigInteger, nullable=False),
)
Index(None, pending_games.c.claimed_at)
