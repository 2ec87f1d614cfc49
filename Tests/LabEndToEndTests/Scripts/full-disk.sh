#!/usr/bin/env bash
# Runs in a mount namespace of its own (unshare -m): a 512 KiB tmpfs holds the
# state file; lab serve runs on it; the disk is then filled, an app posts
# events until a write fails, and lab report writes once more. Prints what
# each answered: "post STATUS BODY" and "report STATUS STDERR".
set -u
lab=$1 dir=$2 out=$3
mount -t tmpfs -o size=512k tmpfs "$dir" || { echo "cannot mount"; exit 3; }
"$lab" assignments --state "$dir/s.sqlite" >/dev/null
"$lab" serve --port 0 --state "$dir/s.sqlite" >"$out/serve.out" 2>"$out/serve.err" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
port=""
for _ in $(seq 200); do
    port=$(sed -n 's/^Serving .*:\([0-9]*\)$/\1/p' "$out/serve.out")
    [ -n "$port" ] && break
    sleep 0.05
done
[ -n "$port" ] || { echo "lab serve did not start"; exit 3; }
dd if=/dev/zero of="$dir/filler" bs=4k 2>/dev/null
python3 - "$port" <<'PY'
import json, sys, urllib.request, urllib.error
port = sys.argv[1]
event = json.dumps([{"experiment": "ButtonColor", "variant": "ButtonColorBlue", "reason": "clicked"}] * 50).encode()
for _ in range(2000):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/events/any", data=event,
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=30).read()
    except urllib.error.HTTPError as error:
        if error.code == 429:
            continue
        print("post", error.code, error.read().decode())
        break
PY
"$lab" report subscribeButtonColor --reason clicked --state "$dir/s.sqlite" >/dev/null 2>"$out/report.err"
echo "report $? $(cat "$out/report.err")"
