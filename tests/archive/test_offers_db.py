"""Seeks and their pending games in the archive's database (``app.stores.archive.offers``), on
SQLite and on a real PostgreSQL server, with the clock given: a seek expires ``seek_ms`` after
it was made — never matched, listed nor counted after, swept once with its player told; a
matched pair's game is pending until finished or undone, claimed by one process of many, and
told once whoever finishes it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from app.api.matches import expired_told, told_of
from app.stores.archive import offers as offers_module
from app.stores.archive.archive import Archive
from app.stores.archive.migrate import upgrade
from app.stores.archive.offers import Drawn, Offers, Seek
from app.stores.archive.players import Players

pytestmark = pytest.mark.anyio

LIFE_MS = 60_000  # a seek's life here


@pytest.fixture
async def offers(archive_url: str) -> AsyncIterator[Offers]:
    archive = Archive(archive_url)
    await upgrade(archive)
    for player in ("ann", "bo", "cy"):
        assert await Players(archive).add(player, player.title(), "h", "client", 0, 10)
    yield Offers(archive, 100, LIFE_MS)
    await archive.close()


def a_seek(seek_id: str, player: str, at_ms: int) -> Seek:
    return Seek(seek_id, player, {"game": "tictactoe"}, False, "terms", "tictactoe", "pool",
                None, at_ms)  # fmt: skip


def drawn(at_ms: int) -> Drawn:
    return Drawn(f"game-{at_ms}", 1, "client", at_ms)


async def names(offers: Offers, player: str) -> list[str]:
    return [event for _, event, _ in await offers.events(player, 0, 100)]


async def test_an_expired_seek_is_never_matched_listed_nor_counted(offers: Offers) -> None:
    assert await offers.seek(a_seek("s1", "ann", 0), 1, drawn(0)) is None
    later = LIFE_MS  # s1 expires now
    page, _ = await offers.listed(None, None, 10, later - 1)
    assert [seek.id for seek in page] == ["s1"]
    assert offers.expires_ms(page[0]) == LIFE_MS
    assert (await offers.listed(None, None, 10, later))[0] == []
    # Not matched: bo's seek that fits waits; not counted: ann, at her most (1), seeks again.
    assert await offers.seek(a_seek("s2", "bo", later), 1, drawn(later)) is None
    assert await offers.seek(a_seek("s3", "ann", later + 1), 1, drawn(later + 1)) is not None
    assert await offers.withdraw("s1", "ann", later) == "gone"  # not withdrawn: it expired
    # Swept once, its player told, however many sweep at once.
    swept = await asyncio.gather(*(offers.expire(later, 10, expired_told) for _ in range(3)))
    assert sorted(told.data["seek"] for batch in swept for told in batch) == ["s1"]
    assert await names(offers, "ann") == ["seek_expired"]
    assert await offers.find_seek("s1") is None


async def test_a_pending_game_is_finished_once_by_whichever_claim_holds(offers: Offers) -> None:
    assert await offers.seek(a_seek("s1", "ann", 0), 10, drawn(0)) is None
    matched = await offers.seek(a_seek("s2", "bo", 5), 10, drawn(5))
    assert matched is not None
    pending = matched.pending
    assert (pending.one, pending.other, pending.one_offer, pending.other_offer) == (
        "bo", "ann", "s2", "s1")  # fmt: skip
    assert (await offers.listed(None, None, 10, 5))[0] == []  # pending: its seeks are gone
    assert await offers.stale(5, 10) == []  # claimed when drawn
    [stale] = await offers.stale(6, 10)
    claims = await asyncio.gather(*(offers.claim(stale, 100) for _ in range(4)))
    [mine] = [claim for claim in claims if claim is not None]
    assert not await offers.finish(pending, told_of(pending))  # the drawing request's claim lost
    assert not await offers.undo(pending)
    finished = await asyncio.gather(*(offers.finish(mine, told_of(mine)) for _ in range(3)))
    assert sorted(finished) == [False, False, True]
    assert await names(offers, "ann") == await names(offers, "bo") == ["game"]
    assert await offers.stale(10**15, 10) == []


async def test_a_game_that_cannot_be_made_puts_the_waiting_offer_back(offers: Offers) -> None:
    assert await offers.seek(a_seek("s1", "ann", 0), 10, drawn(0)) is None
    matched = await offers.seek(a_seek("s2", "bo", 5), 10, drawn(5))
    assert matched is not None
    assert await offers.undo(matched.pending)
    assert [seek.id for seek in (await offers.listed(None, None, 10, 6))[0]] == ["s1"]
    assert await offers.stale(10**15, 10) == []
    assert await names(offers, "ann") == []


async def test_seeks_that_fit_no_one_hide_no_seek_that_fits(
    offers: Offers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More seeks than a post reads (``MATCH_SCAN``), each fitting no one (a range no rating is
    in), before one that fits: a new seek is matched with that one (the oldest that fit were
    read whatever their ranges, so the ones behind were never matched till those expired)."""
    monkeypatch.setattr(offers_module, "MATCH_SCAN", 2)
    narrow = (0.0, 1.0)
    for number in range(3):
        hiding = replace(a_seek(f"narrow{number}", "ann", number), bounds=narrow)
        assert await offers.seek(hiding, 10, drawn(number)) is None
    assert await offers.seek(a_seek("open", "bo", 10), 10, drawn(10)) is None
    matched = await offers.seek(a_seek("new", "cy", 20), 10, drawn(20))
    assert matched is not None
    assert (matched.other.id, matched.pending.other) == ("open", "bo")
    # Their own ranges, too: a new seek whose range no waiting player's rating is in waits.
    assert await offers.seek(replace(a_seek("picky", "cy", 30), bounds=narrow), 10,
                             drawn(30)) is None  # fmt: skip
