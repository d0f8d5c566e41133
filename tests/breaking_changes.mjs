// The changes from one OpenAPI document to another that can break a caller,
// as api-smart-diff classifies them (package.json; tests/test_contract_changes.py).
//
//   node tests/breaking_changes.mjs RELEASED.json CURRENT.json
//
// prints a JSON list of the breaking changes, each {action, path, description},
// and the number of changes of every kind; it exits 0 whatever it finds.
import { readFileSync } from "node:fs";
import { apiCompare } from "api-smart-diff";

const [released, current] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, "utf8")));
const { diffs } = apiCompare(released, current);
const counts = {};
for (const diff of diffs) counts[diff.type] = (counts[diff.type] ?? 0) + 1;
const breaking = diffs
  .filter((diff) => diff.type === "breaking")
  .map((diff) => ({ action: diff.action, path: diff.path, description: diff.description ?? "" }));
process.stdout.write(JSON.stringify({ breaking, counts }));
