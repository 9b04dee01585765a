"""A game's past states, rebuilt from the game as it is now: the state a move, a takeback or
a gift of time left when it was made, as a retried request's answer or a stream's event shows
it (the game keeps no snapshot of each)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import NamedTuple

from app.sessions.clock import ClockState
from app.sessions.exchange import GameState, MoveResult
from app.sessions.kind import GameKind, Move, Player


def latest_before(latest: int | None, version: int) -> int | None:
    """The version of the latest change of a sort (a takeback, a gift of time) as it was at
    ``version``, from the latest now: the same if it came before; None if not, as which one
    came before it is not kept."""
    return latest if latest is None or latest < version else None


def result_at(move: Move, now: GameState, kind: GameKind) -> MoveResult:
    """The answer a move got when it was accepted, rebuilt from the game as it is ``now``.

    If the move was the game's last change, the state then is the state now. Otherwise the game
    went on, so it was in progress then, with no draw offer standing (a move declines it): its
    kind says who was to move and how the board stood, and the move's own clock reading how
    the clocks stood. (A takeback made after it is no ``last_takeback`` of then: which one
    before it was is not kept.)
    """
    if move.changed == now.version:
        state = replace(now, last_move=move)
    else:
        next_player, then = kind.after(move, now.facts)
        facts = kind.ended(then, "in_progress", 0, None)
        clock = now.clock
        if clock is not None and move.clock is not None:
            clock = ClockState.of(clock.control, move.clock)
        state = replace(
            now, facts=facts, status="in_progress", winner=0, reason=None,
            next_player=next_player, version=move.changed, move_count=move.seq, last_move=move,
            draw_offer=None, clock=clock, takeback_offer=None, at_ms=move.at_ms,
            last_takeback=latest_before(now.last_takeback, move.changed),
            last_given=latest_before(now.last_given, move.changed),
        )  # fmt: skip
    return MoveResult(winner=state.winner, move=move, state=state, replayed=True)


def state_between(
    now: GameState, version: int, left: int, last: Move | None, kind: GameKind,
    params: Mapping[str, object], *, at_ms: int | None, clock: ClockState | None,
    last_takeback: int | None, last_given: int | None, draw_offer: Player | None = None,
    takeback_offer: Player | None = None,
) -> GameState:  # fmt: skip
    """The state right after a change made at ``version`` that was no move (a takeback, time
    given), ``left`` moves having been made then (the last of them ``last``), rebuilt from the
    game as it is ``now`` (as ``result_at`` rebuilds a move's): the game went on (in progress,
    no rematch yet); its kind says who was to move (the player after ``last``) and how the
    board stood — back to the start (no move: a game of no opening), as a new game of its
    ``params`` stands. What the game does not tell is given: the change's instant ``at_ms``
    (None: not kept), the clocks ``clock``, the last takeback and gift then and the offers
    standing.
    The change at ``now.version`` is the state now."""
    if version == now.version:
        return now
    if last is None:
        start = kind.new(params)
        next_player, facts = start.next_player, start.facts()
    else:
        next_player, facts = kind.after(last, now.facts)
    return replace(
        now, facts=kind.ended(facts, "in_progress", 0, None), status="in_progress", winner=0,
        reason=None, next_player=next_player, version=version, move_count=left, last_move=last,
        draw_offer=draw_offer, takeback_offer=takeback_offer, last_takeback=last_takeback,
        last_given=last_given, at_ms=at_ms, clock=clock, rematch_offer=None, rematch=None,
    )  # fmt: skip


def state_at_takeback(
    now: GameState, version: int, left: int, last: Move | None, kind: GameKind,
    params: Mapping[str, object], at_ms: int | None = None,
) -> GameState:  # fmt: skip
    """The state right after the takeback made at ``version`` that left ``left`` moves (the
    last of them ``last``: ``state_between``): no offer stands (a takeback declines a draw
    offer), the player of the move taken back moves again (the same one who moves after
    ``last``). The clocks are shown as they are now (a takeback rolls none back: they hold
    every gift of time since); its instant is ``at_ms`` (None: a takeback stored before its
    instant was kept)."""
    return state_between(
        now, version, left, last, kind, params, at_ms=at_ms, clock=now.clock,
        last_takeback=version, last_given=latest_before(now.last_given, version),
    )  # fmt: skip


class Gift(NamedTuple):
    """A gift of time as a game logs it for its streams, which send each in its place among
    the moves (``state_at_gift``): its version and instant, the moves made then, and the
    clocks, the offers standing, the first move's deadline and the last takeback right after
    it: all a state then shows that the game now may not."""

    version: int
    at_ms: int
    moves: int
    remaining_ms: tuple[int, int]
    running: Player | None
    turn_ms: int  # when the running player's turn began
    draw_offer: Player | None
    takeback_offer: Player | None
    first_move_due: int | None  # ms
    last_takeback: int | None  # its version


def state_at_gift(
    now: GameState, gift: Gift, last: Move | None, kind: GameKind, params: Mapping[str, object]
) -> GameState:
    """The state right after ``gift`` (its moves' last one ``last``: ``state_between``), rebuilt
    from the game as it is ``now``: its clocks, offers, first move's deadline and last
    takeback as the gift left them."""
    clock = now.clock
    if clock is not None:
        clock = ClockState.at(
            clock.control, gift.remaining_ms, gift.running, gift.at_ms, gift.turn_ms
        )
    then = state_between(
        now, gift.version, gift.moves, last, kind, params, at_ms=gift.at_ms, clock=clock,
        last_takeback=gift.last_takeback, last_given=gift.version,
        draw_offer=gift.draw_offer, takeback_offer=gift.takeback_offer,
    )  # fmt: skip
    return then if then is now else replace(then, first_move_due=gift.first_move_due)
