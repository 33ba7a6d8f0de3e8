"""Simulated people using memoryhub's pages as a browser with htmx does.

Each person signs up (the sign-up page, a session cookie), then, with a pause to think between
actions: starts a chat session and sends messages in it (Korean or English, some asking to be
remembered) the way htmx sends them, streams each reply over the server-sent events the page
opens, polls the notices of what the turn remembered as the page does until its extraction has
run, ends the session after a few turns, opens their memories and searches them.

Recorded actions (the names in the table of `bench.loadtest.run`):
    sign up, new chat, send, reply (to the whole streamed reply), reply first chunk,
    notices (one poll), remembered (the reply's end until the notices settled),
    end chat, memories, search, api search.
A failure is any status >= 400, a stream that ends without its `done` event or says the reply
could not be finished, or a transport error.

Run alone (`locust -f bench/loadtest/locustfile.py --headless -u 10 -r 2 -H
http://127.0.0.1:8000`) or
through `python -m bench.loadtest.run`, which steps the number of people and samples the server.
"""

from __future__ import annotations

import random
import re
import secrets
import time
import uuid

import requests
from locust import HttpUser, between, task
from locust.clients import LocustHttpAdapter
from urllib3.util.retry import Retry

from bench.loadtest import people

# As the page: the notices ask every 2 s, at most 15 times (conversations/views.py).
NOTICE_POLL_SECONDS = 2.0
NOTICE_POLL_TRIES = 15
TURNS_PER_SESSION = (3, 8)
REQUEST_TIMEOUT = 120.0
_REPLY_URL = re.compile(r'sse-connect="(/sessions/(\d+)/messages/(\d+)/reply/)"')
_SESSION_URL = re.compile(r"/sessions/(\d+)/$")
_CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_FORM_ERROR = re.compile(r'role="alert">\s*(?:<p>)?([^<]+)')
_WAITING = "memory-notices__wait"
_NOT_FINISHED = ("could not be finished", "could not be reached")


class Person(HttpUser):
    """One person chatting; `wait_time` is the pause to read and type between actions."""

    wait_time = between(3, 10)
    # People who have signed up (or given up trying): the driver measures a step only once
    # every person of it has, so the sign-ups' password hashing stays out of the figures.
    arrived = 0

    def on_start(self) -> None:
        # As a browser does: a GET sent on a kept-alive connection the server has just closed
        # (gunicorn keeps one 2 s, the notices ask every 2 s) is sent again on a new one.
        self.client.mount(
            "http://",
            LocustHttpAdapter(pool_manager=None, max_retries=Retry(total=1, connect=1, read=1,
                              status=0, other=0, allowed_methods={"GET"}, raise_on_status=False)),
        )  # fmt: skip
        self.rng = random.Random()
        self.session_id: int | None = None
        self.turns_left = 0
        try:
            self._sign_up()
        finally:
            Person.arrived += 1

    # --- helpers ---------------------------------------------------------------------------

    def _csrf(self) -> str:
        return str(self.client.cookies.get("csrftoken", ""))

    def _headers(self, *, htmx: bool = False) -> dict[str, str]:
        headers = {"X-CSRFToken": self._csrf()}
        if htmx:
            headers["HX-Request"] = "true"
        return headers

    def _record(
        self, name: str, started: float, *, length: int = 0, error: Exception | None = None
    ) -> None:
        self.environment.events.request.fire(
            request_type="GET",
            name=name,
            response_time=(time.perf_counter() - started) * 1000,
            response_length=length,
            exception=error,
            context={},
        )

    def _sign_up(self) -> None:
        """Sign up as a new person, logged in afterwards; a refused form is a failure and
        the person tries again with another name (at most three times)."""
        for _attempt in range(3):
            page = self.client.get(
                "/accounts/signup/", name="sign up page", timeout=REQUEST_TIMEOUT
            )
            token = _CSRF_FIELD.search(page.text or "")
            # A password unlike the name: Django refuses one too similar to it.
            password = secrets.token_urlsafe(18)
            with self.client.post(
                "/accounts/signup/",
                data={
                    "csrfmiddlewaretoken": token[1] if token else "",
                    "username": f"load{uuid.uuid4().hex[:12]}",
                    "password1": password,
                    "password2": password,
                },
                name="sign up",
                timeout=REQUEST_TIMEOUT,
                catch_response=True,
            ) as answer:
                if answer.ok and not (answer.url or "").endswith("/accounts/signup/"):
                    return
                answer.failure(f"sign-up refused (status {answer.status_code})")

    # --- what a person does ----------------------------------------------------------------

    @task(6)
    def chat_turn(self) -> None:
        if self.session_id is None or self.turns_left <= 0:
            if self.session_id is not None:
                self.client.post(
                    f"/sessions/{self.session_id}/end/",
                    headers=self._headers(),
                    name="end chat",
                    timeout=REQUEST_TIMEOUT,
                )
            opened = self.client.post(
                "/sessions/new/", headers=self._headers(), name="new chat", timeout=REQUEST_TIMEOUT
            )
            found = _SESSION_URL.search(opened.url or "")
            if not opened.ok or not found:
                self.session_id = None
                return
            self.session_id = int(found[1])
            self.turns_left = self.rng.randint(*TURNS_PER_SESSION)
        self.turns_left -= 1
        with self.client.post(
            f"/sessions/{self.session_id}/messages/",
            data={"content": people.message(self.rng)},
            headers=self._headers(htmx=True),
            name="send",
            timeout=REQUEST_TIMEOUT,
            catch_response=True,
        ) as sent:
            reply = _REPLY_URL.search(sent.text or "")
            if sent.status_code >= 400:
                sent.failure(f"status {sent.status_code}")
                return
            if reply is None:
                said = _FORM_ERROR.search(sent.text or "")
                sent.failure(f"no reply stream: {said[1].strip()[:120] if said else 'no error'}")
                return
        if self._stream_reply(reply[1]):
            self._poll_notices(int(reply[3]))

    def _stream_reply(self, path: str) -> bool:
        """Read the reply's server-sent events to `done`, as the page's EventSource does."""
        started = time.perf_counter()
        first = False
        length = 0
        try:
            # The session's own request, outside Locust's per-request timing: the stream's
            # times are the first chunk and the whole reply, recorded below.
            with requests.Session.request(
                self.client,
                "GET",
                f"{self.host}{path}",
                headers={"Accept": "text/event-stream", "HX-Request": "true"},
                stream=True,
                timeout=REQUEST_TIMEOUT,
            ) as response:
                response.raise_for_status()
                event = ""
                text: list[str] = []
                for raw in response.iter_lines():
                    line = raw.decode()
                    length += len(raw)
                    if line.startswith("event: "):
                        event = line[7:]
                        if event == "chunk" and not first:
                            first = True
                            self._record("reply first chunk", started)
                    elif line.startswith("data: ") and event == "chunk":
                        text.append(line[6:])
                    elif line.startswith("data: ") and event == "done":
                        break
                else:
                    raise RuntimeError("the reply stream ended without its done event")
            if any(marker in "".join(text) for marker in _NOT_FINISHED):
                raise RuntimeError("the reply says it could not be finished")
        except (requests.RequestException, RuntimeError) as exc:
            self._record("reply", started, length=length, error=exc)
            return False
        self._record("reply", started, length=length)
        return True

    def _poll_notices(self, message_id: int) -> None:
        """The notices under the reply, asked again every 2 s while extraction is to run."""
        started = time.perf_counter()
        for tries in range(NOTICE_POLL_TRIES):
            time.sleep(NOTICE_POLL_SECONDS)
            answer = self.client.get(
                f"/messages/{message_id}/memories/?tries={tries}",
                headers={"HX-Request": "true"},
                name="notices",
                timeout=REQUEST_TIMEOUT,
            )
            if not answer.ok:
                return
            if _WAITING not in answer.text:
                self._record("remembered", started)
                return
        self._record(
            "remembered", started, error=RuntimeError("extraction did not run while polled")
        )

    @task(2)
    def open_memories(self) -> None:
        self.client.get("/memories/", name="memories", timeout=REQUEST_TIMEOUT)

    @task(2)
    def search_memories(self) -> None:
        self.client.get(
            "/memories/", params={"q": people.search(self.rng)}, name="search",
            timeout=REQUEST_TIMEOUT,
        )  # fmt: skip

    @task(1)
    def search_api(self) -> None:
        self.client.post(
            "/api/v1/search/",
            json={"query": people.search(self.rng), "k": 10},
            headers=self._headers(),
            name="api search",
            timeout=REQUEST_TIMEOUT,
        )
