"""The web server's access log keeps the path, never the query string (issue 13 line 8): a
search sent as `?q=...` is the user's text, and a log file outlives its deletion."""

from __future__ import annotations

import io
import logging
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from gunicorn.config import Config
from gunicorn.glogging import Logger

from memoryhub.launcher import ACCESS_LOG_FORMAT


def gunicorn_access_line(environ: dict[str, Any], log_format: str = ACCESS_LOG_FORMAT) -> str:
    """What gunicorn, started as the launcher starts it, logs for a request with `environ`."""
    config = Config()
    config.set("accesslog", "-")
    config.set("access_log_format", log_format)
    logger = Logger(config)
    out = io.StringIO()
    logger.access_log.handlers = [logging.StreamHandler(out)]
    headers = [(k[5:].replace("_", "-"), v) for k, v in environ.items() if k.startswith("HTTP_")]
    response = SimpleNamespace(status="200 OK", sent=10, headers=[], response_length=10)
    logger.access(response, SimpleNamespace(headers=headers), environ, timedelta(milliseconds=5))
    return out.getvalue()


def test_the_access_log_keeps_the_path_and_drops_the_query_string_and_the_referrer():
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/memories/",
        "QUERY_STRING": "q=zqsecretword",
        "RAW_URI": "/memories/?q=zqsecretword",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": "http://127.0.0.1:8000/memories/?q=zqsecretword",
    }

    line = gunicorn_access_line(environ)

    assert '"GET /memories/ HTTP/1.1" 200' in line
    assert "zqsecretword" not in line
    # gunicorn's default format would have logged it, twice.
    assert gunicorn_access_line(environ, Config().access_log_format).count("zqsecretword") == 2
