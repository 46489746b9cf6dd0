"""Unanimo in Polish and Spanish, in process: a scripted game told to every seat (every kind
of line: the card, hand-ins, the writing closed, an objection and its vote, each verdict,
the reading with every reason for a rejection, the card's scores, the end) with as many
lines as in English and no English left; the board, the reading, the vote and the score
sheet drawn in each language; help, prompts, command errors and the engine's refusals; and
the words matched the same way whatever language each peer reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from unanimo_rig import G, Rig

from lanparty import i18n
from lanparty.games.screens import ParseError
from lanparty.games.unanimo.fold import normalise
from lanparty.games.unanimo.narrate import UnanimoNarrator
from lanparty.games.unanimo.reading import build
from lanparty.games.unanimo.screen import UnanimoScreen
from lanparty.games.unanimo.wordeditor import WordEditor
from protocol.contract import IllegalMove

LANGS = ("pl", "es")
NAMES = ("Ann", "Bea", "Carl", "Dora")
ENGLISH = re.compile(
    r"\b(Card|card|subject|leader|hands?|handed|writing|written|wrote|closed|reading|words?|"
    r"points?|each|nobody|else|rejected|kept|objects?|votes?|Game|over|wins?|win|you|your|"
    r"and|bonus|same|root|not|the|of|is|with|Score|sheet|this|Reading|reads|"
    r"waiting|for|nothing|Subject|someone|Handed|Your|objections?|more|say|others)\b"
)
"""English words that would show a line left untranslated (the commands typed, ``object``
``done`` ``keep`` ``reject`` ``words`` ``write``, stay English on purpose and are cut out
first; so are the players' words, between quotes, and the players' names)."""
COMMANDS = re.compile(r"\b(object N|object|done|keep|reject|words|write|Esc|Tab|Enter)\b")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _bare(line: str) -> str:
    """``line`` without what is not ours to translate: quoted words, names, commands."""
    line = re.sub(r"[“„«][^”»]*[”»]", "", line)
    for name in NAMES:
        line = line.replace(name, "")
    return COMMANDS.sub("", line)


class Told(Rig):
    """A rig where every seat keeps its log (fed each input with its own views before and
    after, as a table does) and the views seen after each input."""

    def __init__(self, n: int, **options: Any) -> None:
        self.narrators = [UnanimoNarrator(s, NAMES[:n]) for s in range(n)]
        self.seen: list[list[dict[str, Any]]] = []
        super().__init__(n, **options)

    def _views(self) -> list[dict[str, Any]]:
        return [G.view(c, s) for s, c in enumerate(getattr(self, "copies", []))]

    def feed(self, result: Any) -> None:
        before = self._views()
        super().feed(result)
        self._tell(None, result, before)

    def move(self, seat: int, move: Any) -> None:
        before = self._views()
        super().move(seat, move)
        self._tell(seat, move, before)

    def _tell(self, seat: int | None, item: Any, before: list[dict[str, Any]]) -> None:
        after = self._views()
        for s, (b, a) in enumerate(zip(before, after, strict=True)):
            self.narrators[s].narrate(seat, item, b, a)
        self.seen.append(after)


def scripted(lang: str) -> Told:
    """Two cards of four players at a table writing in Polish, read in ``lang``: on the
    first, Dora is closed out, a word is rejected for its sign, one for the subject's root
    (an appeal for it is lost), one voted out after an objection; on the second everyone
    writes, an objection is voted down, an appeal reinstates a word, and Ann and Bea share
    the win."""
    i18n.set_language(lang)
    rig = Told(4, cards=2, timer=30, words="pl")
    rig.draw("Beach")
    rig.hand_in(0, "piasek", "morze", "plaże", "R2-D2", "Piasek")
    rig.hand_in(1, "piasek", "morze", "słońce")
    rig.hand_in(2, "arena", "morze", "sol")
    rig.close()
    rig.open_all()
    rig.move(0, ("object", "morze"))
    rig.move(1, ("vote", "reject"))
    rig.move(2, ("vote", "reject"))
    rig.move(2, ("appeal", "plaze"))
    rig.move(0, ("vote", "keep"))
    rig.move(1, ("vote", "reject"))
    rig.move(3, ("vote", "reject"))
    rig.all_done()
    rig.draw("Rain")
    for s, words in enumerate(
        (("parasol", "woda", "deszczowy"), ("parasol", "woda", "chmury"), ("agua", "woda"),
         ("agua", "nube"))
    ):  # fmt: skip
        rig.hand_in(s, *words)
    rig.open_all()
    rig.move(1, ("object", "agua"))
    rig.move(0, ("vote", "keep"))
    rig.move(2, ("vote", "keep"))
    rig.move(3, ("appeal", "deszczowy"))
    rig.move(1, ("vote", "keep"))
    rig.move(2, ("vote", "keep"))
    rig.all_done()
    return rig


KINDS = ("Card ", " hand in your words", " hands in", "The writing is closed", "You object to",
         " objects to", " votes reject", " votes keep", "You vote keep", " is rejected",
         " is kept", "The reading of", "points each", "nobody else wrote it",
         "rejected, voted out", "rejected, same root", "rejected, not a word",
         " appeals for", "You appeal for", "stays rejected: the appeal is lost",
         "is reinstated on appeal", "(appeal lost)", "(reinstated on appeal)",
         "(objection voted down)", "Game over")  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_of_line_is_told_in_the_language(lang: str) -> None:
    english = scripted("en")
    told = " ".join(line for seat in range(4) for line in english.narrators[seat].lines)
    assert all(kind in told for kind in KINDS), [k for k in KINDS if k not in told]
    rig = scripted(lang)
    for seat in range(4):
        lines, en_lines = rig.narrators[seat].lines, english.narrators[seat].lines
        assert len(lines) == len(en_lines)
        for line, en_line in zip(lines, en_lines, strict=True):
            assert line != en_line, line
            assert "{" not in line and "}" not in line, line
            assert ENGLISH.search(_bare(line)) is None, (lang, line)


def test_a_card_told_in_polish_and_spanish() -> None:
    pl = scripted("pl").narrators[3].lines
    assert pl[0] == "Karta 1 z 2: hasło to Plaża (prowadzi: Ann; 30 s na pisanie)"
    assert "„piasek” (Ann, Bea): po 2 punkty" in pl
    assert "„woda” (Ann, Bea, Carl): po 3 punkty" in pl
    assert "Pisanie zamknięte; bez słów przy tej karcie: ty" in pl
    assert "Czytanie karty Deszcz: 6 słów" in pl
    assert "„plaże” (Ann): odrzucone, ten sam rdzeń co hasło (odwołanie przegrane)" in pl
    assert "„deszczowy” (Ann): 0 punktów, nikt inny go nie zapisał (przywrócone po odwołaniu)" in pl
    assert pl[-1] == "Koniec gry: wygrywają Ann i Bea!"
    es = scripted("es").narrators[0].lines
    assert es[0] == "Carta 1 de 2: el tema es Plaża (Playa) (líder: tú; 30 s para escribir)"
    assert "Objetas «morze»" in es
    assert "«R2-D2» (tú): rechazada, no es una palabra" in es
    assert "Lectura de Deszcz: 6 palabras" in es
    assert "Deszcz: tú 5, Bea 5, Carl 5, Dora 2" in es
    assert "Carl apela por «plaze»" in es
    assert "«plaze» sigue rechazada: la apelación se pierde" in es
    assert es[-1] == "Fin de la partida: ¡ganáis tú y Bea!"


def test_polish_plurals_of_unanimo() -> None:
    i18n.set_language("pl")
    words = [i18n.ngettext("The reading: {n} word", "The reading: {n} words", n).format(n=n)
             for n in (1, 3, 5, 22)]  # fmt: skip
    assert words == ["Czytanie: 1 słowo", "Czytanie: 3 słowa", "Czytanie: 5 słów",
                     "Czytanie: 22 słowa"]  # fmt: skip
    each = [i18n.ngettext("{n} point each", "{n} points each", n).format(n=n) for n in (2, 5)]
    assert each == ["po 2 punkty", "po 5 punktów"]
    hands = [i18n.ngettext("{n} hand", "{n} hands", n).format(n=n) for n in (1, 4, 5)]
    assert hands == ["1 ręka", "4 ręce", "5 rąk"]


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in fragments)


def _screens(rig: Told, seat: int) -> dict[str, str]:
    """Seat ``seat``'s board at each step of the game that shows something new: writing,
    the reading shown word by word then whole, the vote, and the score sheet."""
    now = [0.0]
    screen = UnanimoScreen(clock=lambda: now[0])
    out: dict[str, str] = {}
    for views in rig.seen:
        view = views[seat]
        phase = view["phase"]
        key = f"{phase}-{view['card']}"
        if phase == "objections" and key not in out:
            out[key + "-step"] = _text(screen.table(view, NAMES, 80))
            now[0] += 100.0
        legal = G.legal_moves(rig.copies[seat], seat)
        out[key] = _text(screen.table(view, NAMES, 80) + screen.hand(view, 80, legal))
        if phase == "over":
            out["sheet"] = _text(screen.final(view, NAMES))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_the_reading_the_vote_and_the_score_sheet_in_the_language(lang: str) -> None:
    english = _screens(scripted("en"), 0) | _screens(scripted("en"), 3)
    for key in ("writing-1", "objections-1-step", "objections-1", "vote-1", "sheet"):
        assert key in english, sorted(english)
    assert "Reading 1 of 7" in english["objections-1-step"]
    assert "o/" in english["objections-1-step"]
    assert "Score sheet" in english["sheet"] and "win the game with 7 points!" in english["sheet"]
    for seat in (0, 3):
        shown = _screens(scripted(lang), seat)
        for key, text in shown.items():
            for line in text.splitlines():
                assert ENGLISH.search(_bare(line)) is None, (lang, key, line)
    sheet = _screens(scripted(lang), 0)["sheet"]
    assert "Plaża" in sheet  # the table writes in Polish
    assert ("Wygrana ex aequo: ty i Bea, po 7 punktów!" if lang == "pl"
            else "¡Victoria compartida: tú y Bea, con 7 puntos!") in sheet  # fmt: skip


def test_the_subject_is_in_the_table_s_language_and_the_reader_s_beside_it() -> None:
    """Rules, "The writing language": "every seat reads the subject in that language (and
    in its own beside it, if different)"; the top of the screen says the language."""
    view = {"subject": {"card": 0, "en": "Beach", "pl": "Plaża", "es": "Playa"}, "words": "pl"}
    screen = UnanimoScreen()
    i18n.set_language("pl")
    shown = _text(screen.table(view | {"seat": 0}, NAMES, 100))
    assert "PLAŻA" in shown and "(Plaża)" not in shown and "język pisania: polski" in shown
    assert screen.editor(view | {"seat": 0, "phase": "writing", "writing": [0]}) is not None
    i18n.set_language("es")
    shown = _text(screen.table(view | {"seat": 0}, NAMES, 100))
    assert "PLAŻA" in shown and "(Playa)" in shown and "idioma de escritura: polaco" in shown
    i18n.set_language("en")
    shown = _text(screen.table(view | {"seat": 0}, NAMES, 100))
    assert "PLAŻA" in shown and "(Beach)" in shown and "writing language: Polish" in shown
    assert UnanimoScreen(lang="en").lang == "en"


def test_help_prompts_editor_and_errors_in_the_language_and_the_commands_in_english() -> None:
    screen = UnanimoScreen()
    i18n.set_language("pl")
    assert screen.prompt({"phase": "writing"}, False) == "twoje słowa> "
    help_ = dict(screen.help())
    assert help_["words A, B, C"] == "oddaj do 8 słów w jednym wierszu (rozdzielone przecinkami)"
    assert screen.parse("words", ["a,", "b"], "words a, b", {}) == ("words", ("a", "b"))
    with pytest.raises(ParseError, match="nieznane polecenie 'taniec'"):
        screen.parse("taniec", [], "taniec", {})
    with pytest.raises(ParseError, match="najwyżej 8 słów, a nie 9"):
        screen.parse("words", [], "words " + ",".join("abcdefghi"), {})
    editor = WordEditor("Plaża", 0)
    assert editor.title == "Twoje słowa do hasła „Plaża” (do 8, jedno w wierszu):"
    said = editor.remark(["beaches"], 0)
    assert said == "„beaches” zostanie odrzucone: ma ten sam rdzeń co „Plaża”"
    said = editor.remark(["morze", "Morze"], 1)
    assert said == "„Morze” już jest na Twojej liście: liczy się raz"
    assert editor.problem(["ok", "żaba😀"]) == (
        1, "wiersz 2: słowo zawiera znak, którego ten stół nie umie porównać (U+1F600): używaj "
        "liter łacińskich (także polskich i hiszpańskich), spacji, łączników, apostrofów",
    )  # fmt: skip
    i18n.set_language("es")
    assert screen.command_for(("vote", "reject"), {}) == ("reject", "vota por rechazar la palabra")
    assert screen.command_for(("words", ()), {}) == ("words", "entrega sin ninguna palabra")
    with pytest.raises(ParseError, match="ya has entregado tus palabras para esta carta"):
        screen.parse("write", [], "write", {"phase": "writing"})


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_met_reads_in_the_language(lang: str) -> None:
    """The engine's reasons (English, the same on every peer) shown translated whole."""
    rig = Told(3)
    rig.draw("Beach")
    reasons = []
    for seat, move in ((0, ("vote", "keep")), (0, ("object", "x")), (0, ("done",)),
                       (0, ("words", ("a",) * 9)), (0, ("words", ("ok", "e\u0301\u0301"))),
                       (0, ("words", ("x" * 40,)))):  # fmt: skip
        with pytest.raises(IllegalMove) as exc:
            G.check(rig.state, seat, move)
        reasons.append(exc.value.reason)
    rig.hand_in(0, "a")
    with pytest.raises(IllegalMove) as exc:
        G.check(rig.state, 0, ("words", ("b",)))
    reasons.append(exc.value.reason)
    i18n.set_language(lang)
    screen = UnanimoScreen()
    for reason in reasons:
        said = screen.humanize(reason)
        assert said != reason and ENGLISH.search(_bare(said)) is None, (reason, said)


# --------------------------------------------------------------------------- matching


def _reading_in(langs: tuple[str, ...], fold_accents: bool, words: str) -> list[Any]:
    """Card "Beach" at a table writing in ``words``, read on one copy per seat, each built
    while its peer reads ``langs[s]``."""
    rig = Rig(4, fold_accents=fold_accents, words=words)
    rig.draw("Beach")
    written = (
        ("Żaba", "plaża", "arena", "ÓLA", "sea"),
        ("zaba", "playas", "Arena", "ola"),
        ("żaba", "beaches", "arenas", "olá"),
        ("ZABA", "morze", "Ola", "e\u0301l"),
    )
    for s, words_ in enumerate(written):
        rig.hand_in(s, *words_)
    rig.open_all()
    out = []
    for seat, lang in enumerate(langs):
        i18n.set_language(lang)
        out.append(build(rig.copies[seat]))
    return out


@pytest.mark.parametrize("words", ["en", "pl", "es"])
@pytest.mark.parametrize("fold_accents", [True, False])
def test_a_word_is_matched_the_same_way_whatever_each_peer_reads(
    fold_accents: bool, words: str
) -> None:
    """A Polish, a Spanish and an English peer at one table score the same words alike: the
    reading is a pure function of the words and the table's options; the same-root rule
    compares the subject in the table's writing language only."""
    mixed = _reading_in(("pl", "es", "en", "pl"), fold_accents, words)
    assert all(r == mixed[0] for r in mixed)
    assert _reading_in(("en",) * 4, fold_accents, words)[0] == mixed[0]
    reading = {a.key: (a.writers, a.points, a.rejected) for a in mixed[0][0]}
    if fold_accents:
        assert reading["zaba"][:2] == ((0, 1, 2, 3), 4)
        assert reading["ola"][:2] == ((0, 1, 2, 3), 4)
    else:
        assert reading["żaba"][:2] == ((0, 2), 2)
        assert reading["zaba"][:2] == ((1, 3), 2)
        assert reading["ola"][:2] == ((1, 3), 2)  # "ÓLA" and "olá" are other words
    assert reading["arena"][:2] == ((0, 1), 2)  # "arenas" is another word
    root = {"pl": "plaza" if fold_accents else "plaża", "es": "playas", "en": "beaches"}
    for lang, key in root.items():
        assert (reading[key][2] == "root") is (lang == words), key


@pytest.mark.parametrize(
    ("a", "b"),
    [("Żółw", "zolw"), ("ŻÓŁW", "żółw"), ("niño", "Nino"), ("CAFÉ", "café"), ("Łódź", "lodz"),
     ("ñandú", "nandu"), ("cafe\u0301", "café"), ("lody  włoskie", " lody włoskie "),
     ("rock’n’roll", "rock'n'roll"), ("Jean‐Luc", "jean-luc")],
)  # fmt: skip
def test_polish_and_spanish_words_that_match(a: str, b: str) -> None:
    assert normalise(a, True).key == normalise(b, True).key


@pytest.mark.parametrize(
    ("a", "b", "fold"),
    [("gazeta", "gazety", True), ("perro", "perros", True), ("łyżwy", "łyżwy figurowe", True),
     ("żaba", "zaba", False), ("año", "ano", False), ("kot", "kod", True),
     ("sól", "sol", False)],
)  # fmt: skip
def test_polish_and_spanish_words_that_do_not_match(a: str, b: str, fold: bool) -> None:
    assert normalise(a, fold).key != normalise(b, fold).key
