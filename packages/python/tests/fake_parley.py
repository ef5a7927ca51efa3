"""A tiny HTTP server a test scripts request by request, standing in for Parley (http.server, in a thread)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Union

ASK_ID = "ask_test_1"


@dataclass
class Received:
    """A request the fake received."""

    method: str
    #: Path and query, e.g. ``/api/v1/asks/ask_test_1?wait=1``.
    path: str
    headers: Dict[str, str]
    body: str
    #: When it arrived (time.monotonic()).
    at: float


@dataclass
class Reply:
    """What the fake answers: a status, a JSON body, headers; ``delay`` seconds first; ``drop`` closes the connection instead."""

    status: int = 200
    body: Any = None
    headers: Optional[Dict[str, str]] = None
    delay: float = 0
    drop: bool = False


Script = Callable[[Received], Reply]


def ask_json(**changes: Any) -> Dict[str, Any]:
    """An open ask as the API returns it, with ``changes``."""
    ask: Dict[str, Any] = {
        "id": ASK_ID, "status": "open", "title": "Deploy?", "body": None, "context": None, "to": "sam@parley.test",
        "url": "http://parley.test/questions/q_1", "question_id": "q_1", "due_at": None, "created_at": "2026-01-01T00:00:00.000Z",
        "metadata": None, "attempts": {"allowed": 3, "refused": 0}, "waited_seconds": 0, "answer": None, "answered_by": None,
        "answered_at": None, "reason": None, "declined_by": None, "note": None,
    }
    ask.update(changes)
    return ask


def answered_json(answer: Union[str, Dict[str, Any]]) -> Dict[str, Any]:
    """The ask answered with ``answer`` by Sam."""
    return ask_json(status="answered", answer=answer, answered_by={"email": "sam@parley.test", "name": "Sam"}, answered_at="2026-01-01T00:01:00.000Z")


def api_error(status: int, code: str, message: str, path: Optional[str] = None, headers: Optional[Dict[str, str]] = None) -> Reply:
    """The API's error shape."""
    error: Dict[str, Any] = {"code": code, "message": message}
    if path is not None:
        error["path"] = path
    return Reply(status, {"error": error}, headers)


class FakeParley:
    """Listens on 127.0.0.1 (a free port, or ``port``); ``script`` answers each request."""

    def __init__(self, script: Script, port: int = 0) -> None:
        self.script = script
        self.received: List[Received] = []
        self._server: Optional[ThreadingHTTPServer] = None
        self.port = self._listen(port)
        self.url = f"http://127.0.0.1:{self.port}"

    def _listen(self, port: int) -> int:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8") if length else ""
                entry = Received(self.command, self.path, {key.lower(): value for key, value in self.headers.items()}, body, time.monotonic())
                fake.received.append(entry)
                reply = fake.script(entry)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                content = json.dumps(reply.body).encode("utf-8") if reply.body is not None else b""
                try:
                    self.send_response(reply.status)
                    for name, value in (reply.headers or {}).items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(content)))
                    self.end_headers()
                    self.wfile.write(content)
                except OSError:
                    pass  # The client gave up on this request (a timeout the test provoked).

            do_GET = _handle
            do_POST = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self._server = server
        return int(server.server_address[1])

    def close(self) -> None:
        """Stops listening: new connections are refused."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def reopen(self) -> None:
        """Listens again on the same port."""
        self._listen(self.port)
