"""The client of Parley's HTTP API for one agent key: ask a person, wait for the answer."""

from __future__ import annotations

import time
import urllib.parse
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Union, cast, overload

from .api_types import Answered, Ask, AskPage, AskResult, AskStatus, CreatedAsk, Nothing
from .errors import ParleyAnswerError
from .transport import RetryPolicy, Transport, query_string

MAX_POLL_SECONDS = 60
"""The longest a long-poll may hold (the API's limit)."""

Recipients = Union[str, Sequence[str]]
"""One person's email, or several (any one of them may answer)."""

Within = Union[int, float, timedelta]
"""A deadline as a span from now: seconds, or a ``timedelta``."""

Context = Mapping[str, Union[str, int, float, bool]]
"""Facts shown beside the question."""

_Expected = str  # "object", "string" or "any": what the answer of an ask should be.


def _api_root(base_url: str) -> str:
    """The API's root (``…/api/v1``) from the address the caller gave."""
    parsed = urllib.parse.urlsplit(base_url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"base_url must be an http or https URL, not {base_url!r}")
    path = parsed.path.rstrip("/")
    if path.endswith("/api/v1"):
        path = path[: -len("/api/v1")]
    return f"{parsed.scheme}://{parsed.netloc}{path}/api/v1"


def _seconds(within: Within) -> int:
    """Whole seconds in a span (the API takes whole seconds)."""
    return round(within.total_seconds() if isinstance(within, timedelta) else within)


def _moment(due_at: Union[datetime, str]) -> str:
    """A moment as the API reads it (ISO 8601 with its offset)."""
    if isinstance(due_at, str):
        return due_at
    if due_at.tzinfo is None:
        raise ValueError("due_at must be timezone-aware (datetime.now(timezone.utc) + …), or it means a different moment on every machine.")
    return due_at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _ask_of(body: Any) -> Ask:
    """An ask from a response body, checked just enough that the loop can trust ``id`` and ``status``."""
    if not isinstance(body, dict) or not isinstance(body.get("id"), str) or body.get("status") not in ("open", "answered", "nothing"):
        raise TypeError("Parley answered with something that is not an ask.")
    return cast(Ask, body)


def _settle(ask: Ask, expected: _Expected) -> Optional[AskResult[Any]]:
    """An ask's outcome, with the answer checked as ``expected``; None while it is open."""
    if ask["status"] == "open":
        return None
    if ask["status"] == "nothing":
        return Nothing(ask["reason"], ask.get("note"), ask)
    answer = ask["answer"]
    if expected == "string" and not isinstance(answer, str):
        raise ParleyAnswerError(ask, "A free-text ask was answered with something other than text.")
    if expected == "object" and not isinstance(answer, dict):
        raise ParleyAnswerError(ask, "An ask with a response schema was answered with something other than an object.")
    return Answered(answer, ask)


class Client:
    """
    A client of one Parley for one agent key::

        parley = Client("https://parley.example.com", os.environ["PARLEY_API_KEY"])
        result = parley.ask("sam@example.com", "Deploy 4.2 now?", within=timedelta(hours=4))
        if result.ok:
            print(result.value)          # the person's text
        else:
            print("nobody answered:", result.reason)

    Every call rides out network errors, a restarting server, 5xx and 429 (after its Retry-After) with
    backoff and jitter, for up to ``give_up_after`` seconds at a stretch.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        poll_seconds: int = 30,
        give_up_after: float = 600.0,
        min_delay: float = 0.25,
        max_delay: float = 15.0,
        request_timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """
        ``base_url``: Parley's address (a trailing ``/api/v1`` is allowed). ``api_key``: an agent key
        (``pk_…``) from Admin → API keys. ``poll_seconds``: how long each long-poll asks the server to
        hold (1–60). ``give_up_after``: how long one request may keep failing before
        ``ParleyUnavailableError``; ``min_delay``/``max_delay``: the backoff between tries.
        ``request_timeout``: how long a request may go unanswered beyond its long-poll wait before it
        is abandoned and tried again. ``sleep``: how to wait (for tests).
        """
        if not isinstance(api_key, str) or api_key.strip() == "":
            raise ValueError("api_key is required: an agent key (pk_…) from Admin → API keys.")
        if not isinstance(poll_seconds, int) or not 1 <= poll_seconds <= MAX_POLL_SECONDS:
            raise ValueError(f"poll_seconds is a whole number from 1 to {MAX_POLL_SECONDS}.")
        self.root = _api_root(base_url)
        self.poll_seconds = poll_seconds
        self._sleep = sleep
        self._transport = Transport(api_key.strip(), RetryPolicy(min_delay, max_delay, give_up_after), request_timeout, sleep)

    def _ask_url(self, ask_id: str) -> str:
        return f"{self.root}/asks/{urllib.parse.quote(ask_id, safe='')}"

    @overload
    def ask(
        self,
        to: Recipients,
        title: str,
        *,
        response_schema: Mapping[str, Any],
        body: Optional[str] = None,
        context: Optional[Context] = None,
        within: Optional[Within] = None,
        due_at: Union[datetime, str, None] = None,
        attempts: Optional[int] = None,
        callback_url: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> AskResult[Dict[str, Any]]: ...

    @overload
    def ask(
        self,
        to: Recipients,
        title: str,
        *,
        response_schema: None = None,
        body: Optional[str] = None,
        context: Optional[Context] = None,
        within: Optional[Within] = None,
        due_at: Union[datetime, str, None] = None,
        attempts: Optional[int] = None,
        callback_url: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> AskResult[str]: ...

    def ask(
        self,
        to: Recipients,
        title: str,
        *,
        response_schema: Optional[Mapping[str, Any]] = None,
        body: Optional[str] = None,
        context: Optional[Context] = None,
        within: Optional[Within] = None,
        due_at: Union[datetime, str, None] = None,
        attempts: Optional[int] = None,
        callback_url: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> Union[AskResult[Dict[str, Any]], AskResult[str]]:
        """
        Asks a person and waits for the outcome: ``Answered(value, ask)`` — ``value`` a dict of the
        ``response_schema``'s properties, or the person's text without one — or ``Nothing(reason, note,
        ask)`` when nobody answered: away (at once), refused, expired, cancelled, declined (with the
        person's ``note``). Long-polls until then.

        ``response_schema`` is a JSON Schema object, each property one question; ``within`` (seconds or
        a ``timedelta``) or ``due_at`` (an aware ``datetime``) the deadline; ``attempts`` the refused
        submissions allowed; ``callback_url`` where Parley posts ``ask.answered``/``ask.nothing``;
        ``metadata`` your own data, returned with the ask (≤ 4 KB). ``idempotency_key`` names the ask:
        the same key again gives the same ask back — open, or answered meanwhile — never a second
        question; derive it from your job to pick the ask up after your process restarts.

        Raises ``ParleyApiError`` on a lasting refusal (401, 404, 409, 422…), ``ParleyUnavailableError``
        when Parley stays unreachable for ``give_up_after``; on Ctrl-C the ask stays open.
        """
        created = self.create_ask(
            to, title, body=body, context=context, response_schema=response_schema, within=within, due_at=due_at,
            attempts=attempts, callback_url=callback_url, metadata=metadata, idempotency_key=idempotency_key,
        )
        expected = "object" if response_schema is not None else "string"
        settled = _settle(created.ask, expected)
        return settled if settled is not None else self._wait(created.ask["id"], expected)

    def create_ask(
        self,
        to: Recipients,
        title: str,
        *,
        body: Optional[str] = None,
        context: Optional[Context] = None,
        response_schema: Optional[Mapping[str, Any]] = None,
        within: Optional[Within] = None,
        due_at: Union[datetime, str, None] = None,
        attempts: Optional[int] = None,
        callback_url: Optional[str] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> CreatedAsk:
        """
        ``POST /asks``: makes the ask — or, with an Idempotency-Key already used, returns it as it is now
        — without waiting. Takes what ``ask`` takes.
        """
        if within is not None and due_at is not None:
            raise ValueError("Give within or due_at, not both.")
        request: Dict[str, Any] = {"to": to if isinstance(to, str) else list(to), "title": title}
        if body is not None:
            request["body"] = body
        if context is not None:
            request["context"] = dict(context)
        if response_schema is not None:
            request["response_schema"] = response_schema
        if within is not None:
            request["due_in_seconds"] = _seconds(within)
        if due_at is not None:
            request["due_at"] = _moment(due_at)
        if attempts is not None:
            request["attempts"] = attempts
        if callback_url is not None:
            request["callback_url"] = callback_url
        if metadata is not None:
            request["metadata"] = dict(metadata)
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        # Safe to send again after a failure: the same Idempotency-Key gives the same ask.
        response, status = self._transport.exchange("POST", f"{self.root}/asks", request, {"Idempotency-Key": key})
        return CreatedAsk(_ask_of(response), status == 201, key)

    def get_ask(self, ask_id: str, wait: Optional[int] = None) -> Ask:
        """``GET /asks/{id}``; with ``wait`` (0–60 s), held until the ask is answered or closed, or ``wait`` seconds pass."""
        if wait is not None and (not isinstance(wait, int) or not 0 <= wait <= MAX_POLL_SECONDS):
            raise ValueError(f"wait is a whole number of seconds from 0 to {MAX_POLL_SECONDS}.")
        url = self._ask_url(ask_id) + query_string({} if wait is None else {"wait": str(wait)})
        return _ask_of(self._transport.send("GET", url, hold=wait or 0))

    def wait(self, ask_id: str) -> AskResult[Any]:
        """Long-polls an ask made earlier until it is answered or closed: ``Answered`` or ``Nothing``, as ``ask`` gives."""
        return self._wait(ask_id, "any")

    def _wait(self, ask_id: str, expected: _Expected) -> AskResult[Any]:
        while True:
            started = time.monotonic()
            settled = _settle(self.get_ask(ask_id, wait=self.poll_seconds), expected)
            if settled is not None:
                return settled
            # A wait that came back open at once (a proxy cutting it short, say) must not become a busy loop.
            elapsed = time.monotonic() - started
            if elapsed < 1:
                self._sleep(1 - elapsed)

    def cancel(self, ask_id: str) -> Ask:
        """``POST /asks/{id}/cancel``: withdraws an open ask (it closes with nothing, ``cancelled``); an answered one is a 409 ``ParleyApiError``."""
        # Cancelling twice is the same as once, so a cancel is safe to send again after a lost response.
        return _ask_of(self._transport.send("POST", self._ask_url(ask_id) + "/cancel"))

    def list_asks(self, status: Optional[AskStatus] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> AskPage:
        """``GET /asks``: this key's asks, newest first, a page (``limit`` 1–100) at a time."""
        query: Dict[str, str] = {}
        if status is not None:
            query["status"] = status
        if limit is not None:
            query["limit"] = str(limit)
        if cursor:
            query["cursor"] = cursor
        return cast(AskPage, self._transport.send("GET", f"{self.root}/asks" + query_string(query)))
