"""
Ask a person through Parley from the command line and wait for the answer::

    PARLEY_URL=http://localhost:3000 PARLEY_API_KEY=pk_... \\
        python3 -m parley_client --to sam@parley.test --title "Deploy 4.2 now?" [--schema deploy.json] [--key deploy-4.2]

Prints the answer as JSON and exits 0; when nobody answers, prints the reason (away, expired,
refused, cancelled, non-interactive, declined — with the person's note on stderr) and exits 2; on an
error, prints it and exits 1.

The ask is made with an Idempotency-Key (--key, else a generated one, printed on stderr): run it
again with the same key and it picks up the same ask — still open, or answered meanwhile — instead
of asking again. Network errors, a restarting server, 5xx and 429 (after its Retry-After) are waited
out; it gives up after --give-up-after seconds of them.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import uuid
from typing import Any, Dict, List, NoReturn, Optional

from .client import MAX_POLL_SECONDS, Client
from .errors import ParleyError

EXIT_ANSWERED = 0
EXIT_ERROR = 1
EXIT_NOTHING = 2


class _ArgumentParser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error; here 2 means "nobody answered", so a usage error exits 1."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def _parse_arguments(argv: List[str], prog: str) -> argparse.Namespace:
    parser = _ArgumentParser(prog=prog, description="Ask a person through Parley and wait for the answer.")
    parser.add_argument("--to", action="append", required=True, metavar="EMAIL", help="who answers; repeat for several (any one of them may answer)")
    parser.add_argument("--title", required=True, help="the question, as the person reads it first")
    parser.add_argument("--body", help="more detail, shown with the question")
    parser.add_argument("--schema", metavar="FILE", help="a JSON Schema file for the answer (default: one free-text answer)")
    parser.add_argument("--within", type=int, metavar="SECONDS", help="the deadline, in seconds from now")
    parser.add_argument("--key", help="the Idempotency-Key: the same key again picks up the same ask (default: a new one)")
    parser.add_argument("--poll", type=int, default=30, metavar="SECONDS", help=f"how long each long-poll waits, 1-{MAX_POLL_SECONDS} (default 30)")
    parser.add_argument("--give-up-after", type=float, default=600, metavar="SECONDS", help="how long to wait out an unreachable or failing server (default 600)")
    arguments = parser.parse_args(argv)
    if not 1 <= arguments.poll <= MAX_POLL_SECONDS:
        parser.error(f"--poll is 1 to {MAX_POLL_SECONDS} seconds")
    return arguments


def main(argv: List[str], prog: str = "parley-ask") -> int:
    """Runs the command with ``argv`` (without the program's name); returns the exit code."""
    arguments = _parse_arguments(argv, prog)
    base_url = os.environ.get("PARLEY_URL", "").strip()
    api_key = os.environ.get("PARLEY_API_KEY", "").strip()
    if not base_url or not api_key:
        print("Set PARLEY_URL (e.g. http://localhost:3000) and PARLEY_API_KEY (an agent key, pk_..., from Admin > API keys).", file=sys.stderr)
        return EXIT_ERROR

    schema: Optional[Dict[str, Any]] = None
    if arguments.schema:
        try:
            with open(arguments.schema, encoding="utf-8") as file:
                schema = json.load(file)
        except (OSError, ValueError) as error:
            print(f"Cannot read the schema {arguments.schema}: {error}", file=sys.stderr)
            return EXIT_ERROR

    # Progress on stderr: each failure the client waits out, as it happens.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("Parley: %(message)s"))
    logger = logging.getLogger("parley_client")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)

    key = arguments.key or str(uuid.uuid4())
    to = arguments.to[0] if len(arguments.to) == 1 else arguments.to
    try:
        parley = Client(base_url, api_key, poll_seconds=arguments.poll, give_up_after=arguments.give_up_after)
        created = parley.create_ask(to, arguments.title, body=arguments.body, response_schema=schema, within=arguments.within, idempotency_key=key)
        print(f"Asked ({created.ask['url']}); waiting. Run again with --key {key} to pick this ask up.", file=sys.stderr)
        result = parley.wait(created.ask["id"])
    except (ParleyError, ValueError) as error:
        print(str(error), file=sys.stderr)
        return EXIT_ERROR
    finally:
        logger.removeHandler(handler)

    if result.ok:
        who = result.ask.get("answered_by") or {"name": "someone", "email": "?"}
        print(f"Answered by {who['name']} <{who['email']}>.", file=sys.stderr)
        print(json.dumps(result.value, ensure_ascii=False))
        return EXIT_ANSWERED
    if result.reason == "declined":
        declined_by = result.ask.get("declined_by")
        note = f" Their note: {result.note}" if result.note else ""
        print(f"{declined_by['name'] if declined_by else 'The person'} declined to answer.{note}", file=sys.stderr)
    else:
        print(f"Nobody answered: {result.reason}.", file=sys.stderr)
    print(result.reason)
    return EXIT_NOTHING


def run(prog: str = "parley-ask") -> NoReturn:
    """The console entry point: ``main`` with ``sys.argv``, exiting with its code."""
    try:
        sys.exit(main(sys.argv[1:], prog))
    except KeyboardInterrupt:
        # The ask stays open: run again with the same --key to pick it up.
        sys.exit(EXIT_ERROR)
