"""Swap2, gomoku's opening: player 1 places three stones (Black, White, Black); player 2
chooses a colour, or to place two more (White, Black) and let player 1 choose one. Its steps and
who acts at each, its choice (``Swap2Choice``: a move of the game, posted on the choice route)
and the bodies that post it, and the facts it changes in a state: the pending step and each
seat's colour (``opening_facts``; ``FIXED_COLORS`` in a game without it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field
from typing_extensions import TypedDict

from app.contract.games import MoveBody, only_true
from app.rules.colors import Color
from app.sessions.kind import Player, immutable

SWAP2 = "swap2"
Step = Literal["place_three", "choose", "place_two", "choose_color"]
TO_ACT: dict[Step, Player] = {"place_three": 1, "choose": 2, "place_two": 2, "choose_color": 1}
# A placing step ends when the board holds this many stones, and the step that follows it.
PLACED_BY: dict[Step, tuple[int, Step]] = {
    "place_three": (3, "choose"),
    "place_two": (5, "choose_color"),
}
WANTED: dict[Step, str] = {
    "place_three": "places the three opening stones (Black, White, Black)",
    "choose": "chooses now: a colour, or to place two more stones",
    "place_two": "places two more stones (White, Black)",
    "choose_color": "chooses a colour now",
}  # fmt: skip
Option = Literal["B", "W", "place_two"]
PLACE_TWO: Option = "place_two"
STEP_DOC = (
    "`place_three`: player 1 places three stones (Black, White, Black); `choose`: player 2 "
    "chooses a colour, or to place two more stones; `place_two`: player 2 places them (White, "
    "Black); `choose_color`: player 1 chooses a colour."
)


def flip(color: Color) -> Color:
    return "W" if color == "B" else "B"


class Swap2Out(TypedDict):
    """A swap2 opening's step, while the colours are not fixed."""

    rule: Literal["swap2"]
    step: Annotated[Step, Field(description=STEP_DOC)]
    to_act: Annotated[Player, Field(description="The player who acts now (`next_player`).")]


ColorsOut = TypedDict(
    "ColorsOut",
    {
        "1": Annotated[Color | None, Field(description="Player 1's colour; null until chosen.")],
        "2": Annotated[Color | None, Field(description="Player 2's colour; null until chosen.")],
    },
)
ColorsOut.__doc__ = "Each seat's colour: fixed at creation, or by a swap2 choice."


@immutable
class Swap2Choice:
    """A swap2 choice: a colour (the chooser plays it, the other player the other one), or
    ``place_two`` (the second player places two more stones and the first chooses)."""

    option: Option

    def record(self) -> Mapping[str, object]:
        return {"choice": "place_two" if self.option == PLACE_TWO else "color"}

    def text(self) -> str:
        return f"choice:{self.option}"

    def body(self) -> Mapping[str, object]:
        return {"place_two": True} if self.option == PLACE_TWO else {"color": self.option}


class ColorChoiceIn(MoveBody):
    """A swap2 colour: the chooser plays it, the other player the other one."""

    key: ClassVar[str] = "color"
    examples: ClassVar[Mapping[str, Mapping[str, object]]] = {
        "play-white": {"summary": "Play White (swap2)", "value": {"color": "W"}},
    }
    color: Color = Field(description="`B` or `W`: the colour the chooser plays.")

    def played(self) -> Swap2Choice:
        return Swap2Choice(self.color)


class PlaceTwoIn(MoveBody):
    """Swap2's third option: place two more stones (White, Black), then the other player
    chooses a colour."""

    key: ClassVar[str] = "place_two"
    examples: ClassVar[Mapping[str, Mapping[str, object]]] = {
        "place-two": {"summary": "Place two more stones (swap2)", "value": {"place_two": True}},
    }
    place_two: Annotated[Literal[True], only_true("place_two")] = Field(
        description="`true`: the chooser places two more stones."
    )

    def played(self) -> Swap2Choice:
        return Swap2Choice(PLACE_TWO)


def opening_facts(step: Step | None, colors: tuple[Color, Color] | None) -> dict[str, object]:
    """The facts a swap2 opening changes: its pending step (None once the colours are fixed)
    and each seat's colour (None until then)."""
    opening: Swap2Out | None = None
    if step is not None:
        opening = {"rule": "swap2", "step": step, "to_act": TO_ACT[step]}
    shown: ColorsOut = {"1": None, "2": None}
    if colors is not None:
        shown = {"1": colors[0], "2": colors[1]}
    return {"opening": opening, "colors": shown}


def holder(colors: Mapping[str, object], color: object) -> Player:
    """The seat whose colour is ``color`` (``colors`` as a state shows them)."""
    return 1 if colors["1"] == color else 2


# The colours of a game without swap2 (a state's facts share this mapping: nobody changes it).
FIXED_COLORS: ColorsOut = {"1": "B", "2": "W"}


def step_of(text: str) -> Step | None:
    return next((step for step in TO_ACT if step == text), None)
