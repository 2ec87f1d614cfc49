"""The Python GrowthBook SDK's side of `lab-bench growthbook`.

Evaluates every feature of the payload for each user, a fresh GrowthBook
instance per user (as the Swift side makes a fresh evaluator), and prints
one line of JSON: the seconds each user's evaluations took, by the wall
clock and in CPU time of this thread (the Swift side takes their median, as
it does of its own users, so a moment of a busy machine does not decide the
ratio; CPU time moves far less with load than wall time), and the SDK's version.

Usage: python growthbook_python_bench.py PAYLOAD.json USERS.json
"""
import json
import sys
import time

from importlib.metadata import version
from growthbook import GrowthBook


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        payload = json.load(file)
    with open(sys.argv[2], encoding="utf-8") as file:
        users = json.load(file)
    features = payload["features"]
    keys = list(features)
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
    print(json.dumps({"perUser": per_user, "cpuPerUser": cpu_per_user, "version": version("growthbook")}))


if __name__ == "__main__":
    main()
