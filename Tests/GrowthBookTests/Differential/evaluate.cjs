// Evaluates generated payloads with GrowthBook's own JavaScript SDK, for
// JavaScriptDifferentialTests. Reads, from the file named first,
// [{sessions: [payload, ...], attributes: [...]}]: each attribute set is
// evaluated with each payload in turn (later sessions with the sticky
// bucket documents the earlier ones saved, when the case is sticky). Prints,
// per case, per attribute set, per session, per feature (in the payload's
// order), the fields the Swift library is compared on.
"use strict";
const fs = require("fs");
const gb = require(process.argv[3]);
console.error = () => {};
console.warn = () => {};
console.log = () => {};

class MemoryStickyBuckets extends gb.StickyBucketServiceSync {
  constructor() {
    super();
    this.docs = {};
  }
  getAssignmentsSync(name, value) {
    return this.docs[name + "||" + value] || null;
  }
  saveAssignmentsSync(doc) {
    this.docs[doc.attributeName + "||" + doc.attributeValue] = doc;
  }
}

const orNull = (value) => (value === undefined ? null : value);

function fields(r) {
  const e = r.experimentResult;
  return {
    value: orNull(r.value),
    source: r.source,
    ruleId: r.ruleId,
    experiment: e
      ? {
          key: e.key, variationId: e.variationId, inExperiment: e.inExperiment, hashUsed: e.hashUsed,
          hashAttribute: e.hashAttribute, hashValue: orNull(e.hashValue), bucket: orNull(e.bucket),
          stickyBucketUsed: e.stickyBucketUsed, passthrough: orNull(e.passthrough), name: orNull(e.name),
          leafId: orNull(e.leafId), variationWeights: orNull(e.variationWeights),
        }
      : null,
  };
}

const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = cases.map(({ sessions, attributes, sticky }) =>
  attributes.map((attrs) => {
    const store = sticky ? new MemoryStickyBuckets() : null;
    return sessions.map((payload) => {
      const options = { attributes: attrs };
      if (store) options.stickyBucketService = store;
      const g = new gb.GrowthBook(options);
      g.initSync({ payload });
      const results = Object.keys(payload.features).map((key) => fields(g.evalFeature(key)));
      g.destroy();
      return results;
    });
  })
);
process.stdout.write(JSON.stringify(out));
