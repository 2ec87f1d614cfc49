"""The official GrowthBook Python SDK against `lab serve`, with streaming.

Usage: growthbook_client.py BASE_URL CLIENT_KEY LAB STATE
Prints one JSON document: the feature values it first got, the variant it
forced with `lab force`, how long the stream took to bring the forced value,
and what the tracking callback reported.
"""
import json
import os
import subprocess
import sys
import time

from growthbook import GrowthBook

base, client_key, lab, state = sys.argv[1:5]
tracked = []


def on_viewed(experiment, result, user_context=None):
    tracked.append({"experiment": experiment.key, "variationId": result.variationId, "key": result.key,
                    "name": result.name})


gb = GrowthBook(api_host=base, client_key=client_key, attributes={"id": "interop-user"},
                on_experiment_viewed=on_viewed, streaming=True)
gb.load_features()
features = sorted(gb.get_features().keys())
initial = {key: gb.get_feature_value(key, None) for key in features}

# No wait for the stream to open: whenever it does, its first event carries
# what is served then, so the forced value arrives either way.
drawn = initial["subscribeButtonColor"]
forced = "ButtonColorDarkGray" if drawn != "darkGray" else "ButtonColorBlue"
expected = "darkGray" if forced == "ButtonColorDarkGray" else "blue"
subprocess.run([lab, "force", "ButtonColor", forced, "--state", state], check=True, capture_output=True)
started = time.monotonic()
seconds = None
while time.monotonic() - started < 10:
    if gb.get_feature_value("subscribeButtonColor", None) == expected:
        seconds = time.monotonic() - started
        break
    time.sleep(0.02)

print(json.dumps({"initial": initial, "forced": forced, "expected": expected, "seconds": seconds,
                  "tracked": tracked}), flush=True)
# The SDK's destroy() waits up to 10 s for its stream thread; the process is done.
os._exit(0)
