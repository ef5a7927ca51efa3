#!/usr/bin/env python3
"""Ask a person through Parley's HTTP API and wait for the answer — the standard library only.

    PARLEY_URL=http://localhost:3000 PARLEY_API_KEY=pk_... \\
        python3 ask.py --to sam@parley.test --title "Deploy 4.2 now?" [--schema deploy.json] [--key deploy-4.2]

Prints the answer as JSON and exits 0; when nobody answers, prints the reason (away, expired,
refused, cancelled, non-interactive, declined — with the person's note on stderr) and exits 2; on an
error, prints it and exits 1.

The ask is made with an Idempotency-Key (--key, else a generated one, printed on stderr): run the
script again with the same key and it picks up the same ask — still open, or answered meanwhile —
instead of asking again. Network errors, a restarting server, 5xx and 429 (after its Retry-After)
are waited out; the script gives up after --give-up-after seconds of them.

Python 3.9 or later.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, List, NoReturn, Optional

EXIT_ANSWERED = 0
EXIT_ERROR = 1
EXIT_NOTHING = 2

MAX_WAIT_SECONDS = 60


class ApiError(Exception):
    """A refusal that asking again will not heal (400, 401, 404, 409, 422...)."""

    def __init__(self, status: int, code: str, message: str, path: Optional[str]) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.path = path

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"Parley refused the request ({self.status} {self.code}{where}): {self.message}"


class Unavailable(Exception):
    """Parley stayed unreachable, or kept failing, for longer than we were told to wait."""


class Passing(Exception):
    """A failure that may pass: try again, after `retry_after` seconds if the server said."""

    def __init__(self, message: str, retry_after: Optional[float] = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    if value and value.strip().isdigit():
        return float(value.strip())
    return None


def api_error(status: int, body: bytes) -> ApiError:
    try:
        error = json.loads(body.decode("utf-8"))["error"]
        return ApiError(status, str(error["code"]), str(error["message"]), error.get("path"))
    except (ValueError, KeyError, TypeError):
        text = body.decode("utf-8", "replace").strip()[:200]
        return ApiError(status, f"http_{status}", text or f"HTTP {status}", None)


class Parley:
    """Parley's API for one agent key, riding out what passes."""

    def __init__(self, base_url: str, api_key: str, give_up_after: float) -> None:
        root = base_url.rstrip("/")
        if root.endswith("/api/v1"):
            root = root[: -len("/api/v1")]
        self.root = root + "/api/v1"
        self.api_key = api_key
        self.give_up_after = give_up_after

    def _once(self, method: str, path: str, body: Optional[Dict[str, Any]], headers: Dict[str, str], timeout: float) -> Any:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(self.root + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.api_key}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in headers.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read()
        except urllib.error.HTTPError as error:
            status = error.code
            content = error.read()
            if status in (408, 425, 429) or status >= 500:
                raise Passing(str(api_error(status, content)), retry_after_seconds(error.headers.get("Retry-After")))
            raise api_error(status, content)
        except (OSError, http.client.HTTPException) as error:
            # Refused (a server restarting), reset, dropped mid-body, or no answer in time.
            raise Passing(f"{type(error).__name__}: {getattr(error, 'reason', error)}")
        try:
            return json.loads(text.decode("utf-8"))
        except ValueError:
            raise Passing("a response that is not JSON (cut short?)")

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, headers: Optional[Dict[str, str]] = None, hold: float = 0) -> Any:
        """Sends a request until it succeeds or is refused for good; waits out what passes, with backoff."""
        first_failure: Optional[float] = None
        delay = 0.25
        while True:
            try:
                return self._once(method, path, body, headers or {}, timeout=hold + 30)
            except Passing as failure:
                now = time.monotonic()
                first_failure = first_failure if first_failure is not None else now
                wait = failure.retry_after if failure.retry_after is not None else random.uniform(0.25, delay)
                if now - first_failure + wait > self.give_up_after:
                    raise Unavailable(f"Parley did not answer {method} {path} for {round(now - first_failure)} s: {failure}")
                print(f"Parley: {failure}; trying again in {wait:.1f} s", file=sys.stderr)
                time.sleep(wait)
                delay = min(delay * 2, 15.0)

    def create_ask(self, body: Dict[str, Any], key: str) -> Dict[str, Any]:
        # Safe to send again after a failure: the same Idempotency-Key gives the same ask.
        return self.request("POST", "/asks", body, {"Idempotency-Key": key})

    def wait(self, ask_id: str, seconds: int) -> Dict[str, Any]:
        return self.request("GET", f"/asks/{urllib.parse.quote(ask_id)}?wait={seconds}", hold=seconds)


class ArgumentParser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error; here 2 means "nobody answered", so a usage error exits 1."""

    def error(self, message: str) -> "NoReturn":  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def parse_arguments(argv: List[str]) -> argparse.Namespace:
    parser = ArgumentParser(prog="ask.py", description="Ask a person through Parley and wait for the answer.")
    parser.add_argument("--to", action="append", required=True, metavar="EMAIL", help="who answers; repeat for several (any one of them may answer)")
    parser.add_argument("--title", required=True, help="the question, as the person reads it first")
    parser.add_argument("--body", help="more detail, shown with the question")
    parser.add_argument("--schema", metavar="FILE", help="a JSON Schema file for the answer (default: one free-text answer)")
    parser.add_argument("--within", type=int, metavar="SECONDS", help="the deadline, in seconds from now")
    parser.add_argument("--key", help="the Idempotency-Key: the same key again picks up the same ask (default: a new one)")
    parser.add_argument("--poll", type=int, default=30, metavar="SECONDS", help="how long each long-poll waits, 1-60 (default 30)")
    parser.add_argument("--give-up-after", type=float, default=600, metavar="SECONDS", help="how long to wait out an unreachable or failing server (default 600)")
    arguments = parser.parse_args(argv)
    if not 1 <= arguments.poll <= MAX_WAIT_SECONDS:
        parser.error(f"--poll is 1 to {MAX_WAIT_SECONDS} seconds")
    return arguments


def main(argv: List[str]) -> int:
    arguments = parse_arguments(argv)
    base_url = os.environ.get("PARLEY_URL", "").strip()
    api_key = os.environ.get("PARLEY_API_KEY", "").strip()
    if not base_url or not api_key:
        print("Set PARLEY_URL (e.g. http://localhost:3000) and PARLEY_API_KEY (an agent key, pk_..., from Admin > API keys).", file=sys.stderr)
        return EXIT_ERROR

    body: Dict[str, Any] = {"to": arguments.to[0] if len(arguments.to) == 1 else arguments.to, "title": arguments.title}
    if arguments.body:
        body["body"] = arguments.body
    if arguments.within is not None:
        body["due_in_seconds"] = arguments.within
    if arguments.schema:
        try:
            with open(arguments.schema, encoding="utf-8") as file:
                body["response_schema"] = json.load(file)
        except (OSError, ValueError) as error:
            print(f"Cannot read the schema {arguments.schema}: {error}", file=sys.stderr)
            return EXIT_ERROR

    key = arguments.key or str(uuid.uuid4())
    parley = Parley(base_url, api_key, arguments.give_up_after)
    try:
        ask = parley.create_ask(body, key)
        print(f"Asked ({ask['url']}); waiting. Run again with --key {key} to pick this ask up.", file=sys.stderr)
        while ask["status"] == "open":
            ask = parley.wait(ask["id"], arguments.poll)
    except (ApiError, Unavailable) as error:
        print(str(error), file=sys.stderr)
        return EXIT_ERROR

    if ask["status"] == "answered":
        who = ask.get("answered_by") or {}
        print(f"Answered by {who.get('name', 'someone')} <{who.get('email', '?')}>.", file=sys.stderr)
        print(json.dumps(ask["answer"], ensure_ascii=False))
        return EXIT_ANSWERED
    if ask["reason"] == "declined":
        who = ask.get("declined_by") or {}
        note = f" Their note: {ask['note']}" if ask.get("note") else ""
        print(f"{who.get('name', 'The person')} declined to answer.{note}", file=sys.stderr)
    else:
        print(f"Nobody answered: {ask['reason']}.", file=sys.stderr)
    print(ask["reason"])
    return EXIT_NOTHING


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        # The ask stays open: run again with the same --key to pick it up.
        sys.exit(EXIT_ERROR)
