"""The OpenFeature Python SDK with its OFREP provider against `lab serve`.

Usage: ofrep_client.py BASE_URL [--api-key KEY] [--context JSON] KEY:TYPE...   (TYPE: string, integer, float, boolean)
With --api-key, the provider sends `Authorization: Bearer KEY`, as OFREP says.
With --context, every evaluation carries that evaluation context: its
`targetingKey` as the targeting key, the other members as attributes.
Prints one JSON document: each key's value, variant, reason and metadata.
"""
import json
import sys

from openfeature import api
from openfeature.evaluation_context import EvaluationContext
from openfeature.contrib.provider.ofrep import OFREPProvider

base, arguments = sys.argv[1], sys.argv[2:]
headers = None
if arguments[:1] == ["--api-key"]:
    api_key = arguments[1]
    headers = lambda: {"Authorization": f"Bearer {api_key}"}
    arguments = arguments[2:]
context = None
if arguments[:1] == ["--context"]:
    members = json.loads(arguments[1])
    context = EvaluationContext(targeting_key=members.pop("targetingKey", None), attributes=members)
    arguments = arguments[2:]
pairs = [arg.split(":") for arg in arguments]
api.set_provider(OFREPProvider(base_url=base, headers_factory=headers))
client = api.get_client()
answers = {}
resolvers = {"string": (client.get_string_details, "missing"), "integer": (client.get_integer_details, -1),
             "float": (client.get_float_details, -1.0), "boolean": (client.get_boolean_details, False)}
for key, kind in pairs:
    resolve, fallback = resolvers[kind]
    details = resolve(key, fallback, evaluation_context=context)
    answers[key] = {"value": details.value, "variant": details.variant, "reason": str(details.reason),
                    "metadata": dict(details.flag_metadata or {}), "error": str(details.error_code)}
print(json.dumps(answers))
