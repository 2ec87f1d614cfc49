// Evaluates generated payloads with GrowthBook's own JavaScript SDK, for
// JavaScriptDifferentialTests: reads [{features, attributes: [...]}] from
// the file named first, prints, per payload, per attribute set, per feature
// (in the payload's order), the fields the Swift library is compared on.
"use strict";
const fs = require("fs");
const gb = require(process.argv[3]);
console.error = () => {};
console.warn = () => {};
const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = cases.map(({ features, attributes }) =>
  attributes.map((attrs) => {
    const g = new gb.GrowthBook({ features, attributes: attrs });
    const results = Object.keys(features).map((key) => {
      const r = g.evalFeature(key);
      const e = r.experimentResult;
      return {
        value: r.value === undefined ? null : r.value,
        source: r.source,
        ruleId: r.ruleId,
        experiment: e ? {
          key: e.key, variationId: e.variationId, inExperiment: e.inExperiment, hashUsed: e.hashUsed,
          hashAttribute: e.hashAttribute, hashValue: e.hashValue === undefined ? null : e.hashValue,
          bucket: e.bucket === undefined ? null : e.bucket, stickyBucketUsed: e.stickyBucketUsed,
          passthrough: e.passthrough === undefined ? null : e.passthrough,
        } : null,
      };
    });
    g.destroy();
    return results;
  })
);
process.stdout.write(JSON.stringify(out));
