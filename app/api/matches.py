"""The games offers make — two seeks that fit, an accepted challenge — made once and told once,
even when the process making one dies halfway; and seeks that expire.

An offer's game is made in two stores that share no transaction: the archive's database, where
the offers are, and the live store, where games are. So it is made in three steps: the
transaction that takes the offers draws the game (its id, its seats: ``draw``) and keeps it
pending in their place (``Offers.seek``, ``Offers.take``: the ``pending_games`` outbox, with
all that makes it again); the game is made in the live store by that id (``make``); one more
transaction ends it pending and tells both players (``Offers.finish``). A process that dies
between leaves the game pending: every process's periodic work (``sweep``, from the archiver's
loop, and at start) takes what was left longer than ``ADJUDICATOR_PENDING_GAME_SECONDS``
(``Offers.claim``: one process takes it, however many race), makes it again — the live store
makes a game once by its id (``GameStore.create``), so one that was made is left as it is — and
finishes it: the ``game`` events are told once, by whichever claim still holds. A pending
game's seeks are gone already: never listed, withdrawn nor matched again.

A game that cannot be made (the live store full, its body no longer a game) is undone
(``Offers.undo``): the waiting seek, or the challenge, waits again; the request that drew it
answers the refusal. A live store that did not answer may have made it: the game stays pending
(the request answers without it), and the periodic work makes it once the store answers, as it
tries a store that refused it room again at its next turn.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.api.games.schemas import GameShapes
from app.api.players import creation_body, seated_pair
from app.sessions import tokens
from app.sessions.errors import CapacityExhausted, StoreUnavailable
from app.sessions.store import GameStore
from app.sessions.watchers import Watchers
from app.stores.archive.archive import Archive
from app.stores.archive.offers import Drawn, Offers, PendingGame, Seek, Told
from app.stores.archive.players import Players

log = logging.getLogger("adjudicator.offers")

# The events of a player's stream told here.
GAME, SEEK_EXPIRED = "game", "seek_expired"
# Pending games, and expired seeks, one turn of the periodic work takes at most (the rest at
# the next turn).
SWEEP_BATCH = 100


def now_ms() -> int:
    return int(time.time() * 1000)


def game_told(player: str, game_id: str, seat: int, via: str, offer: str) -> Told:
    """The ``game`` event of a player's stream: a game of its began (``via`` a seek, a
    challenge or a tournament, ``offer`` its id)."""
    return Told(player, GAME, {"game": game_id, "seat": seat, "via": via, via: offer})


def told_of(pending: PendingGame) -> list[Told]:
    """What a pending game's players are told once it is made."""
    return [
        game_told(pending.one, pending.id, pending.seat, pending.via, pending.one_offer),
        game_told(pending.other, pending.id, 3 - pending.seat, pending.via, pending.other_offer),
    ]


def expired_told(seek: Seek) -> Told:
    """The ``seek_expired`` event of a player's stream: its seek is gone (it may seek again)."""
    return Told(seek.player, SEEK_EXPIRED, {"seek": seek.id})


def wake(watchers: Watchers, told: Sequence[Told]) -> None:
    """Wake this process's streams of the players ``told``."""
    for event in told:
        watchers.notify(event.player)


@dataclass(frozen=True, slots=True)
class Matches:
    """What makes the games offers make: the live store, the service's game shapes and
    validation context (a pending game's body is read again as a creation body), the archive's
    offers and players, and this process's players' streams."""

    store: GameStore
    shapes: GameShapes
    context: dict[str, Any]
    offers: Offers
    players: Players
    watchers: Watchers
    pending_ms: int  # a pending game left this long is made again

    @classmethod
    def of(cls, state: Any, archive: Archive) -> Matches:
        """The matches of an app's ``state`` (``app.state``), on ``archive``."""
        settings = state.settings
        offers = Offers(archive, settings.player_events_kept, round(settings.seek_seconds * 1000))
        return cls(
            state.store, state.games, state.validation_context, offers, Players(archive),
            state.player_watchers, round(settings.pending_game_seconds * 1000),
        )  # fmt: skip

    @staticmethod
    def draw(owner: str, at_ms: int) -> Drawn:
        """A game to make for an offer taken by the client ``owner``: its id, and the taker's
        seat, drawn at random."""
        return Drawn(tokens.new_game_id(), 1 + secrets.randbelow(2), owner, at_ms)

    async def make(self, pending: PendingGame) -> None:
        """Make ``pending``'s game in the live store (by its id: once, however often), its
        players seated as drawn, each playing with its key."""
        body = creation_body(self.shapes, self.context, pending.game)
        found = await self.players.many([pending.one, pending.other])
        one, other = found[pending.one], found[pending.other]
        first, second = (one, other) if pending.seat == 1 else (other, one)
        game = body.new_game(pending.owner)
        await self.store.create(
            seated_pair(game, pending.id, first, second, self.shapes.kinds, pending.rated)
        )

    async def finish(self, pending: PendingGame) -> bool:
        """``pending``'s game is made: told to its players, once (False: another process's
        claim finishes it)."""
        told = told_of(pending)
        if not await self.offers.finish(pending, told):
            return False
        wake(self.watchers, told)
        return True

    async def complete(self, pending: PendingGame) -> None:
        """Make and tell the game a request drew. A game that cannot be made is undone, and
        its refusal raised, unless another process claimed it meanwhile (it makes it: nothing
        raised). A store that did not answer (StoreUnavailable, raised) leaves it pending, as
        a database that fails to tell it once made does: the periodic work makes it (once, by
        its id) and tells it. (Undone, a game the store had made, its answer lost, stood
        seated and told to nobody, while the waiting seek was matched again into another.)"""
        try:
            await self.make(pending)
        except StoreUnavailable:
            log.warning("offers: game %s not made yet (the store did not answer)", pending.id)
            raise
        except BaseException:
            if await self.offers.undo(pending):
                raise
            return  # claimed by another process, which makes it
        try:
            await self.finish(pending)
        except StoreUnavailable:
            log.warning("offers: game %s made, told later", pending.id)

    async def recover(self, at_ms: int) -> int:
        """Make and tell the pending games left longer than ``pending_ms`` (their process died,
        or the live store was down): how many this turn finished."""
        done = 0
        for stale in await self.offers.stale(at_ms - self.pending_ms, SWEEP_BATCH):
            pending = await self.offers.claim(stale, at_ms)
            if pending is None:
                continue  # another process took it
            try:
                await self.make(pending)
            except (StoreUnavailable, CapacityExhausted) as refused:
                log.warning("offers: game %s not made yet (%s)", pending.id, refused)
                continue  # tried again once its claim is stale
            except Exception:
                log.exception("offers: game %s cannot be made: its offer waits again", pending.id)
                await self.offers.undo(pending)
                continue
            done += await self.finish(pending)
        return done

    async def expire(self, at_ms: int) -> int:
        """Delete the seeks expired at ``at_ms`` (a batch), each told to its player: how many."""
        told = await self.offers.expire(at_ms, SWEEP_BATCH, expired_told)
        wake(self.watchers, told)
        return len(told)

    async def sweep(self) -> None:
        """The periodic work: pending games made, expired seeks gone."""
        at = now_ms()
        await self.recover(at)
        await self.expire(at)


__all__ = ["GAME", "SEEK_EXPIRED", "Matches", "game_told", "told_of", "wake"]
