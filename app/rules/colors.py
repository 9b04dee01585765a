"""The two colours of the stone games, as records and answers write them: ``B`` (Black) and
``W`` (White). Reversi's players and gomoku's seats take them; a record writes them so."""

from __future__ import annotations

from typing import Literal

Color = Literal["B", "W"]
