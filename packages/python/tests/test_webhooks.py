"""verify_webhook accepts what the standardwebhooks npm package signs, and refuses what it should."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import unittest
from datetime import datetime, timezone
from email.message import Message
from typing import Any, Dict

import local_package  # noqa: F401  (before parley_client)

from parley_client import AskAnsweredEvent, AskNothingEvent, ParleyWebhookError, QuestionOpenedEvent, QuestionRemindedEvent, verify_webhook

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "webhook_vectors.json"), encoding="utf-8") as file:
    VECTORS: Dict[str, Any] = json.load(file)

SECRET: str = VECTORS["secret"]
ANSWERED: Dict[str, str] = VECTORS["vectors"][0]


def at(vector: Dict[str, str], offset: float = 0) -> datetime:
    """The moment the vector was signed, plus ``offset`` seconds."""
    return datetime.fromtimestamp(int(vector["timestamp"]) + offset, tz=timezone.utc)


def headers(vector: Dict[str, str]) -> Dict[str, str]:
    return {"webhook-id": vector["id"], "webhook-timestamp": vector["timestamp"], "webhook-signature": vector["signature"]}


class VerifyWebhook(unittest.TestCase):
    def assertRefused(self, reason: str, *args: Any, **kwargs: Any) -> None:
        with self.assertRaises(ParleyWebhookError) as raised:
            verify_webhook(*args, **kwargs)
        self.assertEqual(raised.exception.reason, reason)

    def test_every_event_signed_by_standardwebhooks_is_read_as_its_typed_event(self) -> None:
        kinds = [AskAnsweredEvent, AskNothingEvent, QuestionOpenedEvent, QuestionRemindedEvent]
        for vector, kind in zip(VECTORS["vectors"], kinds):
            with self.subTest(vector["name"]):
                event = verify_webhook(SECRET, headers(vector), vector["body"].encode("utf-8"), now=at(vector))
                self.assertIsInstance(event, kind)
                envelope = json.loads(vector["body"])
                self.assertEqual((event.type, event.id, event.timestamp, event.data), (envelope["type"], vector["id"], envelope["timestamp"], envelope["data"]))

    def test_an_answered_event_carries_the_answer_and_the_askers_metadata(self) -> None:
        event = verify_webhook(SECRET, headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED))
        if event.type != "ask.answered":
            self.fail(f"read as {event.type}")
        self.assertEqual(event.data["answer"], {"decision": "approve", "window_hours": 2})
        self.assertEqual(event.data["metadata"], {"job": "deploy-4.2", "step": 3})

    def test_a_body_with_non_ascii_text_verifies_as_text_or_as_bytes(self) -> None:
        vector = VECTORS["vectors"][1]
        self.assertIn("✋", vector["body"])
        for body in (vector["body"], vector["body"].encode("utf-8")):
            event = verify_webhook(SECRET, headers(vector), body, now=at(vector))
            self.assertEqual(event.type, "ask.nothing")
            if event.type == "ask.nothing":
                self.assertEqual((event.data["reason"], event.data["note"]), ("declined", "Pas aujourd’hui — gel des déploiements ✋"))

    def test_a_changed_body_is_a_mismatch(self) -> None:
        body = ANSWERED["body"].replace("approve", "reject")
        self.assertRefused("mismatch", SECRET, headers(ANSWERED), body, now=at(ANSWERED))

    def test_a_signature_moved_to_another_message_id_is_a_mismatch(self) -> None:
        self.assertRefused("mismatch", SECRET, {**headers(ANSWERED), "webhook-id": "msg_other"}, ANSWERED["body"], now=at(ANSWERED))

    def test_another_secret_is_a_mismatch(self) -> None:
        self.assertRefused("mismatch", VECTORS["previous_secret"], headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED))

    def test_a_timestamp_beyond_the_tolerance_either_way_is_stale(self) -> None:
        self.assertRefused("stale", SECRET, headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED, 301))
        self.assertRefused("stale", SECRET, headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED, -301))
        self.assertRefused("stale", SECRET, headers(ANSWERED), ANSWERED["body"], tolerance=10, now=at(ANSWERED, 11))
        self.assertEqual(verify_webhook(SECRET, headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED, 299)).id, ANSWERED["id"])

    def test_the_current_time_is_used_when_now_is_not_given(self) -> None:
        self.assertRefused("stale", SECRET, headers(ANSWERED), ANSWERED["body"])

    def test_a_missing_or_unreadable_header_is_malformed(self) -> None:
        for name in ("webhook-id", "webhook-timestamp", "webhook-signature"):
            with self.subTest(name):
                without = {key: value for key, value in headers(ANSWERED).items() if key != name}
                self.assertRefused("malformed", SECRET, without, ANSWERED["body"], now=at(ANSWERED))
        self.assertRefused("malformed", SECRET, {**headers(ANSWERED), "webhook-timestamp": "1e9"}, ANSWERED["body"], now=at(ANSWERED))

    def test_headers_are_found_in_any_case_and_in_http_servers_message(self) -> None:
        shouted = {key.upper(): value for key, value in headers(ANSWERED).items()}
        self.assertEqual(verify_webhook(SECRET, shouted, ANSWERED["body"], now=at(ANSWERED)).type, "ask.answered")
        message = Message()
        for key, value in headers(ANSWERED).items():
            message[key.title()] = value
        self.assertEqual(verify_webhook(SECRET, message, ANSWERED["body"], now=at(ANSWERED)).type, "ask.answered")

    def test_while_a_secret_is_rotated_either_secret_verifies(self) -> None:
        previous = VECTORS["signed_with_previous_secret"]
        secrets = [SECRET, VECTORS["previous_secret"]]
        self.assertEqual(verify_webhook(secrets, headers(previous), previous["body"], now=at(previous)).id, previous["id"])
        self.assertEqual(verify_webhook(secrets, headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED)).id, ANSWERED["id"])

    def test_one_matching_signature_among_several_and_other_versions_is_enough(self) -> None:
        signature = f"v1a,abc {VECTORS['signed_with_previous_secret']['signature']} {ANSWERED['signature']}"
        self.assertEqual(verify_webhook(SECRET, {**headers(ANSWERED), "webhook-signature": signature}, ANSWERED["body"], now=at(ANSWERED)).type, "ask.answered")
        self.assertRefused("mismatch", SECRET, {**headers(ANSWERED), "webhook-signature": ANSWERED["signature"].replace("v1,", "v2,")}, ANSWERED["body"], now=at(ANSWERED))

    def test_a_verified_event_of_an_unknown_type_is_refused_with_its_body(self) -> None:
        vector = VECTORS["vectors"][4]
        with self.assertRaises(ParleyWebhookError) as raised:
            verify_webhook(SECRET, headers(vector), vector["body"], now=at(vector))
        self.assertEqual(raised.exception.reason, "unknown-type")
        self.assertEqual(raised.exception.body, json.loads(vector["body"]))

    def test_a_signed_body_that_is_not_the_envelope_is_malformed(self) -> None:
        key = base64.b64decode(SECRET[len("whsec_"):])
        body = '{"type":"ask.answered"}'
        signature = base64.b64encode(hmac.new(key, f"msg_1.{ANSWERED['timestamp']}.{body}".encode(), hashlib.sha256).digest()).decode()
        self.assertRefused("malformed", SECRET, {**headers(ANSWERED), "webhook-id": "msg_1", "webhook-signature": f"v1,{signature}"}, body, now=at(ANSWERED))

    def test_a_secret_that_is_not_whsec_base64_is_a_value_error(self) -> None:
        for secret in ("whsec_not base64!", "whsec_", []):
            with self.subTest(repr(secret)), self.assertRaises(ValueError):
                verify_webhook(secret, headers(ANSWERED), ANSWERED["body"], now=at(ANSWERED))


if __name__ == "__main__":
    unittest.main()
