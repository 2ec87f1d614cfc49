"""The OpenFeature Python SDK with its OFREP provider against `lab serve`.

Usage: ofrep_client.py BASE_URL KEY:TYPE...   (TYPE: string, integer, float, boolean)
Prints one JSON document: each key's value, variant, reason and metadata.
"""
import json
import sys

from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider

base, pairs = sys.argv[1], [arg.split(":") for arg in sys.argv[2:]]
api.set_provider(OFREPProvider(base_url=base))
client = api.get_client()
answers = {}
resolvers = {"string": (client.get_string_details, "missing"), "integer": (client.get_integer_details, -1),
             "float": (client.get_float_details, -1.0), "boolean": (client.get_boolean_details, False)}
for key, kind in pairs:
    resolve, fallback = resolvers[kind]
    details = resolve(key, fallback)
    answers[key] = {"value": details.value, "variant": details.variant, "reason": str(details.reason),
                    "metadata": dict(details.flag_metadata or {}), "error": str(details.error_code)}
print(json.dumps(answers))
