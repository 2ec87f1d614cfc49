// Runs generated patterns with JavaScript's own RegExp, for
// RegexDifferentialTests: reads [[pattern, flags, input], ...] from the
// file named first and prints, for each, true, false or "error" (the
// pattern does not compile), exactly as GrowthBook's SDK tests `$regex`.
"use strict";
const fs = require("fs");
const tests = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = tests.map(([pattern, flags, input]) => {
  let regex;
  try {
    regex = new RegExp(pattern, flags);
  } catch (e) {
    return "error";
  }
  return regex.test(input);
});
process.stdout.write(JSON.stringify(out));
