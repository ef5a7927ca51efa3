"""The API's shapes as on the wire (snake_case JSON), and what ``ask`` gives back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Generic, List, Literal, Optional, TypedDict, TypeVar, Union

NothingReason = Literal["refused", "away", "non-interactive", "expired", "cancelled", "unavailable", "declined"]
"""Why nobody answered an ask."""

AskStatus = Literal["open", "answered", "nothing"]
"""Where an ask stands: waiting for the person, answered, or closed with nothing."""


class Person(TypedDict):
    """Who answered or declined."""

    email: str
    name: str


class Attempts(TypedDict):
    """Refused submissions allowed, and spent so far."""

    allowed: int
    refused: int


class _AskBase(TypedDict):
    id: str
    title: str
    body: Optional[str]
    context: Optional[Dict[str, Union[str, int, float, bool]]]
    #: ``to`` as it was given: an email, several, or ``{"group": …}``.
    to: Union[str, List[str], Dict[str, str]]
    #: The question's page, where the person answers it.
    url: str
    #: The question's id: the person's side of the API and the ``question.*`` webhooks name it.
    question_id: str
    due_at: Optional[str]
    created_at: str
    metadata: Optional[Dict[str, Any]]
    attempts: Attempts
    #: From the ask to its answer or its closing; until now while it is open.
    waited_seconds: float


class OpenAsk(_AskBase):
    """An ask waiting for the person."""

    status: Literal["open"]
    answer: None
    answered_by: None
    answered_at: None
    reason: None
    declined_by: None
    note: None


class AnsweredAsk(_AskBase):
    """An ask the person answered: ``answer`` is an object of the schema's properties, or a string for a free-text ask."""

    status: Literal["answered"]
    answer: Union[Dict[str, Any], str]
    answered_by: Optional[Person]
    answered_at: str
    reason: None
    declined_by: None
    note: None


class NothingAsk(_AskBase):
    """An ask closed with nothing: nobody will answer it; ``reason`` says why."""

    status: Literal["nothing"]
    answer: None
    answered_by: None
    answered_at: Optional[str]
    reason: NothingReason
    #: Who declined it, for reason ``declined``.
    declined_by: Optional[Person]
    #: What the person who declined wrote for the asker, when they wrote something.
    note: Optional[str]


Ask = Union[OpenAsk, AnsweredAsk, NothingAsk]
"""An ask as the API returns it (``GET /api/v1/asks/{id}``): one shape per ``status``."""


class AskPage(TypedDict):
    """A page of asks, newest first; pass ``next_cursor`` as ``cursor`` for the next (None on the last)."""

    data: List[Ask]
    next_cursor: Optional[str]


Value = TypeVar("Value")


@dataclass(frozen=True)
class Answered(Generic[Value]):
    """The person answered: ``value`` is the answer (a dict for a response schema, a string for free text)."""

    value: Value
    #: The answered ask: who answered (``answered_by``), when, its page, your ``metadata``.
    ask: AnsweredAsk
    ok: Literal[True] = field(default=True, init=False)


@dataclass(frozen=True)
class Nothing:
    """Nobody answered: ``reason`` says why; for ``declined``, ``note`` is what the person wrote, if anything."""

    reason: NothingReason
    note: Optional[str]
    #: The closed ask.
    ask: NothingAsk
    ok: Literal[False] = field(default=False, init=False)


AskResult = Union[Answered[Value], Nothing]
"""What a person gave back: branch on ``result.ok`` (or ``isinstance``); mypy narrows either way."""


@dataclass(frozen=True)
class CreatedAsk:
    """What ``create_ask`` gives back."""

    ask: Ask
    #: False when the Idempotency-Key had made this ask already (the API's 200 rather than 201).
    created: bool
    #: The Idempotency-Key sent: yours, or the one generated.
    idempotency_key: str
