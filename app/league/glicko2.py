"""Glicko-2 exactly as the contract fixes it (``API.md``, part 3, "Players and ratings").

Written from Mark E. Glickman's "Example of the Glicko-2 system" (Boston University, 2013;
revised 22 March 2022; http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the
contract's choices:

* a new player is rating 1500, RD 350, volatility 0.06 (step 1); τ = 0.5; the convergence
  tolerance of step 5 is ε = 0.000001; the scale between the two systems is 173.7178 (step 2);
* each rated game is one rating period for both players, each computed from both players'
  values before the game, a win scoring 1, a draw 0.5, a loss 0 (:func:`after_game`);
* no RD increase with idle time: the paper's period without games (only step 6, φ' =
  √(φ² + σ²)) is not applied, so :func:`rate` with no games returns the player unchanged;
* values are returned unrounded.

Step 8's r' = 173.7178 μ' + 1500 is computed as r + 173.7178 (μ' − μ), the same number without
the round trip of r through μ: a game that moves a rating by less than that round trip's error
(a certain winner's win) cannot move it the wrong way.

Note that a game can raise a low RD: step 6 widens φ by the new volatility before step 7 narrows
it by the game's information, and when φ is small and the game tells little (v large) the
widening wins (φ' > φ exactly when φ²(φ² + σ'²) < v σ'²). That is Glicko-2 itself, not idle time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

SCALE = 173.7178  # step 2: μ = (r − 1500) / 173.7178, φ = RD / 173.7178
CENTRE = 1500.0
TAU = 0.5  # the system constant τ
EPSILON = 0.000001  # step 5's convergence tolerance ε
NEW_RATING, NEW_RD, NEW_VOLATILITY = 1500.0, 350.0, 0.06  # step 1, an unrated player
PROVISIONAL_RD = 110.0  # GET /v1/ratings: "provisional": rd > 110
SCORES = (0.0, 0.5, 1.0)  # a loss, a draw, a win
MOST_ITERATIONS = 1000  # step 5 converges in a handful; a guard, never reached by a real game


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility σ, on the Glicko (1500) scale."""

    rating: float
    rd: float
    volatility: float

    NEW: ClassVar[Rating]  # a new player's: 1500, 350, 0.06

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating is a finite number, not {self.rating!r}")
        if not (0.0 < self.rd < math.inf and 0.0 < self.volatility < math.inf):
            raise ValueError(f"RD and volatility are positive and finite: {self!r}")


Rating.NEW = Rating(NEW_RATING, NEW_RD, NEW_VOLATILITY)


def provisional(r: Rating) -> bool:
    """Whether the rating is still provisional: its RD is over 110."""
    return r.rd > PROVISIONAL_RD


def g(phi: float) -> float:
    """Step 3's g(φ) = 1 / √(1 + 3φ²/π²)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3's E(μ, μ_j, φ_j) = 1 / (1 + exp(−g(φ_j)(μ − μ_j))): the expected score against
    opponent j."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(sigma: float, phi: float, v: float, delta: float) -> float:
    """Step 5: the new volatility σ' from σ, φ, v and Δ, by the paper's Illinois algorithm on
    f(x) = 0, x = ln(σ'²)."""
    a = math.log(sigma * sigma)
    delta2, phi2, tau2 = delta * delta, phi * phi, TAU * TAU

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    # 2. The initial values of the iterative algorithm.
    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0.0:
            k += 1
        big_b = a - k * TAU
    # 3.
    f_a, f_b = f(big_a), f(big_b)
    # 4. While |B − A| > ε: (a) C = A + (A − B) f_A / (f_B − f_A); (b) if f_C f_B ≤ 0,
    # A ← B and f_A ← f_B, else f_A ← f_A / 2; (c) B ← C, f_B ← f_C.
    iterations = 0
    while abs(big_b - big_a) > EPSILON:
        iterations += 1
        if iterations > MOST_ITERATIONS:
            raise ArithmeticError(f"step 5 did not converge: σ={sigma}, φ={phi}, v={v}, Δ={delta}")
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0.0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    # 5. σ' = e^(A/2).
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """One rating period of ``player``: the paper's steps 2 to 8 over ``results``, each an
    opponent's rating before the period and the player's score against them (1 a win, 0.5 a
    draw, 0 a loss).

    A period without games returns ``player`` itself, unchanged: the paper would widen its RD
    (step 6 alone), which the contract rules out (no RD increase with idle time).
    """
    if not results:
        return player
    # Step 2: onto the Glicko-2 scale.
    mu = (player.rating - CENTRE) / SCALE
    phi = player.rd / SCALE
    # Steps 3 and 4: the estimated variance v and the sum behind the improvement Δ.
    information = 0.0
    improvement = 0.0  # Σ g(φ_j) (s_j − E(μ, μ_j, φ_j))
    for opponent, score in results:
        if score not in SCORES:
            raise ValueError(f"a score is 1, 0.5 or 0, not {score!r}")
        phi_j = opponent.rd / SCALE
        g_j = g(phi_j)
        e_j = expected(mu, (opponent.rating - CENTRE) / SCALE, phi_j)
        information += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (score - e_j)
    v = 1.0 / information
    delta = v * improvement
    # Step 5: the new volatility.
    sigma = new_volatility(player.volatility, phi, v, delta)
    # Step 6: the pre-rating period value φ*.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    # Step 7: the new φ' and μ' (μ' − μ = φ'² Σ g(φ_j)(s_j − E)).
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    # Step 8: back onto the Glicko scale.
    return Rating(
        rating=player.rating + SCALE * (phi_new * phi_new * improvement),
        rd=SCALE * phi_new,
        volatility=sigma,
    )


def after_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one rated game, which is one rating period for each, computed
    from both players' values before it: ``score_a`` is a's score (1, 0.5 or 0), b's is 1 − it.
    """
    if score_a not in SCORES:
        raise ValueError(f"a score is 1, 0.5 or 0, not {score_a!r}")
    return rate(a, [(b, score_a)]), rate(b, [(a, 1.0 - score_a)])
