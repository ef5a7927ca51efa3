"""The client rides out what passes — 5xx, 429, a server down, a hung request — and gives up when told."""

from __future__ import annotations

import threading
import time
import unittest
from typing import Dict, Optional

import local_package  # noqa: F401  (before parley_client)
from fake_parley import ASK_ID, FakeParley, Received, Reply, answered_json, api_error, ask_json

from parley_client import Client, ParleyApiError, ParleyUnavailableError
from parley_client.transport import retry_after_seconds


class Retries(unittest.TestCase):
    fake: Optional[FakeParley] = None

    def tearDown(self) -> None:
        if self.fake is not None:
            self.fake.close()

    def test_a_503_and_a_429_are_waited_out_sending_the_same_ask_again(self) -> None:
        calls: Dict[str, int] = {"POST": 0, "GET": 0}

        def script(request: Received) -> Reply:
            calls[request.method] += 1
            if request.method == "POST":
                return api_error(503, "unavailable", "Down a moment.") if calls["POST"] == 1 else Reply(201, ask_json())
            if calls["GET"] == 1:
                return api_error(429, "rate_limited", "Slow down.", headers={"Retry-After": "1"})
            return Reply(200, answered_json({"decision": "approve"}))

        self.fake = FakeParley(script)
        result = Client(self.fake.url, "pk_test", poll_seconds=5).ask("sam@parley.test", "Deploy?", response_schema={"type": "object"}, idempotency_key="deploy-1")
        self.assertTrue(result.ok)
        assert result.ok
        self.assertEqual(result.value, {"decision": "approve"})
        first, second, limited, after = self.fake.received
        self.assertEqual([first.headers["idempotency-key"], second.headers["idempotency-key"]], ["deploy-1", "deploy-1"])
        self.assertEqual(first.body, second.body)
        self.assertEqual(limited.path, f"/api/v1/asks/{ASK_ID}?wait=5")
        self.assertGreaterEqual(after.at - limited.at, 0.95, "Retry-After: 1 was honoured")
        self.assertEqual(first.headers["authorization"], "Bearer pk_test")

    def test_a_server_that_is_down_for_a_while_is_waited_out(self) -> None:
        self.fake = FakeParley(lambda request: Reply(201, answered_json("Ship it.")))
        self.fake.close()
        fake = self.fake
        threading.Timer(1.0, fake.reopen).start()
        started = time.monotonic()
        result = Client(fake.url, "pk_test", min_delay=0.05, max_delay=0.2).ask("sam@parley.test", "Deploy?")
        self.assertGreaterEqual(time.monotonic() - started, 0.9)
        self.assertTrue(result.ok and result.value == "Ship it.")
        self.assertEqual(len(fake.received), 1, "nothing arrived while the server was down")

    def test_a_request_that_hangs_is_abandoned_and_sent_again(self) -> None:
        gets = {"count": 0}

        def script(request: Received) -> Reply:
            if request.method == "POST":
                return Reply(201, ask_json())
            gets["count"] += 1
            return Reply(200, ask_json(), delay=3) if gets["count"] == 1 else Reply(200, answered_json("Yes."))

        self.fake = FakeParley(script)
        started = time.monotonic()
        result = Client(self.fake.url, "pk_test", poll_seconds=1, request_timeout=0.5, min_delay=0.05).ask("sam@parley.test", "Deploy?")
        self.assertTrue(result.ok)
        self.assertLess(time.monotonic() - started, 2.9, "the hung request was not waited for")
        self.assertEqual(gets["count"], 2)

    def test_a_connection_dropped_without_a_response_is_sent_again(self) -> None:
        posts = {"count": 0}

        def script(request: Received) -> Reply:
            posts["count"] += 1
            return Reply(drop=True) if posts["count"] == 1 else Reply(200, answered_json("Yes."))

        self.fake = FakeParley(script)
        result = Client(self.fake.url, "pk_test", min_delay=0.05).ask("sam@parley.test", "Deploy?", idempotency_key="k")
        self.assertTrue(result.ok)
        self.assertEqual([r.headers["idempotency-key"] for r in self.fake.received], ["k", "k"])

    def test_a_server_failing_longer_than_give_up_after_raises_parley_unavailable_error(self) -> None:
        self.fake = FakeParley(lambda request: api_error(503, "unavailable", "The database cannot be reached."))
        started = time.monotonic()
        with self.assertRaises(ParleyUnavailableError) as raised:
            Client(self.fake.url, "pk_test", give_up_after=1, min_delay=0.1, max_delay=0.3).ask("sam@parley.test", "Deploy?")
        self.assertLess(time.monotonic() - started, 2.5)
        self.assertEqual(raised.exception.status, 503)
        self.assertIn("The database cannot be reached.", str(raised.exception))
        self.assertGreater(len(self.fake.received), 2)

    def test_a_refusal_is_raised_at_once_with_its_code_and_path(self) -> None:
        self.fake = FakeParley(lambda request: api_error(422, "unknown_person", "There is nobody in Parley with the email nobody@parley.test.", path="to"))
        with self.assertRaises(ParleyApiError) as raised:
            Client(self.fake.url, "pk_test").ask("nobody@parley.test", "Deploy?")
        error = raised.exception
        self.assertEqual((error.status, error.code, error.path), (422, "unknown_person", "to"))
        self.assertIn("422 unknown_person at to", str(error))
        self.assertEqual(len(self.fake.received), 1)

    def test_a_refusal_that_is_not_the_apis_shape_gets_a_code_from_its_status(self) -> None:
        self.fake = FakeParley(lambda request: Reply(401, None))
        with self.assertRaises(ParleyApiError) as raised:
            Client(self.fake.url, "pk_wrong").get_ask("ask_1")
        self.assertEqual((raised.exception.status, raised.exception.code), (401, "http_401"))

    def test_retry_after_is_read_as_seconds_or_as_an_http_date(self) -> None:
        self.assertEqual(retry_after_seconds("7"), 7.0)
        self.assertAlmostEqual(retry_after_seconds("Thu, 01 Jan 2026 00:00:30 GMT", now=1767225600.0) or 0, 30.0)
        self.assertEqual(retry_after_seconds("Thu, 01 Jan 2026 00:00:30 GMT", now=1767225660.0), 0.0)
        self.assertIsNone(retry_after_seconds("soon"))
        self.assertIsNone(retry_after_seconds(None))


if __name__ == "__main__":
    unittest.main()
