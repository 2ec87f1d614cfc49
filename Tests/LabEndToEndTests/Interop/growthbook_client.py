"""The official GrowthBook Python SDK against `lab serve`, with streaming.

Usage: growthbook_client.py CONFIG_JSON
CONFIG_JSON holds: base, clientKey, attributes (the SDK user), force (the
`lab force` command line to run once the features are loaded), feature and
expected (the value the force must bring down the stream).
Prints one JSON document: the feature values it first got, how long the
stream took to bring the forced value, and what the tracking callback reported.
"""
import json
import os
import subprocess
import sys
import time

from growthbook import GrowthBook

config = json.loads(sys.argv[1])
tracked = []


def on_viewed(experiment, result, user_context=None):
    tracked.append({"experiment": experiment.key, "variationId": result.variationId, "key": result.key,
                    "name": result.name})


gb = GrowthBook(api_host=config["base"], client_key=config["clientKey"], attributes=config["attributes"],
                on_experiment_viewed=on_viewed, streaming=True)
gb.load_features()
features = sorted(gb.get_features().keys())
initial = {key: gb.get_feature_value(key, None) for key in features}

# No wait for the stream to open: whenever it does, its first event carries
# what is served then, so the forced value arrives either way.
subprocess.run(config["force"], check=True, capture_output=True)
started = time.monotonic()
seconds = None
while time.monotonic() - started < 10:
    if gb.get_feature_value(config["feature"], None) == config["expected"]:
        seconds = time.monotonic() - started
        break
    time.sleep(0.02)

print(json.dumps({"initial": initial, "seconds": seconds, "tracked": tracked}), flush=True)
# The SDK's destroy() waits up to 10 s for its stream thread; the process is done.
os._exit(0)
