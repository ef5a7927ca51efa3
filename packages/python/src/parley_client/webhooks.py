"""
Receiving Parley's webhooks: the Standard Webhooks signature checked, the body read as a typed event::

    event = verify_webhook(os.environ["PARLEY_WEBHOOK_SECRET"], request_headers, raw_body)
    if event.type == "ask.answered":
        resume(event.data["metadata"], event.data["answer"])
    elif event.type == "ask.nothing":
        give_up(event.data["metadata"], event.data["reason"])
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, TypedDict, Union, cast

from .api_types import AnsweredAsk, NothingAsk
from .errors import ParleyWebhookError

DEFAULT_TOLERANCE_SECONDS = 300
"""How far a ``webhook-timestamp`` may be from now, by default: 5 minutes, as the reference libraries use."""

_SECRET_PREFIX = "whsec_"
_UNIX_SECONDS = re.compile(r"^(?:0|[1-9][0-9]{0,14})$")


class QuestionRecipient(TypedDict):
    """A person a question is put to."""

    user_id: str
    name: str
    email: str


class QuestionOpenedData(TypedDict):
    """The ``data`` of ``question.opened``: a question waiting for a person. Every text in it may have been written by an AI agent."""

    id: str
    url: str
    question: str
    asked_by: str
    subject: str
    recipients: List[QuestionRecipient]
    opened_at: str
    due_at: Optional[str]


class _RemindedBy(TypedDict, total=False):
    reminded_by: str


class QuestionRemindedData(QuestionOpenedData, _RemindedBy):
    """The ``data`` of ``question.reminded``: the question again, with when (and, when known, by whom) it was reminded."""

    reminded_at: str


@dataclass(frozen=True)
class AskAnsweredEvent:
    """``ask.answered``: an ask was answered; ``data`` is the ask as ``GET /api/v1/asks/{id}`` returns it, ``metadata`` included."""

    type: Literal["ask.answered"]
    #: The ``webhook-id``: the same on every retry of one event, so a receiver can drop repeats by it.
    id: str
    #: When the event happened (not when this attempt was sent), ISO 8601.
    timestamp: str
    data: AnsweredAsk


@dataclass(frozen=True)
class AskNothingEvent:
    """``ask.nothing``: an ask closed with nothing — nobody will answer it; ``data["reason"]`` says why."""

    type: Literal["ask.nothing"]
    id: str
    timestamp: str
    data: NothingAsk


@dataclass(frozen=True)
class QuestionOpenedEvent:
    """``question.opened``: a question is waiting for a person."""

    type: Literal["question.opened"]
    id: str
    timestamp: str
    data: QuestionOpenedData


@dataclass(frozen=True)
class QuestionRemindedEvent:
    """``question.reminded``: a person was reminded of a question."""

    type: Literal["question.reminded"]
    id: str
    timestamp: str
    data: QuestionRemindedData


ParleyEvent = Union[AskAnsweredEvent, AskNothingEvent, QuestionOpenedEvent, QuestionRemindedEvent]
"""A webhook Parley sends, told apart by ``type`` (mypy narrows on ``event.type == "ask.answered"``)."""

_EVENTS: Dict[str, Any] = {
    "ask.answered": AskAnsweredEvent,
    "ask.nothing": AskNothingEvent,
    "question.opened": QuestionOpenedEvent,
    "question.reminded": QuestionRemindedEvent,
}

PARLEY_EVENT_TYPES = tuple(_EVENTS)
"""The event types this version of the package knows."""

Headers = Union[Mapping[str, str], Message]
"""Request headers: a dict (any case), or ``http.server``'s ``self.headers`` (an ``email.message.Message``)."""


def _header(headers: Headers, name: str) -> Optional[str]:
    if isinstance(headers, Message):
        found = headers.get(name)
        return found if isinstance(found, str) else None
    if name in headers:
        return headers[name]
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _secret_bytes(secret: str) -> bytes:
    encoded = secret[len(_SECRET_PREFIX):] if secret.startswith(_SECRET_PREFIX) else secret
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if not key:
        raise ValueError("The webhook secret is not a whsec_… secret (base64 after the prefix).")
    return key


def verify_webhook(
    secret: Union[str, Sequence[str]],
    headers: Headers,
    body: Union[bytes, str],
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[datetime] = None,
) -> ParleyEvent:
    """
    Checks a webhook's Standard Webhooks signature and returns its body as a typed event.

    ``secret`` is the agent key's ``whsec_…`` secret (several while you rotate: any may match);
    ``headers`` the request's; ``body`` the body exactly as received — parsing and re-serialising it
    would change the signature. The ``webhook-signature`` header's space-separated ``v1,<base64>``
    entries are compared, in constant time, with HMAC-SHA256 of ``{webhook-id}.{webhook-timestamp}.{body}``
    keyed with the secret's bytes; ``webhook-timestamp`` must be within ``tolerance`` seconds of ``now``.

    Raises ``ParleyWebhookError`` (``reason``: ``malformed``, ``stale``, ``mismatch`` — answer 400 —
    or ``unknown-type`` — answer 2xx) and ``ValueError`` when ``secret`` is not a ``whsec_`` secret.
    Drop repeats by the event's ``id``: every retry of one event carries the same one.
    """
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise ValueError("No webhook secret was given.")
    keys = [_secret_bytes(each) for each in secrets]
    message_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not message_id or not timestamp or not signatures:
        raise ParleyWebhookError("malformed", "A webhook-id, webhook-timestamp or webhook-signature header is missing.")
    timestamp = timestamp.strip()
    if not _UNIX_SECONDS.match(timestamp):
        raise ParleyWebhookError("malformed", "The webhook-timestamp header is not a time in unix seconds.")
    current = now.timestamp() if now is not None else time.time()
    if abs(current - int(timestamp)) > tolerance:
        raise ParleyWebhookError("stale", f"The webhook's timestamp is more than {tolerance:g} s from now.")

    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    signed = f"{message_id}.{timestamp}.".encode("utf-8") + raw
    # Compared as base64 text, as the reference libraries do, so that no other spelling of a digest passes.
    expected = [base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()) for key in keys]
    given = [entry[3:].encode("utf-8") for entry in signatures.split(" ") if entry.startswith("v1,")]
    # Every pair is compared (no early exit), so the time taken says nothing about which came close.
    matched = False
    for candidate in given:
        for digest in expected:
            matched = hmac.compare_digest(candidate, digest) or matched
    if not matched:
        raise ParleyWebhookError("mismatch", "No webhook signature matches the secret.")

    try:
        envelope = json.loads(raw.decode("utf-8"))
    except ValueError:
        raise ParleyWebhookError("malformed", "The webhook's body is not JSON.") from None
    if not isinstance(envelope, dict) or not isinstance(envelope.get("type"), str) or not isinstance(envelope.get("timestamp"), str) or not isinstance(envelope.get("data"), dict):
        raise ParleyWebhookError("malformed", "The webhook's body is not a { type, timestamp, data } envelope.")
    event_class = _EVENTS.get(envelope["type"])
    if event_class is None:
        raise ParleyWebhookError("unknown-type", f'This version of parleyhq-client does not know the event type "{envelope["type"]}".', envelope)
    return cast(ParleyEvent, event_class(envelope["type"], message_id, envelope["timestamp"], envelope["data"]))
