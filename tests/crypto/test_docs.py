"""What docs/crypto.md claims about the code, checked against the code: the hash domains and
fixed tags it lists are exactly those used in ``crypto/`` and ``protocol/``, and the
multiplication counts it gives for the proofs are those the code performs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import crypto._group as group
from crypto import CardSet, DecryptionShare, KeyShare, ShareBatch, shuffle, verify_shuffle

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "crypto.md").read_text()
HASHES = {"hash_bytes", "hash_to_scalar", "hash_to_point"}


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    out.add(id(stmt.value))
    return out


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _tags_in_code() -> set[str]:
    """Every domain given to the framed hashes (``KeyShare.derive`` adds ``key-derived/``),
    every BLAKE2b personalisation, and every ``lanparty/…`` constant, in crypto/ and
    protocol/ (docstrings aside). A domain that is not a constant fails the test, so a new
    one cannot hide."""
    found: set[str] = set()
    for path in sorted([*(ROOT / "crypto").glob("*.py"), *(ROOT / "protocol").glob("*.py")]):
        tree = ast.parse(path.read_text(), str(path))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                first, name = node.args[0], _name(node.func)
                derive = name == "derive" and len(node.args) >= 2  # (HKDF's takes one)
                if name in HASHES or derive:
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.add(("key-derived/" if derive else "") + first.value)
                    elif isinstance(first, ast.BinOp):  # KeyShare.derive: "key-derived/" + …
                        assert ast.literal_eval(first.left) == "key-derived/", path.name
                    else:  # a hash function handing its own ``domain`` on
                        assert isinstance(first, ast.Name) and first.id == "domain", (
                            f"{path.name}:{node.lineno}: a domain that is not a constant"
                        )
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "person" and isinstance(kw.value, ast.Constant):
                        found.add(kw.value.value.decode())
            if isinstance(node, ast.Constant) and id(node) not in docs:
                value = node.value
                if isinstance(value, bytes):
                    value = value.decode("latin-1")
                if isinstance(value, str) and value.startswith("lanparty/"):
                    found.add(value.rstrip("\x00"))  # a tag's closing NULs: "\0" in the docs
    return found


def _tags_in_doc() -> set[str]:
    """The first cell of every row of the tables of §2."""
    section = DOC[DOC.index("## 2. ") : DOC.index("## 3. ")]
    cells = re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)
    return {cell.removesuffix("\\0") for cell in cells}


def test_the_domain_tables_list_every_tag_the_code_uses_and_no_other() -> None:
    code, doc = _tags_in_code(), _tags_in_doc()
    assert {"dleq-batch", "dleq-batch/weight", "key-derived/coin", "key-derived/coin-salt"} <= code
    assert code - doc == set(), "used in the code, missing from docs/crypto.md §2"
    assert doc - code == set(), "listed in docs/crypto.md §2, used nowhere"


# --------------------------------------------------------------------------- costs


@pytest.fixture
def count(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of variable-base (``var``) and fixed-base (``fixed``) multiplications."""
    counts = {"var": 0, "fixed": 0}
    mul, mul_base = group._mul, group._mul_base

    def var(s: bytes, p: bytes) -> bytes:
        counts["var"] += 1
        return mul(s, p)

    def fixed(s: bytes) -> bytes:
        counts["fixed"] += 1
        return mul_base(s)

    monkeypatch.setattr(group, "_mul", var)
    monkeypatch.setattr(group, "_mul_base", fixed)
    return counts


def _costs(counts: dict[str, int], fn: object) -> tuple[int, int]:
    counts.update(var=0, fixed=0)
    assert callable(fn)
    fn()
    return counts["var"], counts["fixed"]


@pytest.mark.parametrize("n", [3, 8])
def test_the_costs_docs_give_are_what_the_code_does(count: dict[str, int], n: int) -> None:
    key, other = KeyShare(), KeyShare()
    table_key = key.public + other.public
    first = CardSet("cost", n).open_mask(table_key)  # every a_j = G
    deck, _ = shuffle(first, table_key, b"c")
    ct = deck[0]
    # §4: one share with its DLEQ proof, prove 2 + 2 fixed, verify 3 + 1 fixed.
    share = DecryptionShare.create(key, ct, b"c")
    assert _costs(count, lambda: DecryptionShare.create(key, ct, b"c")) == (2, 2)
    assert _costs(count, lambda: share.verify(key.public, ct, b"c")) == (3, 1)
    # §4: a batch of n shares, prove 2n + 2 and 3 fixed, verify 2n + 3 and 1 fixed.
    batch = ShareBatch.create(key, deck, b"c")
    assert _costs(count, lambda: ShareBatch.create(key, deck, b"c")) == (2 * n + 2, 3)
    assert _costs(count, lambda: batch.verify(key.public, deck, b"c")) == (2 * n + 3, 1)
    # §5: a shuffle, prove 6n + 1 and 4n + 4 fixed, verify 8n + 4 and n + 4 fixed; the first
    # shuffle after open masking verifies n of those with the fixed-base routine.
    out, proof = shuffle(deck, table_key, b"c")
    assert _costs(count, lambda: shuffle(deck, table_key, b"c")) == (6 * n + 1, 4 * n + 4)
    assert _costs(count, lambda: verify_shuffle(deck, out, table_key, proof, b"c")) == (
        8 * n + 4, n + 4,
    )  # fmt: skip
    out, proof = shuffle(first, table_key, b"c")
    assert _costs(count, lambda: verify_shuffle(first, out, table_key, proof, b"c")) == (
        7 * n + 4, 2 * n + 4,
    )  # fmt: skip


def test_the_docs_state_these_costs() -> None:
    flat = " ".join(DOC.split())
    for claim in (
        "prove 2 variable-base + 2 fixed-base multiplications",
        "verify 3 variable-base + 1 fixed-base",
        "prove `2n + 2` variable-base and 3 fixed-base multiplications",
        "verify `2n + 3` variable-base and 1 fixed-base",
        "`6n + 1` variable-base multiplications",
        "`4n + 4` fixed-base",
        "Verifier: `8n + 4` variable-base",
        "and `n + 4` fixed-base",
        "In the first shuffle after open masking every `a_j = G`, so those `n` terms use the "
        "fixed-base routine",
    ):
        assert claim in flat, claim
