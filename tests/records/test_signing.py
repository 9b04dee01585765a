"""Canonical JSON as RFC 8785 writes it, the hash chain anyone can recompute, and Ed25519
signatures (RFC 8032) with their keys as JWKs (RFC 8037) and key ids as thumbprints (RFC 7638):
checked against the RFCs' own examples and against the published key, never against our code."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.rsa import generate_private_key
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from app.main import create_app
from app.records.canonical import (
    Chain,
    DuplicateMember,
    canonical_array,
    canonical_json,
    canonical_object,
    chain,
    number,
    read_json,
)
from app.records.signing import (
    AUDIT,
    RECORD,
    KeyFileError,
    KeyRing,
    NotVerified,
    SigningKey,
    jwk_of,
    load_private_key,
    verify,
)
from app.settings import Settings

# RFC 8785, Appendix B: IEEE 754 doubles (as their bit patterns) and how ECMAScript writes them.
RFC8785_NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),  # minus zero
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "written"), RFC8785_NUMBERS)
def test_numbers_are_written_as_rfc_8785_writes_them(bits: str, written: str) -> None:
    (value,) = __import__("struct").unpack(">d", bytes.fromhex(bits))
    assert number(value) == written
    assert canonical_json(value) == written.encode()


def test_the_rfc_8785_sorting_example_sorts_by_utf_16_code_units() -> None:
    # RFC 8785, 3.2.3: the members' names in the order their UTF-16 code units give.
    value = {"€": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
             "1": "One", "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control",
             "ö": "Latin Small Letter O With Diaeresis"}  # fmt: skip
    order = list(json.loads(canonical_json(value)))
    assert order == ["\r", "1", "\u0080", "ö", "€", "\U0001f600", "\ufb33"]


def test_the_rfc_8785_example_is_written_byte_for_byte() -> None:
    # RFC 8785, 3.2.2: the example object and its canonical form.
    value = {"numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
             "string": "€$\u000f\nA'B\"\\\\\"/", "literals": [None, True, False]}  # fmt: skip
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert canonical_json(value) == expected.encode("utf-8")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), {1: "a"}, {"a": object()}, b"x"])
def test_what_is_not_json_is_refused(bad: object) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 (each says why)
        canonical_json(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_canonical_json_reads_back_as_the_same_value(value: object) -> None:
    assert json.loads(canonical_json(value)) == value


def test_the_chain_is_sha_256_of_each_hash_and_the_next_record() -> None:
    params = {"game": "reversi", "height": 8, "width": 8}
    moves = [
        {"seq": 1, "row": 4, "col": 5, "player": 1},
        {"seq": 2, "row": 5, "col": 3, "player": 2},
    ]
    digest = hashlib.sha256(b'{"game":"reversi","height":8,"width":8}').digest()
    for text in (b'{"col":5,"player":1,"row":4,"seq":1}', b'{"col":3,"player":2,"row":5,"seq":2}'):
        digest = hashlib.sha256(digest + text).digest()
    assert chain(params, moves) == digest.hex()
    assert chain(params, moves[:1]) != chain(params, moves)
    changed = [moves[0], {**moves[1], "col": 4}]
    assert chain(params, changed) != chain(params, moves)


def test_a_key_as_a_jwk_and_its_thumbprint_are_the_rfc_8037_example() -> None:
    # RFC 8037, A.1 (the key) and A.3 (its RFC 7638 thumbprint).
    d = base64.urlsafe_b64decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=")
    jwk = jwk_of(Ed25519PrivateKey.from_private_bytes(d).public_key())
    assert jwk == {"kty": "OKP", "crv": "Ed25519",
                   "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
                   "kid": "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"}  # fmt: skip


def signed_record() -> tuple[dict[str, object], list[dict[str, str]]]:
    key = SigningKey.generate()
    record = {"game": "tictactoe", "n": 3, "moves": ["a1", "b2", "c3"], "state": {"winner": 1}}
    return key.signed(record, RECORD), KeyRing(key).jwks()["keys"]


def test_a_signed_record_verifies_with_the_published_key() -> None:
    record, keys = signed_record()
    assert verify(record, keys) == (keys[0]["kid"], "record")
    assert record["signature"]["alg"] == "Ed25519"  # type: ignore[index]
    raw = base64.urlsafe_b64decode(record["signature"]["value"] + "==")  # type: ignore[index]
    assert len(raw) == 64


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda r: {**r, "moves": ["a1", "b2", "c2"]}, "was changed"),
        (lambda r: {**r, "state": {"winner": 2}}, "was changed"),
        (lambda r: {**r, "extra": 1}, "was changed"),
        (lambda r: {k: v for k, v in r.items() if k != "signature"}, "no signature"),
        (lambda r: {**r, "signature": {**r["signature"], "kid": "other"}}, "no published key"),
        (lambda r: {**r, "signature": {**r["signature"], "alg": "EdDSA"}}, "algorithm"),
        (lambda r: {**r, "signature": {**r["signature"], "value": "AAAA"}}, "right length"),
    ],
)
def test_a_changed_record_or_signature_does_not_verify(change, why: str) -> None:  # type: ignore[no-untyped-def]
    record, keys = signed_record()
    with pytest.raises(NotVerified, match=why):
        verify(change(record), keys)


def test_another_key_does_not_verify() -> None:
    record, _ = signed_record()
    stranger = KeyRing(SigningKey.generate()).jwks()["keys"]
    lying = [{**stranger[0], "kid": record["signature"]["kid"]}]  # type: ignore[index]
    with pytest.raises(NotVerified, match="was changed"):
        verify(record, lying)


def test_the_signature_signs_what_it_says_the_document_is() -> None:
    """The signed bytes, computed here from the documented rule rather than by the signer: the
    canonical JSON of the whole document whose ``signature`` holds every member but ``value``
    — ``alg``, ``kid`` and ``typ`` among them."""
    record, keys = signed_record()
    signature = record["signature"]
    assert isinstance(signature, dict)
    assert (signature["alg"], signature["kid"], signature["typ"]) == (
        "Ed25519", keys[0]["kid"], "record",
    )  # fmt: skip
    header = {name: part for name, part in signature.items() if name != "value"}
    signed_bytes = canonical_json({**record, "signature": header})
    public = base64.urlsafe_b64decode(keys[0]["x"] + "=")
    raw = base64.urlsafe_b64decode(signature["value"] + "==")
    Ed25519PublicKey.from_public_bytes(public).verify(raw, signed_bytes)  # raises if not


def test_a_record_never_verifies_as_an_audit_answer_nor_an_answer_as_a_record() -> None:
    key = SigningKey.generate()
    keys = KeyRing(key).jwks()["keys"]
    document = {"game": "tictactoe", "n": 3, "moves": ["a1"], "state": {}, "chain": "00"}
    record, answer = key.signed(document, RECORD), key.signed(document, AUDIT)
    assert verify(record, keys, RECORD).typ == "record"
    assert verify(answer, keys, AUDIT).typ == "audit"
    with pytest.raises(NotVerified, match="is a game record, not an audit answer"):
        verify(record, keys, AUDIT)
    with pytest.raises(NotVerified, match="is an audit answer, not a game record"):
        verify(answer, keys, RECORD)
    # Saying another typ than was signed is a change: the typ is signed with the document.
    relabelled = {**answer, "signature": {**answer["signature"], "typ": "record"}}
    with pytest.raises(NotVerified, match="was changed"):
        verify(relabelled, keys)
    # Nor can anything else be added to the signature without changing what it signs.
    padded = {**record, "signature": {**record["signature"], "note": "mine"}}
    with pytest.raises(NotVerified, match="was changed"):
        verify(padded, keys)


@pytest.mark.parametrize(
    ("typ", "why"),
    [
        (None, "does not say what the document is"),
        ("receipt", "typ 'receipt' is not 'record' or 'audit' or 'tournament'"),
        ("Record", "is not 'record' or 'audit' or 'tournament'"),
        (["record"], "is not 'record' or 'audit' or 'tournament'"),
        ({"record": 1}, "is not 'record' or 'audit' or 'tournament'"),
        (1, "is not 'record' or 'audit' or 'tournament'"),
    ],
)
def test_a_signature_that_does_not_say_a_known_typ_does_not_verify(typ: object, why: str) -> None:
    record, keys = signed_record()
    signature = {k: v for k, v in record["signature"].items() if k != "typ"}  # type: ignore[attr-defined]
    said = {**record, "signature": signature if typ is None else {**signature, "typ": typ}}
    with pytest.raises(NotVerified, match=re.escape(why)):
        verify(said, keys)


def test_a_signature_over_the_document_without_its_typ_does_not_verify() -> None:
    """What the service signed before signatures said what they sign (the document without
    its ``signature``): nothing says whether it is a record or an audit answer, so it is not
    taken as either."""
    private = Ed25519PrivateKey.generate()
    key = SigningKey(private)
    document = {"verdict": "finished", "moves": [], "chain": "00"}
    value = private.sign(canonical_json(document))
    written = base64.urlsafe_b64encode(value).decode()
    old = {**document, "signature": {"alg": "Ed25519", "kid": key.kid, "value": written}}
    with pytest.raises(NotVerified, match="does not say what the document is"):
        verify(old, KeyRing(key).jwks()["keys"])


@pytest.mark.parametrize(
    "text",
    [
        b'{"a": 1, "a": 1}',
        b'{"a": 1, "a": 2}',
        b'{"a": 1, "\\u0061": 2}',  # the same name, escaped
        b'{"x": [{"b": {"c": 1, "c": 1}}]}',  # anywhere in it
        b'{"signature": {"kid": "k", "kid": "k"}}',
        '{"é": 1, "\\u00e9": 1}'.encode(),
    ],
)
def test_a_document_that_names_a_member_twice_is_not_read(text: bytes) -> None:
    with pytest.raises(DuplicateMember, match="twice in one object"):
        read_json(text)


@pytest.mark.parametrize(
    "text",
    [
        b'{"a": NaN}',
        b'{"a": Infinity}',
        b'{"a": -Infinity}',
        b"\xef\xbb\xbf{}",
        '{"a": "é"}'.encode("latin-1"),
        '{"a": 1}'.encode("utf-16"),
        b"[" * 100_000,
        b'{"a": 1} {"b": 2}',
        b"",
    ],
)
def test_what_is_not_json_is_not_read(text: bytes) -> None:
    with pytest.raises(ValueError) as raised:  # noqa: PT011 (each text's own reason)
        read_json(text)
    assert not isinstance(raised.value, DuplicateMember)


def test_json_is_read_as_it_is_written() -> None:
    read = read_json(b'{"a": [1, {"b": null}], "c": "\\u00e9"}')
    assert read == {"a": [1, {"b": None}], "c": "é"}


def pem(key: object, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(
        key.private_bytes(  # type: ignore[attr-defined]
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return path


def test_the_key_file_setting_is_the_published_key(tmp_path: Path) -> None:
    current = Ed25519PrivateKey.generate()
    old = Ed25519PrivateKey.generate()
    old_public = tmp_path / "old.pub.pem"
    old_public.write_bytes(
        old.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    settings = Settings(
        signing_key_file=pem(current, tmp_path, "key.pem"), signing_previous_key_files=[old_public]
    )
    with TestClient(create_app(settings)) as client:
        answer = client.get("/v1/keys")
    assert answer.status_code == 200
    assert answer.headers["cache-control"].startswith("public")
    assert answer.json()["keys"] == [jwk_of(current.public_key()), jwk_of(old.public_key())]
    # What a process with that file signs verifies against what any process with it publishes.
    signed = load_private_key(tmp_path / "key.pem").signed({"a": 1}, AUDIT)
    assert verify(signed, answer.json()["keys"]).kid == jwk_of(current.public_key())["kid"]


def test_without_a_key_file_the_key_is_ephemeral_and_the_log_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_app(Settings())
    with caplog.at_level(logging.INFO, logger="app"), TestClient(app) as client:
        kid = client.get("/v1/keys").json()["keys"][0]["kid"]
    assert any("ephemeral" in r.getMessage() and kid in r.getMessage() for r in caplog.records)
    caplog.clear()
    with (
        caplog.at_level(logging.WARNING, logger="app"),
        TestClient(create_app(Settings(workers=2))) as other,
    ):
        assert other.get("/v1/keys").json()["keys"][0]["kid"] != kid  # made at each start
    # Where other processes may sign for the same games, a warning.
    assert any("ephemeral" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (None, "cannot be read"),
        (b"not a key", "not an unencrypted PEM private key"),
        (b"\x00" * 70_000, "larger than 64 KiB"),
        ("rsa", "not an Ed25519 key"),
    ],
)
def test_a_key_file_that_cannot_sign_is_refused_at_start(
    tmp_path: Path, content: bytes | str | None, why: str
) -> None:
    path = tmp_path / "key.pem"
    if content == "rsa":
        pem(generate_private_key(65537, 2048), tmp_path, "key.pem")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(KeyFileError, match=why):
        load_private_key(path)
    with pytest.raises(ValidationError, match=why):
        Settings(signing_key_file=path)


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@given(PLAIN)
def test_the_fast_writer_writes_what_the_general_one_does(value: object) -> None:
    from app.records.canonical import _write

    try:
        general = "".join(_write(value)).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: neither writes it
        with pytest.raises(UnicodeEncodeError):
            canonical_json(value)
        return
    assert canonical_json(value) == general


@given(st.dictionaries(st.text(max_size=6), PLAIN, max_size=5), st.data())
def test_an_object_with_members_written_already_is_written_as_the_whole(
    members: dict[str, object], data: st.DataObject
) -> None:
    try:
        whole = canonical_json(members)
    except UnicodeEncodeError:  # a lone surrogate: written by neither
        return
    given_written = data.draw(st.sets(st.sampled_from(sorted(members)))) if members else set()
    written = {}
    for name in given_written:
        value = members[name]
        written[name] = (
            canonical_array(canonical_json(item) for item in value)
            if isinstance(value, list)
            else canonical_json(value)
        )
    assert canonical_object(members, written) == whole


def test_a_chain_made_a_move_at_a_time_is_the_chain_and_gives_each_moves_canonical_json() -> None:
    params = {"game": "tictactoe", "n": 3, "k": 3}
    moves = [{"seq": i, "row": i // 3, "col": i % 3, "player": 1 + i % 2} for i in range(1, 6)]
    chained = Chain(params)
    written = [chained.add(move) for move in moves]
    assert chained.hex() == chain(params, moves)
    assert written == [canonical_json(move) for move in moves]


def test_a_signature_of_members_written_already_verifies_as_one_of_the_whole() -> None:
    key = SigningKey.from_seed(bytes(range(32)))
    moves = [{"seq": 1, "square": "é5"}, {"seq": 2, "square": "d6", "passed": False}]
    document = {"game": "reversi", "moves": moves, "chain": "00"}
    written = {"moves": canonical_array(canonical_json(move) for move in moves)}
    for typ in (AUDIT, RECORD):
        signed = key.signed(document, typ, written)
        assert signed == key.signed(document, typ)  # Ed25519 is deterministic: the same bytes
        assert verify(signed, [key.jwk], typ) == (key.kid, typ)
