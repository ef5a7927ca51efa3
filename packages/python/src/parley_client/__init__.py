"""
Parley's client for Python, the standard library only: ask a person and wait for the typed answer,
and verify Parley's webhooks::

    from parley_client import Client

    parley = Client("http://localhost:3000", api_key)
    result = parley.ask("sam@parley.test", "Deploy 4.2 now?", idempotency_key="deploy-4.2")
    if result.ok:
        print(result.value)
    else:
        print("nobody answered:", result.reason, result.note)
"""

from .api_types import (
    Answered,
    AnsweredAsk,
    Ask,
    AskPage,
    AskResult,
    AskStatus,
    CreatedAsk,
    Nothing,
    NothingAsk,
    NothingReason,
    OpenAsk,
    Person,
)
from .client import MAX_POLL_SECONDS, Client
from .errors import ParleyAnswerError, ParleyApiError, ParleyError, ParleyUnavailableError, ParleyWebhookError, WebhookRefusal
from .webhooks import (
    PARLEY_EVENT_TYPES,
    AskAnsweredEvent,
    AskNothingEvent,
    ParleyEvent,
    QuestionOpenedData,
    QuestionOpenedEvent,
    QuestionRemindedData,
    QuestionRemindedEvent,
    verify_webhook,
)

__version__ = "0.1.0"

__all__ = [
    "MAX_POLL_SECONDS",
    "PARLEY_EVENT_TYPES",
    "Answered",
    "AnsweredAsk",
    "Ask",
    "AskAnsweredEvent",
    "AskNothingEvent",
    "AskPage",
    "AskResult",
    "AskStatus",
    "Client",
    "CreatedAsk",
    "Nothing",
    "NothingAsk",
    "NothingReason",
    "OpenAsk",
    "ParleyAnswerError",
    "ParleyApiError",
    "ParleyError",
    "ParleyEvent",
    "ParleyUnavailableError",
    "ParleyWebhookError",
    "Person",
    "QuestionOpenedData",
    "QuestionOpenedEvent",
    "QuestionRemindedData",
    "QuestionRemindedEvent",
    "WebhookRefusal",
    "verify_webhook",
]
