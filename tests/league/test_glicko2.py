"""Glicko-2 (``app/league/glicko2.py``) as the contract fixes it (``API.md``, part 3, "Players and
ratings"): Glickman's worked example to the figures his paper prints, a slow reference of its
own replayed game by game beside it, and what a game may and may not do to a rating."""

from __future__ import annotations

import json
import math
import random
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.league.glicko2 import (
    SCALE,
    Rating,
    after_game,
    expected,
    g,
    new_volatility,
    provisional,
    rate,
)

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "glicko2" / "glickman-example.json").read_text(
        encoding="utf-8"
    )
)


# ---------------------------------------------------------------- the paper's worked example


def example() -> tuple[Rating, list[tuple[Rating, float]]]:
    player = Rating(**EXAMPLE["player"])
    games = [
        (Rating(**game["opponent"], volatility=0.06), game["score"]) for game in EXAMPLE["games"]
    ]
    return player, games


def test_the_example_comes_from_the_paper() -> None:
    assert EXAMPLE["source"]["author"] == "Mark E. Glickman"
    assert EXAMPLE["source"]["title"] == "Example of the Glicko-2 system"
    assert EXAMPLE["tau"] == 0.5  # the contract's τ, the example's too


def test_the_worked_example_gives_the_papers_figures() -> None:
    """The paper's answer: r' = 1464.06, RD' = 151.52, σ' = 0.05999, on the Glicko-2 scale
    μ' = −0.2069, φ' = 0.8722 (its last step). Each to the digits the paper prints; the rating
    to 0.01, since the paper's 1464.06 is 173.7178 × (−0.2069) + 1500, from μ' rounded to four
    decimals (unrounded: μ' = −0.206941, r' = 1464.0507)."""
    player, games = example()
    after = rate(player, games)
    published = EXAMPLE["published"]
    mu, phi = (after.rating - 1500) / SCALE, after.rd / SCALE
    assert round(mu, 4) == published["step7"]["mu"]
    assert round(phi, 4) == published["step7"]["phi"]
    assert round(after.rd, 2) == published["step8"]["rd"]
    assert round(2 * math.log(after.volatility), 5) == published["step5"]["A"]  # σ' = e^(A/2)
    assert abs(after.volatility - published["step5"]["sigma"]) < 0.00001
    assert abs(after.rating - published["step8"]["rating"]) < 0.01
    # The paper's step 8 on its own rounded μ', φ' gives its printed figures.
    assert round(SCALE * published["step7"]["mu"] + 1500, 2) == published["step8"]["rating"]
    assert round(SCALE * published["step7"]["phi"], 2) == published["step8"]["rd"]
    # The unrounded figures themselves, as the slow reference finds them too.
    assert after.rating == pytest.approx(1464.0507, abs=0.0001)
    assert after.rd == pytest.approx(151.5165, abs=0.0001)
    assert after.volatility == pytest.approx(0.059996, abs=0.000001)
    slow = reference_rate(
        (player.rating, player.rd, player.volatility),
        [(opponent.rating, opponent.rd, score) for opponent, score in games],
    ).rating
    assert slow == pytest.approx((after.rating, after.rd, after.volatility), abs=1e-7)


def test_the_worked_example_step_by_step() -> None:
    """Steps 2 to 6 against what the paper prints of them. Its v and Δ come from the E it
    rounded to three decimals, so they agree to 0.001 only; step 5, given the paper's own rounded
    σ, φ, v and Δ, lands on its A and σ'."""
    player, games = example()
    published = EXAMPLE["published"]
    mu = (player.rating - 1500) / SCALE
    phi = player.rd / SCALE
    assert mu == published["step2"]["mu"]
    assert round(phi, 4) == published["step2"]["phi"]
    information = improvement = 0.0
    for (opponent, score), scaled, g_printed, e_printed in zip(
        games,
        published["step2"]["opponents"],
        published["step3"]["g"],
        published["step3"]["E"],
        strict=True,
    ):
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
        assert (round(mu_j, 4), round(phi_j, 4)) == (scaled["mu"], scaled["phi"])
        assert round(g(phi_j), 4) == g_printed
        e = expected(mu, mu_j, phi_j)
        assert round(e, 3) == e_printed
        information += g(phi_j) ** 2 * e * (1 - e)
        improvement += g(phi_j) * (score - e)
    v = 1 / information
    assert v == pytest.approx(published["step3"]["v"], abs=0.001)
    assert v * improvement == pytest.approx(published["step4"]["delta"], abs=0.001)
    sigma = new_volatility(
        player.volatility,
        published["step2"]["phi"],
        published["step3"]["v"],
        published["step4"]["delta"],
    )
    assert round(2 * math.log(sigma), 5) == published["step5"]["A"]
    assert math.floor(sigma * 100000) / 100000 == published["step5"]["sigma"]
    phi_star = math.sqrt(published["step2"]["phi"] ** 2 + published["step5"]["sigma"] ** 2)
    assert round(phi_star, 6) == published["step6"]["phi_star"]


# ---------------------------------------------------------------- a slow reference of its own


REF_SCALE = 173.7178
REF_TAU = 0.5


@dataclass
class Period:
    """The reference's answer for one rating period, and which way its step 5 started."""

    rating: tuple[float, float, float]
    from_log_of_the_surplus: bool  # Δ² > φ² + v


def reference_rate(
    player: tuple[float, float, float], games: list[tuple[float, float, float]]
) -> Period:
    """One rating period, step by step as the paper writes it, with step 5's equation solved by
    plain bisection to 1e-12 instead of the Illinois algorithm. ``player`` is (r, RD, σ), each
    game (r_j, RD_j, s_j)."""
    r, rd, sigma = player
    mu, phi = (r - 1500) / REF_SCALE, rd / REF_SCALE
    gs, es, ss = [], [], []
    for r_j, rd_j, s_j in games:
        mu_j, phi_j = (r_j - 1500) / REF_SCALE, rd_j / REF_SCALE
        g_j = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        gs.append(g_j)
        es.append(1 / (1 + math.exp(-g_j * (mu - mu_j))))
        ss.append(s_j)
    v = 1 / math.fsum(g_j**2 * e_j * (1 - e_j) for g_j, e_j in zip(gs, es, strict=True))
    total = math.fsum(g_j * (s_j - e_j) for g_j, e_j, s_j in zip(gs, es, ss, strict=True))
    delta = v * total
    a = math.log(sigma**2)

    def f(x: float) -> float:
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / REF_TAU**2
        )

    # f falls from +∞ to −∞: a bracket, then halve it.
    low, high = a - 1, a + 1
    while f(low) < 0:
        low -= 1
    while f(high) > 0:
        high += 1
    while high - low > 1e-12:
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    new_sigma = math.exp((low + high) / 4)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * total
    return Period(
        (REF_SCALE * new_mu + 1500, REF_SCALE * new_phi, new_sigma), delta**2 > phi**2 + v
    )


def test_the_reference_agrees_with_the_paper() -> None:
    """The reference is checked on the paper first, not against the module."""
    published = EXAMPLE["published"]
    player = EXAMPLE["player"]
    slow = reference_rate(
        (player["rating"], player["rd"], player["volatility"]),
        [
            (game["opponent"]["rating"], game["opponent"]["rd"], game["score"])
            for game in EXAMPLE["games"]
        ],
    ).rating
    assert round((slow[0] - 1500) / REF_SCALE, 4) == published["step7"]["mu"]
    assert round(slow[1], 2) == published["step8"]["rd"]
    assert round(2 * math.log(slow[2]), 5) == published["step5"]["A"]


POOLS = [  # (seed, players, games, spread of the players' true strengths)
    (1, 12, 150, 200),
    (2, 24, 220, 350),
    (3, 40, 260, 500),
    (4, 30, 200, 900),  # long odds: upsets set step 5 off from ln(Δ² − φ² − v)
    (5, 16, 170, 1400),
]


def test_every_game_of_several_pools_agrees_with_the_slow_reference() -> None:
    """Hundreds of games among dozens of players in several pools, replayed game by game, each
    side keeping its own players' ratings: every rating and RD agree to 0.01 (the volatility to
    0.000001) after every game, both ways step 5 starts taken."""
    starts = set()
    played = 0
    for seed, players, games, spread in POOLS:
        rng = random.Random(seed)
        strength = [1500 + rng.gauss(0, spread) for _ in range(players)]
        fast = [Rating.NEW] * players
        slow = [(1500.0, 350.0, 0.06)] * players
        for _ in range(games):
            i, j = rng.sample(range(players), 2)
            p_i = 1 / (1 + 10 ** ((strength[j] - strength[i]) / 400))
            draw = 0.15 if abs(strength[i] - strength[j]) < 200 else 0.03
            roll = rng.random()
            score = 0.5 if roll < draw else 1.0 if roll < draw + (1 - draw) * p_i else 0.0
            fast[i], fast[j] = after_game(fast[i], fast[j], score)
            period_i = reference_rate(slow[i], [(slow[j][0], slow[j][1], score)])
            period_j = reference_rate(slow[j], [(slow[i][0], slow[i][1], 1 - score)])
            slow[i], slow[j] = period_i.rating, period_j.rating
            starts |= {period_i.from_log_of_the_surplus, period_j.from_log_of_the_surplus}
            for k in (i, j):
                assert fast[k].rating == pytest.approx(slow[k][0], abs=0.01)
                assert fast[k].rd == pytest.approx(slow[k][1], abs=0.01)
                assert fast[k].volatility == pytest.approx(slow[k][2], abs=0.000001)
            played += 1
    assert played >= 1000
    assert starts == {True, False}


# ---------------------------------------------------------------- what a game does to a rating

ratings = st.builds(
    Rating,
    rating=st.floats(0, 3500),
    rd=st.floats(30, 350),
    volatility=st.floats(0.03, 0.1),
)
scores = st.sampled_from([0.0, 0.5, 1.0])


@settings(max_examples=300, deadline=None)
@given(ratings, ratings)
def test_a_win_never_lowers_and_a_loss_never_raises_a_rating(a: Rating, b: Rating) -> None:
    won, lost = after_game(a, b, 1.0)
    assert won.rating > a.rating
    assert lost.rating < b.rating
    lost, won = after_game(a, b, 0.0)
    assert lost.rating < a.rating
    assert won.rating > b.rating


@settings(max_examples=300, deadline=None)
@given(ratings, ratings, scores)
def test_after_game_is_the_same_game_seen_from_either_side(
    a: Rating, b: Rating, score: float
) -> None:
    new_a, new_b = after_game(a, b, score)
    assert after_game(b, a, 1 - score) == (new_b, new_a)
    assert new_a == rate(a, [(b, score)])
    assert new_b == rate(b, [(a, 1 - score)])


def variance(player: Rating, opponent: Rating) -> float:
    """The paper's v for one game."""
    mu, mu_j = (player.rating - 1500) / SCALE, (opponent.rating - 1500) / SCALE
    phi_j = opponent.rd / SCALE
    e = expected(mu, mu_j, phi_j)
    return 1 / (g(phi_j) ** 2 * e * (1 - e))


@settings(max_examples=300, deadline=None)
@given(ratings, ratings, scores)
def test_a_game_raises_an_rd_only_where_glicko2_widens_it_more_than_the_game_narrows_it(
    a: Rating, b: Rating, score: float
) -> None:
    """Step 6 widens φ by the new volatility (φ*² = φ² + σ'²), step 7 narrows it by the game
    (1/φ'² = 1/φ*² + 1/v): the RD never ends wider than φ*, and ends wider than it started
    exactly when φ²(φ² + σ'²) < v σ'², a low RD and a game that tells little."""
    for player, opponent, s in ((a, b, score), (b, a, 1 - score)):
        after = rate(player, [(opponent, s)])
        phi, sigma = player.rd / SCALE, after.volatility
        assert after.rd < SCALE * math.sqrt(phi**2 + sigma**2)
        v = variance(player, opponent)
        margin = phi**2 * (phi**2 + sigma**2) - v * sigma**2
        if abs(margin) > 1e-9:
            assert (after.rd <= player.rd) == (margin > 0)


def test_an_rd_falls_game_by_game_from_a_new_players_and_settles() -> None:
    """Among new players, every RD falls with every game while it is provisional (over 110);
    then RDs settle where a game's narrowing and step 6's widening balance (about 60 with
    σ ≈ 0.06 and even games): there a game may raise an RD, by a hair."""
    rng = random.Random(7)
    players = [Rating.NEW] * 20
    for _ in range(2000):
        i, j = rng.sample(range(20), 2)
        before = players[i], players[j]
        players[i], players[j] = after_game(players[i], players[j], rng.choice([0.0, 0.5, 1.0]))
        for old, new in zip(before, (players[i], players[j]), strict=True):
            if provisional(old):
                assert new.rd < old.rd
            assert new.rd < old.rd + 0.5
    assert all(50 < player.rd < 70 for player in players)
    a, b = after_game(Rating(1500, 50, 0.06), Rating(1500, 50, 0.06), 1.0)
    assert a.rd > 50  # Glicko-2 itself, not idle time
    assert b.rd > 50


def test_a_draw_between_equals_moves_neither_rating() -> None:
    a, b = after_game(Rating(1620, 80, 0.06), Rating(1620, 80, 0.06), 0.5)
    assert a.rating == b.rating == 1620
    assert a.rd < 80


# ---------------------------------------------------------------- the API's edges


def test_a_new_player_is_the_contracts() -> None:
    assert (Rating.NEW.rating, Rating.NEW.rd, Rating.NEW.volatility) == (1500, 350, 0.06)
    assert provisional(Rating.NEW)


def test_a_period_without_games_changes_nothing() -> None:
    """The paper would widen the RD (step 6 alone); the contract allows no RD increase with
    idle time."""
    player = Rating(1720.5, 84.25, 0.0612)
    assert rate(player, []) is player


def test_provisional_is_rd_over_110() -> None:
    assert provisional(Rating(1500, 110.000001, 0.06))
    assert not provisional(Rating(1500, 110, 0.06))
    assert not provisional(Rating(2100, 45, 0.06))


def test_a_rating_is_frozen_and_sane() -> None:
    with pytest.raises(FrozenInstanceError):
        Rating.NEW.rating = 1600  # type: ignore[misc]
    for bad in (
        {"rating": math.nan, "rd": 350, "volatility": 0.06},
        {"rating": 1500, "rd": 0, "volatility": 0.06},
        {"rating": 1500, "rd": math.inf, "volatility": 0.06},
        {"rating": 1500, "rd": 350, "volatility": -0.06},
    ):
        with pytest.raises(ValueError, match="finite"):
            Rating(**bad)


@pytest.mark.parametrize("score", [0.25, 2.0, -1.0, math.nan])
def test_a_score_is_a_win_a_draw_or_a_loss(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        after_game(Rating.NEW, Rating.NEW, score)
    with pytest.raises(ValueError, match="score"):
        rate(Rating.NEW, [(Rating.NEW, 1.0), (Rating.NEW, score)])


def test_values_are_returned_unrounded() -> None:
    a, b = after_game(Rating.NEW, Rating(1400, 30, 0.06), 1.0)
    assert a.rating != round(a.rating, 6)
    assert a.rd != round(a.rd, 6)
    assert b.volatility != round(b.volatility, 8)
