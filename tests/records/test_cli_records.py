"""``adjudicator audit`` and ``adjudicator verify``: the records endpoints offline, with the same
answers and signatures, checked by click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from app.cli import main
from app.main import create_app
from app.records.signing import AUDIT, RECORD, load_private_key
from app.settings import Settings
from tests.records.test_wthor import YEAR_1988

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "key.pem"
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )  # fmt: skip
    path.write_bytes(pem)
    return path


def run(args: list[str], key: Path | None = None, stdin: str | None = None) -> tuple[int, str, str]:
    env = {"ADJUDICATOR_SIGNING_KEY_FILE": str(key)} if key else {}
    result = CliRunner().invoke(main, args, env=env, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_audit_answers_as_the_endpoint_does(tmp_path: Path, key_file: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("f5d6c3\nd3c4")
    status, out, _ = run(["audit", str(game)], key_file)
    assert status == 0
    offline = json.loads(out)
    with TestClient(create_app(Settings(signing_key_file=key_file))) as client:
        online = client.post(
            "/v1/records/audit", json={"game": "reversi", "transcript": "f5d6c3\nd3c4"}
        ).json()
    assert offline == online  # Ed25519 signatures are deterministic: the same bytes


def test_a_summary_offline_is_the_endpoints_summary(tmp_path: Path, key_file: Path) -> None:
    game, ggf = tmp_path / "game.txt", DATA / "ggs-2003-saio.ggf"
    game.write_text("f5d6c3\nd3c4")
    params = '{"game": "reversi", "detail": "summary"}'
    status, out, _ = run(["audit", "--params", params, str(game), str(ggf)], key_file)
    assert status == 0
    offline = [json.loads(line) for line in out.splitlines()]
    with TestClient(create_app(Settings(signing_key_file=key_file))) as client:
        bodies = [
            {"game": "reversi", "transcript": "f5d6c3\nd3c4", "detail": "summary"},
            {"record": ggf.read_text(), "format": "ggf", "detail": "summary"},
        ]
        online = [client.post("/v1/records/audit", json=body).json() for body in bodies]
    assert offline == online
    assert all("moves" not in answer for answer in offline)


def test_an_illegal_game_exits_1_and_an_unreadable_file_says_why(tmp_path: Path) -> None:
    illegal, unreadable = tmp_path / "illegal.txt", tmp_path / "bad.txt"
    illegal.write_text("b2a1b2")
    unreadable.write_text("b2 ?")
    status, out, err = run(["audit", "--params", '{"n": 3}', str(illegal), str(unreadable)])
    assert status == 1
    assert json.loads(out)["illegal"]["code"] == "cell_occupied"
    assert "bad.txt" in err
    assert "line 1, column 4" in err


def test_a_ggf_file_and_a_wthor_file_are_audited(tmp_path: Path) -> None:
    status, out, _ = run(["audit", str(DATA / "ggs-2003-saio.ggf")])
    assert (status, json.loads(out)["verdict"]) == (0, "finished")
    wtb = tmp_path / "1988.wtb"
    wtb.write_bytes(YEAR_1988)
    status, out, _ = run(["audit", str(wtb)])
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert len(lines) == 1823
    assert sum(line["agrees"] for line in lines) == 1815


def test_psq_and_sgf_files_are_audited_under_the_rule_params_gives(
    tmp_path: Path, key_file: Path
) -> None:
    # Black's h8-h9-h10 and i9-j9: h9 is a double three, forbidden in renju, fine in freestyle.
    stones = [(8, 8), (1, 15), (9, 7), (1, 13), (8, 6), (1, 11), (10, 7), (1, 9), (8, 7)]
    psq = tmp_path / "game.psq"
    psq.write_text("Piskvorky 15x15, 11:11, 0\n" + "".join(f"{x},{y},0\n" for x, y in stones))
    sgf = tmp_path / "game.sgf"
    letters = "abcdefghijklmno"
    sgf.write_text("(;FF[4]GM[4]SZ[15]" + "".join(
        f";{'BW'[i % 2]}[{letters[x - 1]}{letters[y - 1]}]" for i, (x, y) in enumerate(stones)
    ) + ")")  # fmt: skip
    status, out, err = run(["audit", str(psq), str(sgf)], key_file)
    assert status == 0
    assert [json.loads(line)["verdict"] for line in out.splitlines()] == ["unfinished"] * 2
    for name in (psq, sgf):  # neither names a rule: the answer and a line on stderr say so
        assert f"{name}: the record names no rule: checked under rule freestyle" in err
    assert [json.loads(line)["assumed"] for line in out.splitlines()] == [{"rule": "freestyle"}] * 2
    status, out, _ = run(["audit", "--params", '{"rule": "renju"}', str(psq), str(sgf)], key_file)
    assert status == 1
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["illegal"]["code"] for a in answers] == ["forbidden_move"] * 2
    assert [a["illegal"]["ply"] for a in answers] == [9, 9]
    with TestClient(create_app(Settings(signing_key_file=key_file))) as client:
        online = client.post(
            "/v1/records/audit",
            json={"record": psq.read_text(), "format": "psq", "rule": "renju"},
        ).json()
    assert answers[0] == online
    psq.write_bytes(b"Piskvorky 15x15, 11:11, 0\n8,8,0\n\xff\n")
    status, _, err = run(["audit", str(psq)], key_file)
    assert status == 1
    assert "line 3, column 1" in err
    assert "not UTF-8" in err


def test_verify_says_verified_and_a_changed_answer_is_not(tmp_path: Path, key_file: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("f5d6c3")
    answer = tmp_path / "answer.json"
    answer.write_text(run(["audit", str(game)], key_file)[1])
    status, out, _ = run(["verify", str(answer)], key_file)
    assert (status, out.startswith("verified: an audit answer, signed by key ")) == (0, True)
    changed = json.loads(answer.read_text())
    changed["state"]["next_player"] = 1
    answer.write_text(json.dumps(changed))
    status, out, _ = run(["verify", str(answer)], key_file)
    assert status == 1
    assert out.startswith("not verified: the signature does not match")


def test_verify_a_finished_sessions_record_with_the_published_keys(
    tmp_path: Path, key_file: Path
) -> None:
    with TestClient(create_app(Settings(signing_key_file=key_file))) as client:
        created = client.post("/v1/games", json={"n": 3}).json()
        for i, square in enumerate(["b2", "a1", "a3", "c1", "c3"]):
            token = created["tokens"]["1" if i % 2 == 0 else "2"]
            client.post(f"/v1/games/{created['id']}/moves", json={"square": square},
                        headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        client.post(f"/v1/games/{created['id']}/moves", json={"square": "b1"},
                    headers={"Authorization": f"Bearer {created['tokens']['2']}"})  # fmt: skip
        record = client.get(f"/v1/games/{created['id']}/record").json()
        keys = client.get("/v1/keys").text
    assert record["state"]["status"] == "won"
    (tmp_path / "keys.json").write_text(keys)
    (tmp_path / "record.json").write_text(json.dumps(record))
    status, out, _ = run(["verify", str(tmp_path / "record.json"), "--keys",
                          str(tmp_path / "keys.json")])  # fmt: skip
    assert status == 0
    assert out.startswith("verified: a game record, signed by key ")
    assert "chain recomputed from its 6 moves" in out  # O: a1, c1, b1
    other = Ed25519PrivateKey.generate()
    (tmp_path / "other.pem").write_bytes(other.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ))  # fmt: skip
    status, out, _ = run(["verify", str(tmp_path / "record.json")], tmp_path / "other.pem")
    assert status == 1
    assert "no published key" in out


def signed_answer_and_record(tmp_path: Path, key_file: Path) -> tuple[Path, Path]:
    """An audit answer and a finished game's record, as files, both signed by ``key_file``."""
    with TestClient(create_app(Settings(signing_key_file=key_file))) as client:
        answer = client.post("/v1/records/audit", json={"n": 3, "moves": ["a1", "b1"]}).text
        created = client.post("/v1/games", json={"n": 3}).json()
        client.post(f"/v1/games/{created['id']}/resign",
                    headers={"Authorization": f"Bearer {created['tokens']['1']}"})  # fmt: skip
        record = client.get(f"/v1/games/{created['id']}/record").text
    (tmp_path / "answer.json").write_text(answer)
    (tmp_path / "record.json").write_text(record)
    return tmp_path / "answer.json", tmp_path / "record.json"


def test_verify_as_a_record_refuses_an_audit_answer_and_the_other_way(
    tmp_path: Path, key_file: Path
) -> None:
    """One key signs both, and anybody can have any moves audited: an audit answer must never
    pass for a game's record (nor a record for an answer)."""
    answer, record = signed_answer_and_record(tmp_path, key_file)
    assert json.loads(answer.read_text())["signature"]["typ"] == "audit"
    assert json.loads(record.read_text())["signature"]["typ"] == "record"
    for path, asked, status, said in (
        (answer, "audit", 0, "verified: an audit answer, signed by key"),
        (record, "record", 0, "verified: a game record, signed by key"),
        (answer, "record", 1, "not verified: the document is an audit answer, not a game record"),
        (record, "audit", 1, "not verified: the document is a game record, not an audit answer"),
    ):
        found, out, _ = run(["verify", "--as", asked, str(path)], key_file)
        assert (found, out.startswith(said), len(out.splitlines())) == (status, True, 1), out


def test_verify_refuses_a_document_that_is_not_what_its_signature_says(
    tmp_path: Path, key_file: Path
) -> None:
    """Signed as a record but with an audit's verdict, or as an audit answer without one (which
    the service never signs): not what it claims, not verified."""
    key = load_private_key(key_file)
    answer, record = signed_answer_and_record(tmp_path, key_file)
    as_record = key.signed(json.loads(answer.read_text()), RECORD)
    as_answer = key.signed(json.loads(record.read_text()), AUDIT)
    for document, said in ((as_record, "a game record"), (as_answer, "an audit answer")):
        (tmp_path / "odd.json").write_text(json.dumps(document))
        status, out, _ = run(["verify", str(tmp_path / "odd.json")], key_file)
        assert (status, out) == (1, f"not verified: its signature says it is {said}, which it "
                                    "is not\n")  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ('{"verdict":', '{"verdict":"illegal","verdict":', "verdict"),
        ('"kid":', '"kid":"someone-else","kid":', "kid"),
        ('"chain":', '"chain":"00","chain":', "chain"),
        ('"status":', '"status":"won","status":', "status"),
        ('"row":', '"row":2,"row":', "row"),
    ],
)
def test_verify_refuses_a_document_that_names_a_member_twice(
    tmp_path: Path, key_file: Path, old: str, new: str, name: str
) -> None:
    """A duplicate member (at the top, in the signature, in the state, in a move) means one
    thing to a reader that keeps the first and another to one that keeps the last: the
    signature would verify for one of them, so it verifies for none."""
    answer, _ = signed_answer_and_record(tmp_path, key_file)
    text = answer.read_text()
    assert text.count(old) >= 1, old
    answer.write_text(text.replace(old, new, 1))
    assert json.loads(answer.read_text()) == json.loads(text)  # the last one kept: signed
    status, out, _ = run(["verify", str(answer)], key_file)
    assert (status, out) == (1, f'not verified: the document names "{name}" twice in one '
                                "object: which one counts would be a guess\n")  # fmt: skip


@pytest.mark.parametrize(
    "data",
    [b"[" * 100_000, b'{"a": NaN}', b"\xff\xfe{}", b'{"a": 1} trailing', b"\x00"],
)
def test_verify_says_in_one_line_why_what_is_not_json_is_not_verified(
    tmp_path: Path, key_file: Path, data: bytes
) -> None:
    (tmp_path / "odd.json").write_bytes(data)
    status, out, _ = run(["verify", str(tmp_path / "odd.json")], key_file)
    assert status == 1
    assert out.startswith("not verified: the file is not JSON")
    assert len(out.splitlines()) == 1


def test_verify_without_keys_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{}")
    status, _, err = run(["verify", str(tmp_path / "x.json")])
    assert status == 2
    assert "--keys" in err


def test_verify_says_in_one_line_why_a_text_export_cannot_be_verified(
    tmp_path: Path, key_file: Path
) -> None:
    """A game's record in another format than JSON (``?format=transcript``, ``ggf``, ``psq``,
    ``sgf``) carries no signature: verify names what the file is and what to verify instead."""
    with TestClient(create_app(Settings(signing_key_file=key_file))) as client:
        exports = {}
        for body, squares, formats in (
            ({"game": "reversi"}, ["f5", "d6", "c3"], ("transcript", "ggf")),
            ({"game": "gomoku"}, ["h8", "h9", "i8"], ("psq", "sgf")),
        ):
            created = client.post("/v1/games", json=body).json()
            for i, square in enumerate(squares):
                token = created["tokens"][str(i % 2 + 1)]
                client.post(f"/v1/games/{created['id']}/moves", json={"square": square},
                            headers={"Authorization": f"Bearer {token}"})  # fmt: skip
            for written in formats:
                answer = client.get(f"/v1/games/{created['id']}/record?format={written}")
                assert answer.status_code == 200, answer.text
                exports[written] = answer.text
    said = {"transcript": "transcript", "ggf": "GGF", "psq": "PSQ", "sgf": "SGF"}
    for written, text in exports.items():
        (tmp_path / f"game.{written}").write_text(text)
        status, out, _ = run(["verify", str(tmp_path / f"game.{written}")], key_file)
        assert status == 1
        assert len(out.splitlines()) == 1
        assert out.startswith(f"not verified: the file is a text export ({said[written]})")
        assert "GET /v1/games/{id}/record" in out
    (tmp_path / "notes.txt").write_text("not a game, not JSON: just words")
    status, out, _ = run(["verify", str(tmp_path / "notes.txt")], key_file)
    assert (status, out) == (1, "not verified: the file is not JSON: only a JSON record or "
                                "audit answer carries a signature\n")  # fmt: skip
