"""The errors the client raises: each a class with what a caller branches on, never its message text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional

if TYPE_CHECKING:
    from .api_types import AnsweredAsk


class ParleyError(Exception):
    """Every error this package raises on purpose: catch it to catch them all."""


class ParleyApiError(ParleyError):
    """
    A refusal from Parley that asking again will not heal: 400 (malformed), 401 (no key, or an unknown
    or revoked one), 403, 404 (no such ask, or another key's), 409 (an Idempotency-Key used for a
    different request, an answered ask cancelled), 413, 415, 422 (an unknown person, a schema that
    cannot be asked, a past deadline). Branch on ``code``, never on ``message``.
    """

    def __init__(self, status: int, code: str, message: str, path: Optional[str] = None) -> None:
        super().__init__(message)
        #: The HTTP status.
        self.status = status
        #: The API's stable error code (``unauthorized``, ``not_found``, ``unknown_person``…), or
        #: ``http_<status>`` when the response was not the API's error shape.
        self.code = code
        #: The API's message, for a person to read.
        self.message = message
        #: Where in the request the problem is (``to[1]``, ``response_schema.properties.x``), when it is in one place.
        self.path = path

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"Parley refused the request ({self.status} {self.code}{where}): {self.message}"


class ParleyUnavailableError(ParleyError):
    """
    Parley could not be reached, or kept answering with a passing failure (5xx, 429), for longer than
    the client was told to keep trying (``give_up_after``). Nothing was refused: the same call again
    later — ``ask`` with the same ``idempotency_key`` — carries on where this one stopped.
    """

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        #: The last response's HTTP status, or None when the last failure was a network error.
        self.status = status


class ParleyAnswerError(ParleyError):
    """
    The ask was answered with something other than what it asked for: a free-text ask answered with
    an object, or an ask with a response schema answered with text. ``ask`` is the answered ask.
    """

    def __init__(self, ask: "AnsweredAsk", message: str) -> None:
        super().__init__(message)
        self.ask = ask
        self.answer = ask["answer"]


WebhookRefusal = Literal["malformed", "stale", "mismatch", "unknown-type"]
"""
Why a webhook was not accepted:

- ``malformed``: a ``webhook-*`` header is missing or unreadable, or the body is not the JSON envelope;
- ``stale``: its timestamp is further from now than the tolerance (a replay, or a clock far off);
- ``mismatch``: no signature matches the secret (another sender, or a changed body);
- ``unknown-type``: signed correctly, but of a type this version does not know (a newer Parley):
  answer it with a 2xx so it is not sent again; ``body`` holds it.
"""


class ParleyWebhookError(ParleyError):
    """A webhook that did not verify or could not be read: answer it with a 4xx (``unknown-type``: a 2xx)."""

    def __init__(self, reason: WebhookRefusal, message: str, body: Any = None) -> None:
        super().__init__(message)
        self.reason: WebhookRefusal = reason
        #: For ``unknown-type``: the verified envelope as sent.
        self.body = body
