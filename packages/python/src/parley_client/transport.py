"""Sending one request to Parley, riding out what passes: network errors, restarts, 5xx, 429."""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .errors import ParleyApiError, ParleyUnavailableError

logger = logging.getLogger("parley_client")
# A library says nothing unless its caller sets up logging (the CLI does).
logger.addHandler(logging.NullHandler())

USER_AGENT = "parleyhq-client-python/0.1.0"


@dataclass(frozen=True)
class RetryPolicy:
    """How passing failures are ridden out, in seconds."""

    #: The first wait after a failure; it doubles (with jitter) up to ``max_delay``.
    min_delay: float = 0.25
    #: The longest wait between two tries, unless the server's ``Retry-After`` asks for longer.
    max_delay: float = 15.0
    #: How long one request may keep failing before ``ParleyUnavailableError``; 0 tries once.
    give_up_after: float = 600.0


class _Passing(Exception):
    """A failure that may pass: try again, after ``retry_after`` seconds when the server said."""

    def __init__(self, message: str, status: Optional[int] = None, retry_after: Optional[float] = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def _is_passing_status(status: int) -> bool:
    """A timeout, too early, too many requests, and the server's own failures say "later"."""
    return status in (408, 425, 429) or status >= 500


def retry_after_seconds(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` in seconds from now: a number of seconds, or an HTTP date."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        at = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if at.tzinfo is None:
        return None
    return max(0.0, at.timestamp() - (time.time() if now is None else now))


def api_error(status: int, reason: str, body: bytes) -> ParleyApiError:
    """The API's error from a refusal's body, or one made from the status when the body is not the API's."""
    try:
        error = json.loads(body.decode("utf-8"))["error"]
        if isinstance(error["code"], str) and isinstance(error["message"], str):
            path = error.get("path")
            return ParleyApiError(status, error["code"], error["message"], path if isinstance(path, str) else None)
    except (ValueError, KeyError, TypeError):
        pass  # Not the API's shape: a proxy's page, say. Described by its status below.
    snippet = body.decode("utf-8", "replace").strip()[:200]
    return ParleyApiError(status, f"http_{status}", f"HTTP {status}{' ' + reason if reason else ''}{': ' + snippet if snippet else ''}")


class Transport:
    """What every request is sent with: the key, the retry policy, the timeout."""

    def __init__(self, api_key: str, retry: RetryPolicy, request_timeout: float, sleep: Callable[[float], None] = time.sleep) -> None:
        self.api_key = api_key
        self.retry = retry
        self.request_timeout = request_timeout
        self._sleep = sleep

    def _once(self, method: str, url: str, body: Optional[Mapping[str, Any]], headers: Mapping[str, str], hold: float) -> Tuple[Any, int]:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8") if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.api_key}")
        request.add_header("Accept", "application/json")
        request.add_header("User-Agent", USER_AGENT)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in headers.items():
            request.add_header(name, value)
        timeout = hold + self.request_timeout
        try:
            # Read whole before judging: a server killed mid-body fails here, and that passes like a refused connection.
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read()
                status: int = response.status
        except urllib.error.HTTPError as error:
            content = error.read()
            refusal = api_error(error.code, str(error.reason or ""), content)
            if _is_passing_status(error.code):
                raise _Passing(refusal.message, error.code, retry_after_seconds(error.headers.get("Retry-After")))
            raise refusal
        except socket.timeout:
            raise _Passing(f"no response within {round(timeout)} s")
        except (OSError, http.client.HTTPException) as error:
            # Refused (a server restarting), reset, dropped mid-body, or no answer in time.
            reason = getattr(error, "reason", None)
            if isinstance(reason, socket.timeout):
                raise _Passing(f"no response within {round(timeout)} s")
            raise _Passing(f"{type(error).__name__}: {reason if reason is not None else error}")
        try:
            return json.loads(text.decode("utf-8")), status
        except ValueError:
            raise _Passing("a response that is not JSON (cut short?)")

    def send(self, method: str, url: str, body: Optional[Mapping[str, Any]] = None, headers: Optional[Mapping[str, str]] = None, hold: float = 0) -> Any:
        """The response's JSON, as :meth:`exchange` gets it."""
        return self.exchange(method, url, body, headers, hold)[0]

    def exchange(self, method: str, url: str, body: Optional[Mapping[str, Any]] = None, headers: Optional[Mapping[str, str]] = None, hold: float = 0) -> Tuple[Any, int]:
        """
        The response's JSON and status. ``hold``: seconds the server may legitimately hold the request
        (a long-poll's wait), added to the request timeout.

        Sends a request until it succeeds, is refused for good (``ParleyApiError``), or has failed for
        ``give_up_after`` seconds (``ParleyUnavailableError``), waiting between tries with exponential
        backoff and full jitter, or for the server's ``Retry-After``. Every request this client sends is
        safe to send twice (a GET, a create with its Idempotency-Key, a cancel), so all are retried.
        """
        policy = self.retry
        first_failure: Optional[float] = None
        failures = 0
        while True:
            try:
                return self._once(method, url, body, headers or {}, hold)
            except _Passing as failure:
                now = time.monotonic()
                first_failure = now if first_failure is None else first_failure
                elapsed = now - first_failure
                backoff = min(policy.max_delay, policy.min_delay * 2 ** min(failures, 30))
                # Never under the first delay: many clients a restart cut off do not come back at once.
                delay = failure.retry_after if failure.retry_after is not None else policy.min_delay + random.random() * max(0.0, backoff - policy.min_delay)
                path = urllib.parse.urlparse(url).path
                if elapsed + delay > policy.give_up_after:
                    tries = f" after {failures + 1} tries over {round(elapsed)} s" if failures > 0 else ""
                    raise ParleyUnavailableError(f"Parley did not answer {method} {path}{tries}: {failure}", failure.status) from None
                logger.warning("%s; trying %s %s again in %.1f s", failure, method, path, delay)
                self._sleep(delay)
                failures += 1


def query_string(values: Dict[str, str]) -> str:
    """``?a=1&b=2`` for the values given, or nothing."""
    return "?" + urllib.parse.urlencode(values) if values else ""
