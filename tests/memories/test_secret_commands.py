"""Passwords given to a command by its flag (blind set 13, issue 13 line 2): pure, no
database. Every password here is made up."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact
from memories.logic.secret_commands import command_password_spans


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ("mysqldump -uadmin -pT0mato#77 shop > shop.sql", "T0mato#77"),
        ("mariadb -u root -p'green tea 5' -e 'show databases'", "green tea 5"),
        ("서버에서 mysql -h 10.1.2.3 -u app -pKkoma!204 치면 돼", "Kkoma!204"),
        ("mysql -pW1ndy로 접속했는데 권한 오류 나", "W1ndy"),
        ("sshpass -p 'Fr0st&bite' ssh deploy@build.local", "Fr0st&bite"),
        ("sshpass -pLemon_88 scp notes.txt me@nas:/backup", "Lemon_88"),
        ("curl -u ops:Marble#42 https://status.example.org/api", "Marble#42"),
        ("curl --user=ops:Marble#42 https://status.example.org/api", "Marble#42"),
        ("redis-cli -h cache.local -a 'Qz!81kk' ping 하면 PONG 나옴", "Qz!81kk"),
        ("mongosh -u admin -p Pl4net-9 --authenticationDatabase admin", "Pl4net-9"),
        ("docker login -u jun -p Ocean7wave registry.example.com", "Ocean7wave"),
        ("압축은 zip -P berry2025 -r out.zip docs 로 했어", "berry2025"),
        ("7z a -pCast!e9 photos.7z ./photos", "Cast!e9"),
        ("sqlcmd -S db01 -U sa -P Str0ng!Pass -Q 'select 1'", "Str0ng!Pass"),
        ("keytool -list -keystore app.jks -storepass Tr33top!", "Tr33top!"),
        ("sqlplus scott/Tig3r!@orcl 로 접속", "Tig3r!"),
        ("lftp -u deploy,Sh1p!t sftp://files.example.com", "Sh1p!t"),
        ("원격은 xfreerdp /u:admin /p:Desk!top9 /v:10.0.0.9 로 붙음", "Desk!top9"),
    ],
)
def test_a_password_given_to_a_command_by_its_flag_is_redacted(text: str, password: str) -> None:
    result = redact(text)

    assert password not in result.text, result.text
    assert result.kinds == ["password"]


@pytest.mark.parametrize(
    "text",
    [
        "ssh -p 2222 deploy@build.local 로 접속",
        "docker run -d -p 8080:80 -p 5432:5432 nginx",
        "mkdir -p ~/work/notes && cd ~/work/notes",
        "psql -h localhost -p 5433 -U app",
        "mysql -u root -p 치면 비번 물어봄",
        "mysql -u root -p inventory < schema.sql",
        "curl -u ops https://status.example.org/api asks for the password",
        "scp -P 2200 notes.txt me@nas:/backup",
        "tar -cpzf home.tgz /home/jun",
        "mongosh --port 27017 -u admin -p $MONGO_PASSWORD",
        "grep -p foo notes.txt | sort -u",
        "sqlplus /nolog 로 먼저 들어가",
        "sqlplus / as sysdba",
    ],
)
def test_a_flag_that_is_a_port_a_path_or_a_prompt_stays(text: str) -> None:
    assert redact(text).text == text


def test_a_flag_of_another_command_on_the_same_line_is_not_read_as_the_first_commands() -> None:
    text = "mysql -u root -p && ssh -p 2222 jun@nas"

    assert list(command_password_spans(text)) == []


def test_a_program_named_again_and_again_on_a_long_line_still_gives_its_password() -> None:
    text = "curl " * 300 + "-u ops:Marble#42 https://status.example.org"

    spans = list(command_password_spans(text))

    assert [text[s:e] for s, e, _ in spans] == ["Marble#42"]
