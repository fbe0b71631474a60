"""A hostile corpus, written at test time (the repository holds no binary junk).

Abstracts, titles, authors and links that try to drive the terminal (ESC/CSI/OSC sequences,
C0 and C1 controls, bidi overrides) or to be read as Rich/Textual markup, next to files that
are malformed in every way a folder of downloads can be: binary, undecodable, NUL bytes, BOM
and CRLF, empty, header only, a 2 MB paragraph, a 20,000-character word, broken JSON and
BibTeX. Every paper starts its abstract with `Specimen <marker>` so a test can find it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

#: What the attacks try to put in the window title and (base64 of "PWNED") the clipboard.
TITLE_PAYLOAD = "PWNED"
CLIPBOARD_PAYLOAD = "UFdORUQ="
OSC_TITLE = f"\x1b]2;{TITLE_PAYLOAD}\x07"
OSC_ICON_TITLE = f"\x1b]0;{TITLE_PAYLOAD}\x1b\\"
OSC_CLIPBOARD = f"\x1b]52;c;{CLIPBOARD_PAYLOAD}\x07"

#: Markup that must reach the screen as the characters it is made of.
MARKUP = ("[bold]x[/bold]", "[link=https://evil]click[/link]", "[@click=app.quit]q[/]")

_FILLER = (
    "The rest of this abstract is ordinary prose about sequence models, attention, training "
    "data and evaluation, so that the paper reads like any other one in the list."
)


@dataclass(frozen=True, slots=True)
class Specimen:
    """A paper whose abstract starts with `Specimen {marker}`; `shown` is text of it that
    the reader must show exactly as written (markup), when it has some."""

    marker: str
    attack: str
    abstract: str
    shown: str = ""


def _specimen(marker: str, attack: str, payload: str, shown: str = "") -> Specimen:
    return Specimen(marker, attack, f"Specimen {marker} {payload} {_FILLER}", shown)


#: The attacks of the plain-text list, one abstract each.
SPECIMENS: tuple[Specimen, ...] = (
    _specimen(
        "oscretitle",
        "OSC 0 and OSC 2 window title changes",
        f"sets the title {OSC_TITLE} and the icon title {OSC_ICON_TITLE} of the window.",
    ),
    _specimen(
        "oscclipboard",
        "OSC 52 clipboard write",
        f"writes the clipboard {OSC_CLIPBOARD} without asking.",
    ),
    _specimen(
        "screenclear",
        "screen clear, full reset, leaving the alternate screen",
        "clears the screen \x1b[2J\x1b[H, resets the terminal \x1bc and leaves the "
        "alternate screen \x1b[?1049l with the cursor hidden \x1b[?25l.",
    ),
    _specimen(
        "cursormoves",
        "cursor moves and saved positions",
        "moves the cursor \x1b[10;10H up \x1b[5A and back \x1b7\x1b[1;1Hover\x1b8 to overwrite "
        "other lines \x1b[2K.",
    ),
    _specimen(
        "controlbytes",
        "C0 controls: bell, backspace, carriage return, tab, vertical tab, form feed, DEL",
        "rings \x07 the bell, backspaces\x08\x08 over text, returns\r to the line start, "
        "tabs\tover, feeds \x0b\x0c and deletes\x7f.",
    ),
    _specimen(
        "eightbit",
        "C1 controls: 8-bit CSI, OSC, NEL, ST",
        f"colours \x9b31m red\x9b0m, retitles \x9d2;{TITLE_PAYLOAD}\x9c and adds a next line "
        "\x85 in 8 bits.",
    ),
    _specimen(
        "bidiflip",
        "bidi overrides and isolates",
        "reverses \u202eevil text\u202c, isolates \u2066this\u2069, marks \u200fright to left "
        "and hides\u200b zero-width spaces.",
    ),
    _specimen(
        "devicequery",
        "DCS, APC and a device status request whose answer would be typed as input",
        "asks for a capability \x1bP+q544e\x1b\\, sends \x1b_an APC\x1b\\ and a status "
        "report \x1b[6n.",
    ),
    _specimen("markupbold", "Rich markup", f"{MARKUP[0]} must be shown as typed.", MARKUP[0]),
    _specimen("markuplink", "Rich link markup", f"{MARKUP[1]} must be shown as typed.", MARKUP[1]),
    _specimen(
        "markupclick", "Textual action markup", f"{MARKUP[2]} must be shown as typed.", MARKUP[2]
    ),
    _specimen(
        "markupbroken",
        "unbalanced markup that a markup parser rejects",
        "closes [/] what never opened and opens [red unclosed [ brackets.",
        "closes [/] what never opened",
    ),
)

#: The markers of every paper the folder yields (attacks, JSON, BibTeX and odd files).
MARKERS = (
    *(specimen.marker for specimen in SPECIMENS),
    "jsonrecord",
    "jsonnul",
    "bibentry",
    "latinone",
    "bomcrlfone",
    "bomcrlftwo",
    "hugeparagraph",
    "longword",
)


#: The files with something wrong that a warning must name (the others are fine, or their
#: trouble, like a BOM, is handled without a word).
REPORTED = (
    "attacks.bib",
    "attacks.jsonl",
    "binary.txt",
    "broken.json",
    "empty.txt",
    "header-only.txt",
    "huge-paragraph.txt",  # its 2 MB abstract is cut at the records' bound (1 MB)
    "latin1.txt",
    "nul-bytes.txt",
)


def write_hostile_corpus(folder: Path) -> None:
    """Write the hostile corpus into `folder` (created if needed)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "attacks.txt": _text_list("Hostile list", [s.abstract for s in SPECIMENS]),
        "attacks.jsonl": _json_lines(),
        "attacks.bib": _bibtex(),
        "binary.txt": bytes(range(256)) * 64,
        "latin1.txt": (
            b"Latin-1 list\n\nSpecimen latinone caf\xe9 na\xefve \x9b31m red\x9b0m and "
            + _FILLER.encode()
            + b"\n"
        ),
        "nul-bytes.txt": b"NUL list\n\nSpecimen nulbyte has a NUL \x00 byte. " + _FILLER.encode(),
        "bom-crlf.txt": "\ufeffBOM and CRLF list\r\n\r\n".encode()
        + f"Specimen bomcrlfone first paragraph. {_FILLER}\r\n\r\n".encode()
        + f"Specimen bomcrlftwo second paragraph.\r\n{_FILLER}\r\n".encode(),
        "empty.txt": b"",
        "header-only.txt": b"Only a header line\n",
        "huge-paragraph.txt": _text_list("Huge list", [_huge_paragraph(2_000_000)]),
        "long-word.txt": _text_list(
            "Long word list", [f"Specimen longword {'w' * 20_000} ends here. {_FILLER}"]
        ),
        "broken.json": b'[{"title": "Specimen brokenjson", "abstract": ',
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)


def _text_list(header: str, abstracts: list[str]) -> bytes:
    return ("\n\n".join([header, *abstracts]) + "\n").encode("utf-8")


def _huge_paragraph(size: int) -> str:
    words = "Specimen hugeparagraph is one paragraph of two megabytes. "
    sentence = "Every line of it goes on and on about models, data and their evaluation. "
    return (words + sentence * (size // len(sentence)))[:size].rstrip() + "."


def _json_lines() -> bytes:
    records = [
        {
            "title": f"Specimen jsonrecord title {OSC_TITLE}{MARKUP[0]} \x1b[2J\u202eflipped",
            "abstract": f"Specimen jsonrecord {OSC_CLIPBOARD} {MARKUP[1]} {_FILLER}",
            "authors": [f"Mallory {MARKUP[2]}", f"Eve \x1b]2;{TITLE_PAYLOAD}\x07 Doe"],
            "url": f"https://example.org/paper{OSC_CLIPBOARD}",
            "year": 2024,
        },
        {
            "title": "Specimen jsonnul title with a NUL \x00 inside",
            "abstract": f"Specimen jsonnul carries \x00 NUL characters \x00 inside. {_FILLER}",
        },
    ]
    lines = [json.dumps(record) for record in records]
    lines += ["{not json at all", '"a string, not an object"', "[1, 2, 3]"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _bibtex() -> bytes:
    return (
        "@article{bibentry,\n"
        f"  title = {{Specimen bibentry {OSC_TITLE} {MARKUP[0]}}},\n"
        f"  author = {{Mallory, \x1b[2J and Eve {OSC_CLIPBOARD}}},\n"
        f"  abstract = {{Specimen bibentry {MARKUP[2]} {OSC_TITLE} {_FILLER}}},\n"
        "  year = {2024}\n"
        "}\n\n"
        "@article{broken, title = {Specimen brokenbib, abstract = {never closed\n"
    ).encode()
