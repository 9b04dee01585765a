"""A player's actions besides moving (resign, offer a draw, abort, offer a takeback, give time):
their endpoints, parsed and answered as a move is, and their routes (``action_routes``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request, Response

from app.api.bodies import Examples, answer_examples, json_response
from app.api.games import params
from app.api.games.access import (
    MOVE_REFUSALS,
    a_change,
    acting,
    archived_if_ended,
    authenticated,
    header,
    store_errors,
    store_of,
)
from app.api.games.examples import AnswerExamples
from app.api.games.names import names_of_state
from app.api.games.schemas import ACTION_BODY, GIVE_TIME_BODY, GameShapes
from app.contract.games import GiveTimeIn, claimed, etag
from app.contract.render import state_json
from app.rules.errors import DomainError
from app.sessions.errors import (
    ActionNotAllowed,
    NothingToTakeBack,
    TooLateToAbort,
    WaitingForOpponent,
)
from app.sessions.exchange import Action, ActionRequest


async def _act(request: Request, action: Action) -> Response:
    """A resignation, a draw offer, an abort, a takeback offer or time given: parsed and
    answered as a move is."""
    game_id = params.game_id(request)
    key = params.IDEMPOTENCY_KEY.read(request)
    token, _ = await authenticated(request, game_id)
    body = await (GIVE_TIME_BODY if action == "give_time" else ACTION_BODY).parse(request)
    asked = ActionRequest(
        action,
        player=claimed(body.player),
        expected_version=params.expected_version(request, game_id),
        idempotency_key=key,
        seconds=body.seconds if isinstance(body, GiveTimeIn) else 0,
    )
    with a_change():
        result = await store_of(request).act(game_id, token, asked)
    await archived_if_ended(request, result.state, result.replayed)
    headers = {"ETag": etag(game_id, result.state.version)}
    if result.replayed:
        headers["Idempotent-Replayed"] = "true"
    names = names_of_state(request, result.state)
    return json_response(state_json(result.state, names), headers=headers)


async def resign(request: Request) -> Response:
    return await _act(request, "resign")


async def offer_draw(request: Request) -> Response:
    return await _act(request, "offer")


async def abort_game(request: Request) -> Response:
    return await _act(request, "abort")


async def offer_takeback(request: Request) -> Response:
    return await _act(request, "takeback")


async def give_time(request: Request) -> Response:
    return await _act(request, "give_time")


def action_routes(router: APIRouter, shapes: GameShapes, examples: AnswerExamples) -> None:
    """The actions' routes, declared on the game router where ``game_router`` calls for them."""
    acted: dict[Callable[[Request], Awaitable[Response]], Examples] = {
        resign: examples.resigned,
        offer_draw: examples.offered,
        abort_game: examples.aborted,
        offer_takeback: examples.takeback_offered,
        give_time: examples.time_given,
    }
    for path, summary, description, endpoint in ACTIONS:
        router.post(
            path,
            summary=summary,
            description=description + " Retry-safe with `Idempotency-Key`; conditional with "
            "`If-Match`. A refusal changes nothing.",
            response_model=shapes.game,
            responses={
                200: {
                    "headers": {"ETag": header("The game's new ETag.")},
                    **answer_examples(acted[endpoint]),
                },
                **store_errors(*MOVE_REFUSALS, *ACTION_REFUSALS[endpoint]),
            },
            openapi_extra=acting(GIVE_TIME_BODY if endpoint is give_time else ACTION_BODY),
        )(endpoint)


# A player's actions besides moving: path, summary, description, endpoint.
ACTIONS: tuple[tuple[str, str, str, Callable[[Request], Awaitable[Response]]], ...] = (
    (
        "/{game_id}/resign",
        "Resign",
        "The token's player resigns: the game is won by the other player (`reason` "
        "`resignation`). After the end: 409 `game_over`.",
        resign,
    ),
    (
        "/{game_id}/draw-offer",
        "Offer (or accept) a draw",
        "If the other player's offer stands, the game is drawn at once (`reason` `agreement`). "
        "Otherwise the token's player's offer stands (`draw_offer`) until the next accepted "
        "move, which declines it; offering again meanwhile changes nothing. After the end: 409 "
        "`game_over`.",
        offer_draw,
    ),
    (
        "/{game_id}/abort",
        "Abort the game",
        "While the players have made fewer than two moves (an opening's posted stones are not "
        "theirs; an open game still waiting for its second player too), either player may "
        "abort: the game ends with no result (`status` `aborted`, `winner` 0, `reason` "
        "`aborted`). From the second move on: 409 `too_late_to_abort` (resign instead). A "
        "game created with `rules.abort` false: 409 `action_not_allowed`. After the end: 409 "
        "`game_over`.",
        abort_game,
    ),
    (
        "/{game_id}/takeback-offer",
        "Offer (or accept) a takeback",
        "Offers to take back moves so that the token's player moves again: its last move, and "
        "the other player's reply if there was one (every reply since, after Reversi passes). "
        "The offer stands (`takeback_offer`) until the next accepted move, which declines it; "
        "the other player accepts by offering too. The moves taken back disappear: "
        "`move_count` drops and their `seq` numbers are used again by the next moves; the "
        "`version` still grows, the clocks are not rolled back (the player who moves again "
        "has its clock run), a standing draw offer is declined, and a stream sends `event: "
        "takeback`. An opening's moves (posted stones, a swap2 opening) are never taken back: "
        "a player with no other move of its own gets 409 `nothing_to_take_back`. A game created "
        "with `rules.takeback` false: 409 `action_not_allowed`. After the end: 409 `game_over`.",
        offer_takeback,
    ),
    (
        "/{game_id}/give-time",
        "Give time to the other player",
        "Adds `seconds` (1–3,600) to the other player's clock at once, whether it runs or not; "
        "a stream sends `event: clock` with the state. A game without a clock: 409 "
        "`action_not_allowed` (`why` `no_clock`); past the most gifts a game may have (the "
        "`game_time_gifts` setting): 409 `action_not_allowed` (`why` `too_many_gifts`); "
        "created with `rules.give_time` false: 409 `action_not_allowed`. After the end: 409 "
        "`game_over`.",
        give_time,
    ),
)
# What each action may be refused with besides what a move may.
ACTION_REFUSALS: dict[Callable[[Request], Awaitable[Response]], tuple[type[DomainError], ...]] = {
    resign: (WaitingForOpponent,),
    offer_draw: (WaitingForOpponent, ActionNotAllowed),
    abort_game: (ActionNotAllowed, TooLateToAbort),
    offer_takeback: (WaitingForOpponent, ActionNotAllowed, NothingToTakeBack),
    give_time: (WaitingForOpponent, ActionNotAllowed),
}
