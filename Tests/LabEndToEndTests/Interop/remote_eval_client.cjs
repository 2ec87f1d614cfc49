// GrowthBook's own JavaScript SDK (../shared/reference/growthbook-js) against
// `lab serve` with remote evaluation: the SDK posts its user to
// /api/eval/{clientKey} and reads back evaluated features.
//
// Usage: node remote_eval_client.cjs SDK CONFIG_JSON
// CONFIG_JSON holds: base, clientKey, attributes (the SDK user), force (the
// `lab force` command line to run once the features are loaded), feature and
// expected (the value the force must bring on a later fetch).
// Prints one JSON document: the values it first got, how long until a
// refetch brought the forced value, what the tracking callback reported, and
// whether the answers held any targeting (they must not).
"use strict";
const { execFileSync } = require("child_process");
const gb = require(process.argv[2]);
console.error = () => {};
console.warn = () => {};
console.log = () => {};

const config = JSON.parse(process.argv[3]);
const tracked = [];
const answers = [];
const realFetch = globalThis.fetch;
gb.setPolyfills({
  fetch: async (url, options) => {
    const response = await realFetch(url, options);
    answers.push(await response.clone().text());
    return response;
  },
});

(async () => {
  const client = new gb.GrowthBook({
    apiHost: config.base,
    clientKey: config.clientKey,
    remoteEval: true,
    attributes: config.attributes,
    trackingCallback: (experiment, result) => {
      tracked.push({ experiment: experiment.key, variationId: result.variationId, key: result.key });
    },
  });
  await client.init({ timeout: 5000, streaming: false });
  const initial = {};
  for (const key of Object.keys(client.getFeatures()).sort()) initial[key] = client.getFeatureValue(key, null);
  execFileSync(config.force[0], config.force.slice(1), { stdio: "ignore" });
  const started = Date.now();
  let seconds = null;
  while (Date.now() - started < 10000) {
    await client.refreshFeatures({ skipCache: true });
    if (client.getFeatureValue(config.feature, null) === config.expected) {
      seconds = (Date.now() - started) / 1000;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Evaluating after the force fires the tracking callback from the answer's `tracks`.
  const forced = client.evalFeature(config.feature);
  const targeting = answers.some((text) => text.includes('"condition"'));
  client.destroy();
  process.stdout.write(
    JSON.stringify({ initial, seconds, tracked, source: forced.source, requests: answers.length, targeting }) + "\n"
  );
  process.exit(0);
})().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + "\n");
  process.exit(1);
});
