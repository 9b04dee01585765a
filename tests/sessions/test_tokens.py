"""Ids the service makes that a command line takes as arguments (``adjudicator game make-move
GAME_ID``, ``tournament show ID`` …): a random one beginning with ``-`` would be read as an
option (click: "No such option"), one time in 64 (base64url's alphabet has ``-``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.sessions import tokens

MADE: dict[str, Callable[[], str]] = {
    "game": tokens.new_game_id,
    "player": tokens.new_player_id,
    "tournament": tokens.new_tournament_id,
    "seek": tokens.new_seek_id,
    "challenge": tokens.new_challenge_id,
}


@pytest.mark.parametrize("make", MADE.values(), ids=list(MADE))
def test_an_id_never_begins_with_a_dash(
    make: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for drawn in ("-" * 16, "-_" * 8, "-AbCdEfGhIjKlMnO"):
        monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda size, drawn=drawn: drawn)
        made = make()
        assert not made.startswith("-"), made
        assert len(made) == len(drawn)
        assert made[1:] == drawn[1:]  # the rest as drawn
    monkeypatch.undo()
    assert all(not make().startswith("-") for _ in range(2_000))
