"""One official GrowthBook Python SDK, streaming from `lab serve`, watching a feature change.

Usage: growthbook_watcher.py CONFIG_JSON
CONFIG_JSON holds: base, clientKey, attributes (the SDK user) and feature.
Once its features are loaded it prints {"ready": true, "value": ...}; then it
waits (at most 15 s) until a new payload changes the feature's rules, and
prints one JSON document: the value then, the wall-clock time the value
changed (if it did) and the rules did, and what its tracking callback reported.
The SDK keeps one stream per process, so each user runs in a process of its own.
"""
import json
import os
import sys
import time

from growthbook import GrowthBook

config = json.loads(sys.argv[1])
feature = config["feature"]
tracked = []


def on_viewed(experiment, result, user_context=None):
    tracked.append({"experiment": experiment.key, "key": result.key})


gb = GrowthBook(api_host=config["base"], client_key=config["clientKey"], attributes=config["attributes"],
                on_experiment_viewed=on_viewed, streaming=True)
gb.load_features()


def rules():
    return [vars(rule) for rule in gb.get_features()[feature].rules] if feature in gb.get_features() else None


before = gb.get_feature_value(feature, None)
rules_before = repr(rules())
tracked.clear()
print(json.dumps({"ready": True, "value": before}), flush=True)

value_changed_at = None
rules_changed_at = None
started = time.monotonic()
while time.monotonic() - started < 15:
    if value_changed_at is None and gb.get_feature_value(feature, None) != before:
        value_changed_at = time.time()
    if repr(rules()) != rules_before:
        rules_changed_at = time.time()
        break
    time.sleep(0.02)

after = gb.get_feature_value(feature, None)
if after != before and value_changed_at is None:
    value_changed_at = rules_changed_at  # both arrived with the one payload
print(json.dumps({"value": after, "valueChangedAt": value_changed_at, "rulesChangedAt": rules_changed_at,
                  "tracked": tracked}), flush=True)
# The SDK's destroy() waits up to 10 s for its stream thread; the process is done.
os._exit(0)
