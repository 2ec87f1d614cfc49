"""The Python GrowthBook SDK's side of `lab-bench growthbook`, run in rounds
between the Swift side's, so both meet the same moments of a busy machine.

Loads the payload, prints one line of JSON ({"version": ...}), then for
each line on standard input (a JSON array of users' attributes) evaluates
every feature for each user, a fresh GrowthBook instance per user (as the
Swift side makes a fresh evaluator), and prints one line of JSON: the
seconds each user's evaluations took, by the wall clock and in CPU time of
this thread (CPU time moves far less with load than wall time). It ends at
end of input.

Each round brings users the SDK has not seen: evaluating the same users'
attribute objects again runs 2.5 times faster than evaluating new users, and
an app serves new users.

Usage: python growthbook_python_bench.py PAYLOAD.json
"""
import json
import sys
import time

from importlib.metadata import version
from growthbook import GrowthBook


def run_round(features: dict, keys: list, users: list) -> dict:
    per_user = []
    cpu_per_user = []
    for attributes in users:
        growthbook = GrowthBook(attributes=attributes, features=features)
        start = time.perf_counter()
        cpu_start = time.thread_time()
        for key in keys:
            growthbook.eval_feature(key)
        cpu_per_user.append(time.thread_time() - cpu_start)
        per_user.append(time.perf_counter() - start)
        growthbook.destroy()
    return {"perUser": per_user, "cpuPerUser": cpu_per_user}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        payload = json.load(file)
    features = payload["features"]
    keys = list(features)
    print(json.dumps({"version": version("growthbook")}), flush=True)
    for line in sys.stdin:
        print(json.dumps(run_round(features, keys, json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
