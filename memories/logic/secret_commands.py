"""Passwords given to a command on its command line: pure functions, no Django.

People paste the command they ran: `mysql -u root -pS3cret`, `sshpass -p 'pw' ssh ...`,
`curl -u admin:pw ...`, `redis-cli -a pw`, `zip -P pw ...`. The flag that takes a password
differs by program, and the same letter means something else elsewhere (`ssh -p 2222` is a
port, `mkdir -p` makes parents, `docker run -p 8080:80` publishes a port, a bare `mysql -p`
asks for the password and `mysql -p mydb` names a database). So a flag counts only after the
program it belongs to, on the same command (no `|`, `;`, `&&` or line break between), with
the value glued to it where the program reads it glued. `--password=...` and
`PGPASSWORD=...` are assignments (`secret_rules`). Detectors take the folded text
(`redaction._fold`) and return `(start, end, kind)` spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice
from typing import NamedTuple

from memories.logic.secret_rules import PASSWORD, REFERENCE, Span, mentions


class _Flag(NamedTuple):
    flag: str  # as typed, case-sensitive: "-p", "-P", "--pass"
    glued: bool  # the value is glued to the flag ("-pS3cret"); else it is the next word
    after_colon: bool = False  # the value is "user:password" (curl -u): only the password


_MYSQL = (_Flag("-p", glued=True),)
_MONGO = (_Flag("-p", glued=False), _Flag("--password", glued=False))
# program -> the flags that take its password. A program is matched by its name as a word
# (a path before it is fine: /usr/bin/mysql).
_PROGRAMS: dict[str, tuple[_Flag, ...]] = {
    **dict.fromkeys(
        (
            "mysql",
            "mysqldump",
            "mysqladmin",
            "mysqlimport",
            "mysqlcheck",
            "mysqlpump",
            "mysqlshow",
            "mariadb",
            "mariadb-dump",
            "mariadb-admin",
        ),
        _MYSQL,
    ),
    **dict.fromkeys(
        ("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"), _MONGO
    ),
    "sshpass": (_Flag("-p", glued=False), _Flag("-p", glued=True)),
    "redis-cli": (_Flag("-a", glued=False), _Flag("--pass", glued=False)),
    "curl": (
        _Flag("-u", glued=False, after_colon=True),
        _Flag("--user", glued=False, after_colon=True),
    ),
    # "-p" is a published port for `docker run`: only a login takes a password
    **dict.fromkeys(
        ("docker login", "podman login", "az login"),
        (_Flag("-p", glued=False), _Flag("--password", glued=False)),
    ),
    "sqlcmd": (_Flag("-P", glued=False),),
    "bcp": (_Flag("-P", glued=False),),
    "zip": (_Flag("-P", glued=False), _Flag("--password", glued=False)),
    "unzip": (_Flag("-P", glued=False),),
    "7z": (_Flag("-p", glued=True),),
    "7za": (_Flag("-p", glued=True),),
    "rar": (_Flag("-p", glued=True),),
    "unrar": (_Flag("-p", glued=True),),
    "ldapsearch": (_Flag("-w", glued=False),),
    "ldapadd": (_Flag("-w", glued=False),),
    "ldapmodify": (_Flag("-w", glued=False),),
    "ipmitool": (_Flag("-P", glued=False),),
    "wget": (_Flag("--password", glued=False), _Flag("--http-password", glued=False)),
    "smbclient": (_Flag("-U", glued=False, after_colon=True),),
    "keytool": (
        _Flag("-storepass", glued=False),
        _Flag("-keypass", glued=False),
        _Flag("-srcstorepass", glued=False),
        _Flag("-deststorepass", glued=False),
    ),
    "xfreerdp": (_Flag("/p:", glued=True),),
    "rdesktop": (_Flag("-p", glued=False),),
    "svn": (_Flag("--password", glued=False),),
    "lftp": (_Flag("-u", glued=False, after_colon=True),),
    # Oracle's tools take "user/password@database" as their first word
    **dict.fromkeys(
        ("sqlplus", "sqlldr", "expdp", "impdp"), (_Flag("", glued=True, after_colon=True),)
    ),
}
_PROGRAM = re.compile(
    r"(?<![A-Za-z0-9_\-.])(?:[\w.~\-]*/)?(?P<name>"
    + "|".join(re.escape(p) for p in sorted(_PROGRAMS, key=len, reverse=True))
    + r")(?![A-Za-z0-9_\-])"
)
_MAX_WORDS = 40
_MAX_CHARS = 600
# Where one command ends: a pipe, a list operator, a line break.
_COMMAND_END = re.compile(r"\||;|&&|\n")
# a shell word: quoted parts and bare characters run together ("-p'tree house 9'")
_WORD = re.compile(r"(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'])+")
_PLACEHOLDER = re.compile(r"(?i)^(?:\$\(.*|`.*|password|passwd|pass|pw|pwd|secret|xxx+|\.\.\.)$")
_HANGUL = re.compile(r"[가-힣]")
# smbclient writes user%password
_USER_SEPARATORS = {
    "curl": ":",
    "smbclient": "%",
    "lftp": ",",
    **dict.fromkeys(("sqlplus", "sqlldr", "expdp", "impdp"), "/"),
}


def command_password_spans(text: str) -> Iterator[Span]:
    """Passwords given to a command by a flag of that command."""
    if not mentions(text, tuple(_PROGRAMS)):
        return
    scanned_to, scanned_name = -1, ""
    for program in _PROGRAM.finditer(text):
        name = program.group("name")
        if program.start() < scanned_to and name == scanned_name:
            continue  # a word of the same command, already read ("curl ... curl")
        window = min(len(text), program.end() + _MAX_CHARS)
        end = _COMMAND_END.search(text, program.end(), window)
        command_end = end.start() if end else window
        scanned_name = name
        # a command's flags come within its first words (and a long line stays linear)
        words = list(islice(_WORD.finditer(text, program.end(), command_end), _MAX_WORDS))
        scanned_to = words[-1].end() if len(words) == _MAX_WORDS else command_end
        first_positional = next(
            (i for i, w in enumerate(words) if not w.group(0).startswith("-")), None
        )
        for index, word in enumerate(words):
            for flag in _PROGRAMS[name]:
                if not flag.flag and index != first_positional:
                    continue  # a positional "user/password@db" is the first word, not a flag
                value = _flag_value(word, words[index + 1 : index + 2], flag)
                if value is None:
                    continue
                span = _password_in(text, value, flag, _USER_SEPARATORS.get(name, ":"))
                if span is not None:
                    yield span


def _flag_value(
    word: re.Match[str], following: list[re.Match[str]], flag: _Flag
) -> tuple[int, int] | None:
    """Where the flag's value is, when `word` is the flag (with its value glued on)."""
    raw = word.group(0)
    if flag.glued:
        if raw.startswith(flag.flag) and len(raw) > len(flag.flag):
            return word.start() + len(flag.flag), word.end()
        return None
    if raw == flag.flag and following:
        return following[0].start(), following[0].end()
    if raw.startswith(flag.flag + "=") and flag.flag.startswith("--"):
        return word.start() + len(flag.flag) + 1, word.end()
    return None


def _password_in(text: str, value: tuple[int, int], flag: _Flag, separator: str) -> Span | None:
    start, end = value
    while end > start and text[end - 1] in "\"'":
        end -= 1
    while start < end and text[start] in "\"'":
        start += 1
    if flag.after_colon:
        cut = text.find(separator, start, end)
        if cut <= start:
            return None  # "curl -u admin": the password is asked for; "sqlplus /nolog"
        start = cut + 1
        if not flag.flag and (at := text.rfind("@", start, end)) != -1:
            end = at  # "scott/tiger@orcl": the database after the password stays
    hangul = _HANGUL.search(text, start, end)
    if hangul and hangul.start() > start:
        end = hangul.start()  # "-pS3cret로 접속": a Korean particle glued after the value
    while end > start and text[end - 1] in ",.;)":
        end -= 1
    core = text[start:end]
    if not core or core.startswith("-") or REFERENCE.match(core) or _PLACEHOLDER.match(core):
        return None
    return start, end, PASSWORD
