"""Receive Parley's webhooks with the standard library: verify each, act on it once, answer 204 (400 when forged)."""

import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer

from parley_client import ParleyWebhookError, verify_webhook

SECRET = os.environ["PARLEY_WEBHOOK_SECRET"]  # the agent key's whsec_… secret
seen: set[str] = set()  # webhook-ids handled: a retry carries the same one (keep them in your database)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            event = verify_webhook(SECRET, self.headers, body)  # the raw body, before any parsing
            if (event.type == "ask.answered" or event.type == "ask.nothing") and event.id not in seen:
                seen.add(event.id)
                print(json.dumps({"type": event.type, "metadata": event.data["metadata"], "answer": event.data["answer"], "reason": event.data["reason"]}), flush=True)
            self.send_response(204)
        except ParleyWebhookError as error:
            print(f"refused: {error.reason}", flush=True)
            self.send_response(204 if error.reason == "unknown-type" else 400)
        self.end_headers()


server = HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "0"))), Receiver)
print(f"listening on http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()
