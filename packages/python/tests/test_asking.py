"""What ``ask`` and the rest send, and what they give back: typed outcomes, never a second question."""

from __future__ import annotations

import json
import unittest
from datetime import datetime, timedelta, timezone
from typing import List, Optional

import local_package  # noqa: F401  (before parley_client)
from fake_parley import ASK_ID, FakeParley, Received, Reply, answered_json, ask_json

from parley_client import Answered, Client, Nothing, ParleyAnswerError


class Asking(unittest.TestCase):
    fake: Optional[FakeParley] = None

    def tearDown(self) -> None:
        if self.fake is not None:
            self.fake.close()

    def test_a_free_text_answer_comes_back_as_answered_with_the_text(self) -> None:
        self.fake = FakeParley(lambda request: Reply(201, answered_json("Ship it on Monday.")))
        result = Client(self.fake.url, "pk_test").ask("sam@parley.test", "What should the note say?")
        self.assertIsInstance(result, Answered)
        self.assertTrue(result.ok)
        if result.ok:
            self.assertEqual(result.value, "Ship it on Monday.")
            self.assertEqual(result.ask["answered_by"], {"email": "sam@parley.test", "name": "Sam"})

    def test_nobody_answering_comes_back_as_nothing_with_the_reason_and_the_note(self) -> None:
        declined = ask_json(status="nothing", reason="declined", note="Not my call.", declined_by={"email": "sam@parley.test", "name": "Sam"}, answered_at="2026-01-01T00:01:00.000Z")
        self.fake = FakeParley(lambda request: Reply(201, declined))
        result = Client(self.fake.url, "pk_test").ask("sam@parley.test", "Deploy?")
        self.assertIsInstance(result, Nothing)
        self.assertFalse(result.ok)
        if not result.ok:
            self.assertEqual((result.reason, result.note), ("declined", "Not my call."))

    def test_the_ask_is_sent_as_the_apis_snake_case_body(self) -> None:
        self.fake = FakeParley(lambda request: Reply(201, answered_json({"go": True})))
        schema = {"type": "object", "properties": {"go": {"type": "boolean", "description": "Go?"}}, "required": ["go"]}
        Client(self.fake.url + "/api/v1/", "  pk_test ").ask(
            ["sam@parley.test", "cy@parley.test"], "Deploy 4.2?", body="Canary is green.", context={"release": "4.2", "canary": True},
            response_schema=schema, within=timedelta(hours=4), attempts=2, callback_url="https://agent.example/hooks", metadata={"job": 7},
            idempotency_key="deploy-4.2",
        )
        request = self.fake.received[0]
        self.assertEqual((request.method, request.path), ("POST", "/api/v1/asks"))
        self.assertEqual(json.loads(request.body), {
            "to": ["sam@parley.test", "cy@parley.test"], "title": "Deploy 4.2?", "body": "Canary is green.", "context": {"release": "4.2", "canary": True},
            "response_schema": schema, "due_in_seconds": 14400, "attempts": 2, "callback_url": "https://agent.example/hooks", "metadata": {"job": 7},
        })
        self.assertEqual(request.headers["idempotency-key"], "deploy-4.2")
        self.assertEqual(request.headers["authorization"], "Bearer pk_test")
        self.assertEqual(request.headers["content-type"], "application/json")

    def test_a_deadline_is_sent_as_a_moment_in_utc_and_a_naive_one_is_refused(self) -> None:
        self.fake = FakeParley(lambda request: Reply(201, ask_json(status="nothing", reason="away")))
        parley = Client(self.fake.url, "pk_test")
        created = parley.create_ask("sam@parley.test", "Deploy?", due_at=datetime(2026, 1, 1, 12, 0, tzinfo=timezone(timedelta(hours=2))))
        self.assertEqual(json.loads(self.fake.received[0].body)["due_at"], "2026-01-01T10:00:00.000Z")
        self.assertTrue(created.created)
        self.assertEqual(len(created.idempotency_key), 36, "a generated key")
        with self.assertRaises(ValueError):
            parley.create_ask("sam@parley.test", "Deploy?", due_at=datetime(2026, 1, 1, 12, 0))
        with self.assertRaises(ValueError):
            parley.create_ask("sam@parley.test", "Deploy?", within=60, due_at="2026-01-01T10:00:00Z")
        self.assertEqual(len(self.fake.received), 1, "nothing sent for a mistake")

    def test_the_same_key_again_gives_the_ask_back_not_created(self) -> None:
        self.fake = FakeParley(lambda request: Reply(200, ask_json()))
        created = Client(self.fake.url, "pk_test").create_ask("sam@parley.test", "Deploy?", idempotency_key="deploy-4.2")
        self.assertFalse(created.created)
        self.assertEqual((created.ask["id"], created.idempotency_key), (ASK_ID, "deploy-4.2"))

    def test_waiting_long_polls_until_the_ask_closes_without_a_busy_loop(self) -> None:
        replies = [ask_json(), ask_json(), answered_json("Yes.")]
        self.fake = FakeParley(lambda request: Reply(200, replies.pop(0)))
        slept: List[float] = []
        result = Client(self.fake.url, "pk_test", poll_seconds=7, sleep=slept.append).wait(ASK_ID)
        self.assertEqual([request.path for request in self.fake.received], [f"/api/v1/asks/{ASK_ID}?wait=7"] * 3)
        self.assertTrue(result.ok)
        self.assertEqual(len(slept), 2, "a wait that came back open at once is followed by a pause")
        self.assertTrue(all(0 < seconds <= 1 for seconds in slept))

    def test_a_free_text_ask_answered_with_an_object_raises_parley_answer_error(self) -> None:
        self.fake = FakeParley(lambda request: Reply(201, answered_json({"go": True})))
        with self.assertRaises(ParleyAnswerError) as raised:
            Client(self.fake.url, "pk_test").ask("sam@parley.test", "Deploy?")
        self.assertEqual(raised.exception.answer, {"go": True})

    def test_cancel_get_and_list_reach_their_paths(self) -> None:
        def script(request: Received) -> Reply:
            if request.path.startswith("/api/v1/asks?"):
                return Reply(200, {"data": [ask_json()], "next_cursor": "c2"})
            if request.path.endswith("/cancel"):
                return Reply(200, ask_json(status="nothing", reason="cancelled", answered_at="2026-01-01T00:01:00.000Z"))
            return Reply(200, ask_json())

        self.fake = FakeParley(script)
        parley = Client(self.fake.url, "pk_test")
        self.assertEqual(parley.cancel("ask/1")["reason"], "cancelled")
        self.assertEqual(parley.get_ask("ask/1")["status"], "open")
        page = parley.list_asks(status="open", limit=5, cursor="c1")
        self.assertEqual((len(page["data"]), page["next_cursor"]), (1, "c2"))
        self.assertEqual(
            [(request.method, request.path) for request in self.fake.received],
            [("POST", "/api/v1/asks/ask%2F1/cancel"), ("GET", "/api/v1/asks/ask%2F1"), ("GET", "/api/v1/asks?status=open&limit=5&cursor=c1")],
        )

    def test_a_client_is_refused_without_a_key_or_with_a_url_that_is_not_http(self) -> None:
        with self.assertRaises(ValueError):
            Client("http://localhost:3000", " ")
        with self.assertRaises(ValueError):
            Client("localhost:3000", "pk_test")
        with self.assertRaises(ValueError):
            Client("http://localhost:3000", "pk_test", poll_seconds=61)


if __name__ == "__main__":
    unittest.main()
