"""Per-client limits: game creation, and each client's share of the CPU time its requests' work
takes (bodies parsed, stateless questions answered): 429 rate_limited with Retry-After."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException
from starlette.requests import Request

from app.api import bodies, work
from app.api.clients import Clients
from app.api.ratelimit import RateLimiter
from app.api.work import WorkBudget, answered_in_slices
from app.main import create_app
from app.rules.reversi import OPENING
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.fakes import FakeClock, FakeCpu


def test_burst_then_429_then_refill() -> None:
    clock = FakeClock()
    app = create_app(Settings(create_rate_per_minute=6, create_burst=3))
    app.state.creation_limiter.clock = clock
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post("/v1/games", json={"n": 3}).status_code == 201
        refused = client.post("/v1/games", json={"n": 3})
        assert_problem(refused, 429, "rate_limited")
        assert refused.headers["retry-after"] == "10"  # one game every 10 s
        clock.now += 10
        assert client.post("/v1/games", json={"n": 3}).status_code == 201
        # Other requests are not limited.
        assert client.post("/v1/tictactoe/validate", json={"board": ["X"]}).status_code == 200


def test_zero_rate_disables_the_limit() -> None:
    with TestClient(create_app(Settings(create_rate_per_minute=0, create_burst=1))) as client:
        for _ in range(5):
            assert client.post("/v1/games", json={"n": 3}).status_code == 201


def test_buckets_are_per_client_and_bounded() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate_per_minute=60, burst=1, clock=clock, max_clients=2)
    limiter.take("a")
    limiter.take("b")
    with pytest.raises(Exception, match="too many games"):
        limiter.take("a")
    limiter.take("c")  # a third client evicts the least recently seen ("b")
    assert len(limiter._buckets) == 2


def test_small_charges_are_owed_until_they_add_up_and_a_client_not_in_debt_costs_a_lookup() -> None:
    reads: list[float] = []
    clock = FakeClock()

    def counted() -> float:
        reads.append(clock.now)
        return clock.now

    # 60 tokens a minute (one a second), 100 at once: charged once 1 (a hundredth) is owed.
    limiter = RateLimiter(60, burst=100, clock=counted, max_clients=4, what="work")
    limiter.spend("a", 0.4)
    limiter.spend("a", 0.4)
    limiter.admit("a")
    assert (reads, dict(limiter._buckets)) == ([], {})  # owed, not charged; nothing read
    limiter.spend("a", 0.4)  # 1.2 owed: charged
    assert limiter._buckets["a"] == (pytest.approx(98.8), clock.now)
    limiter.spend("a", 200)  # in debt (at most a burst deep): refused until back at zero
    with pytest.raises(HTTPException) as refused:
        limiter.admit("a")
    assert refused.value.headers == {"Retry-After": "100"}  # 100 deep, one a second
    clock.now += 100
    limiter.admit("a")
    assert "a" not in limiter._debtors  # back: admitting it is a lookup again
    for name in "bcdef":  # what is owed is bounded as the buckets are: all charged at once
        limiter.spend(name, 0.1)
    assert len(limiter._owed) <= 4
    assert len(limiter._buckets) <= 4


def test_the_clients_of_a_network_share_its_bucket_too() -> None:
    clock = FakeClock()
    # A client: a game every 10 s, one at once; its /24: twice that, together.
    limiter = RateLimiter(rate_per_minute=6, burst=1, clock=clock, network_factor=2)
    a, b, c = (Clients().of(f"192.0.2.{i}") for i in (1, 2, 3))
    limiter.take(a)
    limiter.take(b)
    with pytest.raises(HTTPException) as refused:  # its own bucket is full, its network's not
        limiter.take(c)
    assert "from this network" in refused.value.detail
    assert refused.value.headers == {"Retry-After": "5"}  # the network refills twice as fast
    with pytest.raises(HTTPException) as refused:
        limiter.take(a)
    assert "from this address" in refused.value.detail
    assert refused.value.headers == {"Retry-After": "10"}
    limiter.take(Clients().of("198.51.100.1"))  # another network's client
    clock.now += 5
    limiter.take(c)


def test_reads_of_a_network_are_granted_up_to_what_it_has_left() -> None:
    limiter = RateLimiter(rate_per_minute=60, burst=10, clock=FakeClock(), network_factor=1.5)
    a, b = Clients().of("2001:db8:1:1::1"), Clients().of("2001:db8:1:2::1")  # one /48
    assert limiter.take_up_to(a, 10, refuse=True) == 10
    assert limiter.take_up_to(b, 10, refuse=True) == 5  # the /48's 15, less a's 10
    with pytest.raises(HTTPException):
        limiter.take_up_to(b, 10, refuse=True)


STATELESS = [
    ("/v1/reversi/check-move", {"board": list(OPENING), "row": 2, "col": 3, "color": "B"}),
    ("/v1/reversi/legal-moves", {"board": list(OPENING), "color": "B"}),
    ("/v1/reversi/apply-move", {"board": list(OPENING), "row": 2, "col": 3, "color": "B"}),
    (
        "/v1/reversi/check-moves",
        {"board": list(OPENING), "queries": [{"row": 2, "col": 3, "color": "B"}] * 3},
    ),
    ("/v1/tictactoe/validate", {"board": ["X.", ".."]}),
    ("/v1/tictactoe/validate-batch", {"items": [{"board": ["X"]}] * 3}),
]


def budgeted_app(step: float) -> tuple[TestClient, FakeClock]:
    """An app whose clients may spend 600 ms of CPU a minute (10 ms a second), 500 ms at once,
    where every stretch of metered work takes ``step`` seconds."""
    app = create_app(Settings(client_cpu_ms_per_minute=600, client_cpu_burst_ms=500))
    budget: WorkBudget = app.state.work_budget
    budget.cpu_clock = FakeCpu(step)
    clock = FakeClock()
    budget.limiter.clock = clock
    return TestClient(app), clock


@pytest.mark.parametrize(("path", "body"), STATELESS, ids=[path for path, _ in STATELESS])
def test_stateless_work_is_charged_by_the_time_it_takes(
    path: str, body: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A batch in one slice however slow the machine, each stretch 0.1 s. (A batch
    # of several slices is refused between them once in debt: tested below.)
    monkeypatch.setattr(work, "SLICE_SECONDS", 3600.0)
    client, clock = budgeted_app(step=0.1)
    with client:
        answered = 0
        while (response := client.post(path, json=body)).status_code == 200:
            answered += 1
        # 100 ms or more a request (a question's body parsed and answered in one stretch, a
        # batch's in two or more) against a 500 ms burst.
        assert 1 <= answered <= 6  # the last one admitted with 0 left
        problem = assert_problem(response, 429, "rate_limited")
        assert "CPU time" in problem["detail"]
        waited = int(response.headers["retry-after"])
        assert 1 <= waited <= 50  # a debt of at most the burst, repaid at 10 ms a second
        # Refused before its body is read: a body that is no JSON at all is 429, not 422.
        assert client.post(path, content=b"{not json").status_code == 429
        clock.now += waited
        assert client.post(path, json=body).status_code == 200


def test_invalid_bodies_are_charged_too() -> None:
    client, _ = budgeted_app(step=0.2)
    with client:
        statuses = [
            client.post("/v1/tictactoe/validate", content=b"[1").status_code for _ in range(4)
        ]
    assert statuses == [422, 422, 422, 429]  # 0.6 s of parsing against a 0.5 s burst


def test_every_body_route_is_budgeted() -> None:
    client, _ = budgeted_app(step=1.0)  # one parse puts a client in debt
    with client:
        game = client.post("/v1/games", json={"n": 3}).json()
        auth = {"Authorization": f"Bearer {game['tokens']['1']}"}
        refused = client.post(
            f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0}, headers=auth
        )
        assert_problem(refused, 429, "rate_limited")
        assert client.get(f"/v1/games/{game['id']}").json()["move_count"] == 0


def test_a_share_used_while_the_body_arrives_is_refused_before_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, _ = budgeted_app(step=0.1)
    budget: WorkBudget = client.app.state.work_budget  # type: ignore[attr-defined]
    arrive = bodies.read_body

    async def slowly(request: Request) -> bytes:  # the client's other requests spend meanwhile
        budget.limiter.spend("testclient", 1.0)
        return await arrive(request)

    monkeypatch.setattr(bodies, "read_body", slowly)
    with client:
        refused = client.post("/v1/tictactoe/validate", content=b"{not json")
        problem = assert_problem(refused, 429, "rate_limited")  # not a 422: it was not parsed
        assert "CPU time" in problem["detail"]


def test_the_budget_is_per_client() -> None:
    client, _ = budgeted_app(step=1.0)
    with client, TestClient(client.app, client=("192.0.2.7", 50000)) as other:
        assert client.post("/v1/tictactoe/validate", json={"board": ["X"]}).status_code == 200
        assert client.post("/v1/tictactoe/validate", json={"board": ["X"]}).status_code == 429
        assert other.post("/v1/tictactoe/validate", json={"board": ["X"]}).status_code == 200


def test_zero_disables_the_budget() -> None:
    app = create_app(Settings(client_cpu_ms_per_minute=0))
    app.state.work_budget.cpu_clock = FakeCpu(100.0)
    with TestClient(app) as client:
        for _ in range(5):
            assert client.post("/v1/tictactoe/validate", json={"board": ["X"]}).status_code == 200


@pytest.mark.parametrize(
    ("host", "key", "network"),
    [
        ("192.0.2.7", "192.0.2.7", "192.0.2.0/24"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64", "2001:db8:1::/48"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64", "2001:db8:1::/48"),  # the same /64
        ("2001:db8:1:3::1", "2001:db8:1:3::/64", "2001:db8:1::/48"),  # another /64, same /48
        ("::ffff:192.0.2.7", "192.0.2.7", "192.0.2.0/24"),  # IPv4 over IPv6: the IPv4 client
        ("testclient", "testclient", None),
    ],
)
def test_a_client_is_an_address_or_an_ipv6_network_counted_with_its_network(
    host: str, key: str, network: str | None
) -> None:
    client = Clients().of(host)
    assert (client, client.network) == (key, network)


@pytest.mark.parametrize(
    ("prefixes", "host", "key", "network"),
    [
        ((64, 32, 48), "192.0.2.7", "192.0.2.7", None),  # /32: each address alone
        ((64, 16, 48), "192.0.2.7", "192.0.2.7", "192.0.0.0/16"),
        ((128, 24, 128), "2001:db8::1", "2001:db8::1", None),
        ((56, 24, 40), "2001:db8:1:2::1", "2001:db8:1::/56", "2001:db8::/40"),
    ],
)
def test_the_prefixes_are_the_settings(
    prefixes: tuple[int, int, int], host: str, key: str, network: str | None
) -> None:
    client = Clients(*prefixes).of(host)
    assert (client, client.network) == (key, network)


def test_a_long_batch_lets_other_work_run_between_its_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(work, "SLICE_SECONDS", 0.0)  # a slice an item
    done: list[str] = []
    budget = WorkBudget(0, 1000)

    async def batch(name: str) -> list[str]:
        return await answered_in_slices(
            range(3), lambda i: done.append(f"{name}{i}") or name, budget_meter
        )

    budget_meter = work.Meter(budget, "client")

    async def both() -> list[list[str]]:
        return list(await asyncio.gather(batch("a"), batch("b")))

    assert asyncio.run(both()) == [["a"] * 3, ["b"] * 3]
    assert done == ["a0", "b0", "a1", "b1", "a2", "b2"]


def test_batches_at_once_are_refused_between_slices_once_the_share_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Both batches are let in while the client is not in debt; each slice is charged, and the
    # next slice of either finds the share used: 429, after a slice each, not two whole batches.
    monkeypatch.setattr(work, "SLICE_SECONDS", 0.0)  # a slice an item
    budget = WorkBudget(600, 500, cpu_clock=FakeCpu(0.2))
    budget.limiter.clock = FakeClock()
    meter = work.Meter(budget, "client")
    answered: list[int] = []

    async def batch() -> list[int]:
        return await answered_in_slices(range(100), lambda i: answered.append(i) or i, meter)

    async def both() -> list[BaseException | list[int]]:
        return list(await asyncio.gather(batch(), batch(), return_exceptions=True))

    outcomes = asyncio.run(both())
    assert all(isinstance(outcome, HTTPException) for outcome in outcomes)
    assert [outcome.status_code for outcome in outcomes] == [429, 429]  # type: ignore[union-attr]
    assert len(answered) <= 4  # 0.5 s of share, 0.2 s a slice: three slices, and one in flight


def test_a_budget_that_is_off_never_reads_the_cpu_clock() -> None:
    def unread() -> float:
        raise AssertionError("the CPU clock was read")

    budget = WorkBudget(0, 1000, cpu_clock=unread)
    request = Request({"type": "http", "headers": [], "client": ("127.0.0.1", 1)})
    meter = budget.meter(request)
    meter.admit()
    with meter:
        pass
    read: list[float] = []
    on = WorkBudget(600, 1000, cpu_clock=lambda: read.append(0.0) or 0.0)
    with on.meter(request):
        pass
    assert len(read) == 2  # a budget that is on reads it before and after the work


class Rounds:
    """Counts the event loop's rounds (a task that yields every round), and notes events
    between them."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.running = True

    async def count(self) -> None:
        while self.running:
            self.log.append("round")
            await asyncio.sleep(0)

    def stretches(self, mark: str) -> list[int]:
        """The round in which each event ``mark`` was noted."""
        rounds, found = 0, []
        for entry in self.log:
            rounds += entry == "round"
            if entry == mark:
                found.append(rounds)
        return found


def test_one_clients_batches_at_once_take_turns_a_round_of_the_loop_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(work, "SLICE_SECONDS", 0.0)  # a slice an item
    budget = WorkBudget(0, 1000)
    rounds = Rounds()
    meter = work.Meter(budget, "client")

    async def batch() -> list[None]:
        return await answered_in_slices(range(3), lambda i: rounds.log.append("slice"), meter)

    async def at_once() -> None:
        counting = asyncio.ensure_future(rounds.count())
        await asyncio.gather(*(batch() for _ in range(4)))
        rounds.running = False
        await counting

    asyncio.run(at_once())
    slices = rounds.stretches("slice")
    assert len(slices) == 12
    assert len(set(slices)) == 12  # never two slices of the client's in one round


def test_large_bodies_at_once_are_parsed_in_turns_and_refused_unparsed_once_in_debt() -> None:
    app = create_app(Settings(client_cpu_ms_per_minute=600, client_cpu_burst_ms=1500))
    budget: WorkBudget = app.state.work_budget
    rounds = Rounds()
    step = FakeCpu(1.0)  # each parse: a second of the client's share, 1.5 s at once

    def clock() -> float:
        rounds.log.append("clock")  # read as a parse starts and as it ends
        return step()

    budget.cpu_clock = clock
    budget.limiter.clock = FakeClock()
    # Parsed in the client's turn (over 16 KiB), and refused once parsed (422): only the parse
    # is charged.
    body = b'{"board": ["X"], "k": "not a number"}'.ljust(bodies.SMALL_BODY_BYTES + 1)
    json_body = {"content-type": "application/json"}

    async def at_once() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            counting = asyncio.ensure_future(rounds.count())
            answers = await asyncio.gather(
                *(
                    http.post("/v1/tictactoe/validate", content=body, headers=json_body)
                    for _ in range(3)
                )
            )
            rounds.running = False
            await counting
        return [answer.status_code for answer in answers]

    # All three are let in (the client is not in debt) and read; the third's turn comes after
    # two parses have put it in debt: refused without being parsed (else it would be a 422).
    assert asyncio.run(at_once()) == [422, 422, 429]
    starts = rounds.stretches("clock")[::2]  # each parse: a read as it starts, one as it ends
    assert len(starts) == 2
    assert len(set(starts)) == 2  # not in the same round of the loop
